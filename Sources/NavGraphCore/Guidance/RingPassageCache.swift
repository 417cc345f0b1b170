/// The roundabout marks of ring passages a step builder has worked out (edge indices relative to the entry), in a
/// direct-mapped table keyed by the passage: a lookup is a multiply, one compare of three words and a copy of at most
/// two marks, with no hashing of the key and no array per passage. A passage that lands on a taken place replaces the
/// one there, so the table never grows (`capacity` entries). One cache serves one step builder (one thread).
struct RingPassageCache {
    /// One remembered passage; `incoming` is -1 in an empty place.
    struct Entry {
        package var incoming = -1
        var ringEdges = 0
        package var leaving = 0
        package var count = 0
        package var first: StepBuilder.Mark?
        package var second: StepBuilder.Mark?
    }

    /// Places in the table (a power of two).
    package static let capacity = 2048
    private var entries = ContiguousArray(repeating: Entry(), count: capacity)

    /// The place of a passage.
    @inline(__always) private static func place(_ key: StepBuilder.RingPassageKey) -> Int {
        let mixed = UInt64(bitPattern: Int64(key.incoming &* 31 &+ key.ringEdges)) ^ (UInt64(bitPattern: Int64(key.leaving)) << 21)
        return Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> 53) & (capacity - 1)
    }

    /// The marks remembered for the passage `key` (one or two), nil when not remembered.
    @inline(__always) package func marks(_ key: StepBuilder.RingPassageKey) -> (count: Int, first: StepBuilder.Mark?, second: StepBuilder.Mark?)? {
        let entry = entries[Self.place(key)]
        guard entry.incoming == key.incoming && entry.ringEdges == key.ringEdges && entry.leaving == key.leaving else { return nil }
        return (entry.count, entry.first, entry.second)
    }

    /// Remembers one or two marks for the passage `key`.
    mutating func remember(_ key: StepBuilder.RingPassageKey, _ made: [StepBuilder.Mark]) {
        guard (1...2).contains(made.count) else { return }
        entries[Self.place(key)] = Entry(incoming: key.incoming, ringEdges: key.ringEdges, leaving: key.leaving, count: made.count,
                                         first: made[0], second: made.count > 1 ? made[1] : nil)
    }
}
