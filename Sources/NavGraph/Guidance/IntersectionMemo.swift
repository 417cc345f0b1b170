import CThreadRandom
import Foundation

/// The intersections passed without a maneuver that a step builder wrote before, one entry per directed edge
/// arriving at a junction: for the edge the route left by last time, which of the junction's slots the intersection
/// lists, which of those may be entered, and where the route's two roads lie among them. Passing the same way again
/// then costs two words and the listed bearings instead of a pass over the junction's slots. Only plain approaches
/// (the arriving edge's own routing node) without `turn:lanes` are kept, where the record depends on the two edges
/// alone. The memory comes zeroed from the system and only entries of edges routed over are touched. One memo serves
/// one step builder (one thread).
final class IntersectionMemo {
    /// What is known about passing from one directed edge onto another.
    enum Passage {
        case unknown
        /// The intersection lists fewer than three roads: none is written.
        case fewerThanThree
        /// Slot positions listed (bit per position), entry flags in listed order (bit per listed road), the
        /// arriving and leaving roads' indices among the listed ones, and the junction's `NodeControl` bits.
        case listed(slots: UInt32, entries: UInt32, inIndex: Int, outIndex: Int, control: UInt8)
    }

    /// Word 0: outgoing edge + 1 (bits 0-31), in index (32-37), out index (38-43), control (44-51), fewer than three
    /// roads (52). Word 1: listed slots (0-31), entries (32-63).
    private struct Entry {
        var key: UInt64
        var masks: UInt64
    }

    private let entries: UnsafeMutablePointer<Entry>
    private let count: Int
    private static let fewerThanThree: UInt64 = 1 << 52

    init(directedEdgeCount: Int) {
        count = max(directedEdgeCount, 1)
        entries = zeroedMemory(count: count)
    }

    deinit { free(entries) }

    /// Whether the indices fit an entry.
    @inline(__always) private func fits(_ incoming: Int, _ outgoing: Int) -> Bool {
        incoming >= 0 && incoming < count && outgoing >= 0 && outgoing < Int(UInt32.max)
    }

    /// Starts loading the entry of `incoming`.
    @inline(__always) func prefetch(_ incoming: Int) {
        if incoming >= 0 && incoming < count { navgraph_prefetch(entries + incoming) }
    }

    /// What the memo holds for passing from `incoming` onto `outgoing`.
    @inline(__always) func passage(incoming: Int, outgoing: Int) -> Passage {
        guard fits(incoming, outgoing) else { return .unknown }
        let entry = entries[incoming]
        guard entry.key & 0xffff_ffff == UInt64(outgoing + 1) else { return .unknown }
        if entry.key & Self.fewerThanThree != 0 { return .fewerThanThree }
        return .listed(slots: UInt32(truncatingIfNeeded: entry.masks), entries: UInt32(truncatingIfNeeded: entry.masks >> 32),
                       inIndex: Int((entry.key >> 32) & 0x3f), outIndex: Int((entry.key >> 38) & 0x3f),
                       control: UInt8(truncatingIfNeeded: entry.key >> 44))
    }

    /// Remembers that passing from `incoming` onto `outgoing` lists fewer than three roads.
    func rememberFewerThanThree(incoming: Int, outgoing: Int) {
        guard fits(incoming, outgoing) else { return }
        entries[incoming] = Entry(key: UInt64(outgoing + 1) | Self.fewerThanThree, masks: 0)
    }

    /// Remembers the intersection written when passing from `incoming` onto `outgoing` (indices below 32, as slot
    /// positions of a junction with entry masks are).
    func remember(incoming: Int, outgoing: Int, slots: UInt32, entries entryBits: UInt32, inIndex: Int, outIndex: Int,
                  control: UInt8) {
        guard fits(incoming, outgoing), (0..<32).contains(inIndex), (0..<32).contains(outIndex) else { return }
        let key = UInt64(outgoing + 1) | UInt64(inIndex) << 32 | UInt64(outIndex) << 38 | UInt64(control) << 44
        entries[incoming] = Entry(key: key, masks: UInt64(slots) | UInt64(entryBits) << 32)
    }
}
