/// What guidance reads about one road leaving a junction, kept per slot of the graph's junction adjacency
/// (`junctionOut`), so that all the roads of a junction sit side by side in memory: a junction view touches one or
/// two cache lines instead of a handful of scattered edge arrays.
struct JunctionSlot {
    /// Directed edge leaving the junction (as `junctionOut`).
    var leaving: Int32
    /// Routing node of the plain (unrestricted) directed edge, -1 when it cannot be driven.
    var routing: Int32
    /// Bearing from the junction along the road, 0..<360.
    var bearing: Double
    var flags: UInt16
    var roadClass: UInt8
    /// 1 once the slot is filled.
    var ready: UInt8
}

/// Junction slots filled on first use (a junction at a time) and kept for the graph's lifetime, so a junction
/// view costs no trigonometry or scattered reads for junctions already seen by an earlier query of the router.
final class JunctionSlotCache: @unchecked Sendable {
    private var slots: UnsafeMutablePointer<JunctionSlot>
    private let count: Int

    init(slotCount: Int) {
        count = slotCount
        slots = .allocate(capacity: max(slotCount, 1))
        slots.initialize(repeating: JunctionSlot(leaving: -1, routing: -1, bearing: 0, flags: 0, roadClass: 0, ready: 0),
                         count: max(slotCount, 1))
    }

    deinit { slots.deallocate() }

    /// The slots `range` (one junction's), filled with `fill` for each slot the first time.
    @inline(__always) func junction(_ range: Range<Int>, fill: (Int) -> JunctionSlot) -> UnsafeBufferPointer<JunctionSlot> {
        if let first = range.first, slots[first].ready == 0 {
            for slot in range { slots[slot] = fill(slot) }
        }
        return UnsafeBufferPointer(start: slots + range.lowerBound, count: range.count)
    }
}
