/// The bearings of directed edges that announced turns have used, in words 6 and 7 of each edge's `MemoLines` line:
/// the direction of arrival at the edge's head (word 6) and of departure from its tail (word 7), both pure functions
/// of the edge. A turn the `TurnMemo` knows then gets its maneuver bearings from the two edges' lines, which the walk
/// reads anyway, instead of from the junction's slots. Stored as the bit pattern with its sign bit flipped, so a word
/// of zero means unknown (a bearing of -0.0 is not kept). One memo serves one step builder (one thread).
final class EdgeBearingMemo {
    private let storage: MemoLines
    private let count: Int
    private static let signBit: UInt64 = 1 << 63

    package init(lines: MemoLines) {
        storage = lines
        count = lines.count
    }

    /// Direction of travel on arriving at the head of directed edge d, 0..<360, when known.
    @inline(__always) package func arrival(_ d: Int) -> Double? { value(d, word: 6) }

    /// Bearing from the tail of directed edge d along it, 0..<360, when known.
    @inline(__always) package func departure(_ d: Int) -> Double? { value(d, word: 7) }

    func remember(arrival: Double, of d: Int) { store(arrival, d, word: 6) }

    func remember(departure: Double, of d: Int) { store(departure, d, word: 7) }

    @inline(__always) private func value(_ d: Int, word: Int) -> Double? {
        guard d >= 0 && d < count else { return nil }
        let bits = storage.line(d)[word]
        return bits == 0 ? nil : Double(bitPattern: bits ^ Self.signBit)
    }

    private func store(_ value: Double, _ d: Int, word: Int) {
        let bits = value.bitPattern ^ Self.signBit
        guard d >= 0 && d < count, bits != 0 else { return }
        storage.line(d)[word] = bits
    }
}
