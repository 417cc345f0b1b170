import Foundation

/// The intersections passed without a maneuver that a step builder wrote before, two entries per directed edge
/// arriving at a junction (32 bytes, words 2-5 of the edge's `MemoLines` line, next to the turn memo's): for the last
/// two edges routes left by, newest first, which of the junction's slots the intersection lists, which of those may
/// be entered, and where the route's two roads lie among them. Passing the same way again then costs two words and
/// the listed bearings instead of a pass over the junction's slots. Only plain approaches (the arriving edge's own
/// routing node) without `turn:lanes` are kept, where the record depends on the two edges alone. One memo serves one
/// step builder (one thread).
final class IntersectionMemo {
    /// What is known about passing from one directed edge onto another.
    enum Passage {
        case unknown
        /// The intersection lists fewer than three roads: none is written.
        case fewerThanThree
        /// Slot positions listed (bit per position), entry flags in listed order (bit per listed road), the
        /// arriving and leaving roads' indices among the listed ones, and the junction's `NodeControl` bits.
        case listed(slots: UInt32, entries: UInt32, inIndex: Int, outIndex: Int, control: UInt8)
        /// At most `packedLimit` listed roads, given whole: their wire bearings (`PackedRoads`), so that writing the
        /// intersection reads no junction slot at all.
        case packed(roads: PackedRoads, inIndex: Int, outIndex: Int, control: UInt8)
    }

    /// Up to `packedLimit` roads of an intersection in one word: wire bearing j (0...359) in bits 9j..<9j+9, entry
    /// flag j in bit 54+j, the road count in bits 60-62.
    struct PackedRoads {
        package var word: UInt64
        package var count: Int { Int((word >> 60) & 0x7) }
        @inline(__always) package func bearing(_ j: Int) -> UInt16 { UInt16(truncatingIfNeeded: (word >> UInt64(9 * j)) & 0x1ff) }
        @inline(__always) package func entry(_ j: Int) -> Bool { (word >> UInt64(54 + j)) & 1 != 0 }

        /// The roads as stored in a memo entry.
        package init(word: UInt64) { self.word = word }

        /// The roads `bearings[0..<count]` with entry flags `entries` (bit per road), or nil when they do not fit.
        package init?(bearings: UnsafePointer<UInt16>, count: Int, entries: UInt32) {
            guard count <= IntersectionMemo.packedLimit else { return nil }
            var word = UInt64(count) << 60 | UInt64(entries & 0x3f) << 54
            for j in 0..<count {
                guard bearings[j] < 512 else { return nil }
                word |= UInt64(bearings[j]) << UInt64(9 * j)
            }
            self.word = word
        }
    }

    /// Intersections with at most this many listed roads are kept whole (`Passage.packed`; `appendPacked` writes
    /// exactly six places, and `PackedRoads` has room for six bearings).
    static let packedLimit = 6

    /// Word 0: outgoing edge + 1 (bits 0-31), in index (32-37), out index (38-43), control (44-51), fewer than three
    /// roads (52), packed (53). Word 1: listed slots (0-31) and entries (32-63), or the packed roads.
    private struct Entry {
        package var key: UInt64
        var masks: UInt64
    }

    private let storage: MemoLines
    private let count: Int
    private static let fewerThanThree: UInt64 = 1 << 52
    /// Set when word 1 holds `PackedRoads` rather than slot and entry masks.
    private static let packedFlag: UInt64 = 1 << 53

    package init(lines: MemoLines) {
        storage = lines
        count = lines.count
    }

    /// The two entries of `incoming`, in its line after the turn memo's two words.
    @inline(__always) private func pairOf(_ incoming: Int) -> UnsafeMutablePointer<Entry> {
        UnsafeMutableRawPointer(storage.line(incoming) + 2).assumingMemoryBound(to: Entry.self)
    }

    /// The entry for `incoming` that holds `outgoing`, or nil.
    @inline(__always) private func entry(_ incoming: Int, _ outgoing: Int) -> Entry? {
        let pair = pairOf(incoming), key = UInt64(outgoing + 1)
        if pair[0].key & 0xffff_ffff == key { return pair[0] }
        if pair[1].key & 0xffff_ffff == key { return pair[1] }
        return nil
    }

