/// Bearings of directed edges at their start, computed on first use and kept for the graph's lifetime, so a junction
/// view costs no trigonometry for roads already seen by an earlier query.
final class EdgeBearingCache: @unchecked Sendable {
    /// Bearing per directed edge (2 * edge + direction); NaN until computed.
    private var values: ContiguousArray<Double>

    init(directedEdgeCount: Int) {
        values = ContiguousArray(repeating: .nan, count: directedEdgeCount)
    }

    /// The cached bearing of directed edge `d`, computed with `compute` the first time.
    @inline(__always) func bearing(_ d: Int, compute: (Int) -> Double) -> Double {
        let cached = values[d]
        if !cached.isNaN { return cached }
        let made = compute(d)
        values[d] = made
        return made
    }
}
