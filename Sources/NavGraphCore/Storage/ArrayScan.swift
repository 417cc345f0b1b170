/// Whole-range checks over mapped arrays for the graph file's consistency scans, written as plain reductions
/// (no early exit) so that they vectorize; each works on a piece of its array so that the scans share all cores.
enum ArrayScan {
    /// Pieces of `0..<count` for the workers: one piece for small arrays, two per core for large ones.
    package static func pieces(_ count: Int) -> [Range<Int>] {
        let parts = count < 1 << 16 ? 1 : 2 * Parallel.workerCount
        return (0..<parts).map { count * $0 / parts..<count * ($0 + 1) / parts }
    }

    /// Whether every value in `range` is below `limit`.
    package static func below(_ values: UnsafeBufferPointer<UInt32>, _ range: Range<Int>, _ limit: Int) -> Bool {
        if range.isEmpty { return true }
        var largest: UInt32 = 0
        for index in range { largest = max(largest, values[index]) }
        return Int(largest) < limit
    }

    /// Whether every value in `range` is below `limit` (negative values pass: they mean "none").
    package static func below(_ values: UnsafeBufferPointer<Int32>, _ range: Range<Int>, _ limit: Int) -> Bool {
        if range.isEmpty { return true }
        var largest: Int32 = .min
        for index in range { largest = max(largest, values[index]) }
        return Int(largest) < limit
    }

    /// Whether `values[i] + gap <= values[i + 1]` for every i in `range` (which must stop one short of the end).
    package static func ascending(_ values: UnsafeBufferPointer<UInt32>, _ range: Range<Int>, gap: Int64 = 0) -> Bool {
        var violations: UInt32 = 0
        for index in range { violations |= Int64(values[index + 1]) - Int64(values[index]) < gap ? 1 : 0 }
        return violations == 0
    }

    /// The pairs `(i, i + 1)` of an offset array, as the range of their first indices.
    static func pairCount(_ values: UnsafeBufferPointer<UInt32>) -> Int { max(0, values.count - 1) }
}