    /// Stores `entry` for `incoming`: over the one for the same outgoing edge, else first, the older one kept second.
    @inline(__always) private func store(_ incoming: Int, _ entry: Entry) {
        let pair = pairOf(incoming), key = entry.key & 0xffff_ffff
        if pair[0].key & 0xffff_ffff == key { pair[0] = entry; return }
        if pair[1].key & 0xffff_ffff == key { pair[1] = entry; return }
        pair[1] = pair[0]
        pair[0] = entry
    }

    /// Whether the indices fit an entry.
    @inline(__always) private func fits(_ incoming: Int, _ outgoing: Int) -> Bool {
        incoming >= 0 && incoming < count && outgoing >= 0 && outgoing < Int(UInt32.max)
    }

    /// What the memo holds for passing from `incoming` onto `outgoing`.
    @inline(__always) package func passage(incoming: Int, outgoing: Int) -> Passage {
        guard fits(incoming, outgoing), let entry = entry(incoming, outgoing) else { return .unknown }
        if entry.key & Self.fewerThanThree != 0 { return .fewerThanThree }
        let (inIndex, outIndex, control) = Self.indices(ofKey: entry.key)
        if entry.key & Self.packedFlag != 0 {
            return .packed(roads: PackedRoads(word: entry.masks), inIndex: inIndex, outIndex: outIndex, control: control)
        }
        return .listed(slots: UInt32(truncatingIfNeeded: entry.masks), entries: UInt32(truncatingIfNeeded: entry.masks >> 32),
                       inIndex: inIndex, outIndex: outIndex, control: control)
    }

    /// The whole intersection for passing from `incoming` onto `outgoing` where the memo holds it packed
    /// (`Passage.packed`), else nil: the fast path of `passage` for the common case, with no enum in between.
    @inline(__always) func packed(incoming: Int, outgoing: Int) -> (roads: PackedRoads, key: UInt64)? {
        guard fits(incoming, outgoing), let entry = entry(incoming, outgoing), entry.key & Self.packedFlag != 0 else { return nil }
        return (PackedRoads(word: entry.masks), entry.key)
    }

    /// The in index, out index and control bits of an entry's key.
    @inline(__always) package static func indices(ofKey key: UInt64) -> (inIndex: Int, outIndex: Int, control: UInt8) {
        (Int((key >> 32) & 0x3f), Int((key >> 38) & 0x3f), UInt8(truncatingIfNeeded: key >> 44))
    }

    /// Remembers that passing from `incoming` onto `outgoing` lists fewer than three roads.
    func rememberFewerThanThree(incoming: Int, outgoing: Int) {
        guard fits(incoming, outgoing) else { return }
        store(incoming, Entry(key: UInt64(outgoing + 1) | Self.fewerThanThree, masks: 0))
    }

    /// Remembers the intersection written when passing from `incoming` onto `outgoing` (indices below 32, as slot
    /// positions of a junction with entry masks are).
    func remember(incoming: Int, outgoing: Int, slots: UInt32, entries entryBits: UInt32, inIndex: Int, outIndex: Int,
                  control: UInt8) {
        guard fits(incoming, outgoing), (0..<32).contains(inIndex), (0..<32).contains(outIndex) else { return }
        let key = UInt64(outgoing + 1) | UInt64(inIndex) << 32 | UInt64(outIndex) << 38 | UInt64(control) << 44
        store(incoming, Entry(key: key, masks: UInt64(slots) | UInt64(entryBits) << 32))
    }

    /// Remembers the intersection written when passing from `incoming` onto `outgoing` whole (`PackedRoads`).
    func remember(incoming: Int, outgoing: Int, roads: PackedRoads, inIndex: Int, outIndex: Int, control: UInt8) {
        guard fits(incoming, outgoing), (0..<32).contains(inIndex), (0..<32).contains(outIndex) else { return }
        let key = UInt64(outgoing + 1) | UInt64(inIndex) << 32 | UInt64(outIndex) << 38 | UInt64(control) << 44 | Self.packedFlag
        store(incoming, Entry(key: key, masks: roads.word))
    }
}
