import Foundation

/// One thread's memo of hierarchy arcs' path attributes (`PathAttributes`), filled on demand: an arc's value is
/// computed the first time a path uses it, by unpacking its shortcut halves (memoised too) down to input arcs.
/// A shortcut y → z through x (its middle node under the metric, `CCHView.middle`) is x → y driven down then x → z driven up;
/// z → y is x → z down then x → y up, the sums `PathAttributes` always used.
///
/// Lifetime and threads: one per worker thread for one metric; never shared. The memo is an open-addressing hash
/// table keyed by arc and direction that grows with use, so a small table touches little memory even on a graph
/// with tens of millions of arcs.
final class ArcValueMemo {
    package let attributes: PathAttributes
    package let width: Int
    private let cch: CCHView
    /// Key per entry: 2 × arc + (1 if driven down) + 1; 0 marks an empty entry. Values: `width` per entry.
    private var keys: UnsafeMutablePointer<UInt32>
    private var slots: UnsafeMutablePointer<Double>
    private var capacity: Int
    private var count = 0
    private var pending = ContiguousArray<(arc: Int32, low: Int32, up: Bool)>()

    package init(attributes: PathAttributes) {
        self.attributes = attributes
        width = attributes.width
        cch = attributes.graph.cch
        capacity = 1 << 14
        keys = .allocate(capacity: capacity)
        keys.initialize(repeating: 0, count: capacity)
        slots = .allocate(capacity: capacity * width)
    }

    deinit {
        keys.deallocate()
        slots.deallocate()
    }

    @inline(__always) private static func key(_ arc: Int, up: Bool) -> UInt32 { UInt32(truncatingIfNeeded: arc << 1 | (up ? 0 : 1)) &+ 1 }

    /// The entry holding `key`, or the empty entry where it would go.
    @inline(__always) private func find(_ key: UInt32) -> Int {
        let mask = capacity - 1
        var index = Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while true {
            let found = keys[index]
            if found == key || found == 0 { return index }
            index = (index + 1) & mask
        }
    }

    /// Entry of arc `arc` driven up or down, if computed.
    @inline(__always) private func lookup(_ arc: Int, up: Bool) -> Int? {
        let key = Self.key(arc, up: up), index = find(key)
        return keys[index] == key ? index : nil
    }

    private func store(_ arc: Int, up: Bool, _ values: (Double, Double)) {
        if (count + 1) * 2 > capacity { grow() }
        let key = Self.key(arc, up: up), index = find(key)
        if keys[index] == 0 { keys[index] = key; count += 1 }
        slots[index * width] = values.0
        if width > 1 { slots[index * width + 1] = values.1 }
    }

    private func grow() {
        let oldKeys = keys, oldSlots = slots, oldCapacity = capacity
        capacity *= 2
        keys = .allocate(capacity: capacity)
        keys.initialize(repeating: 0, count: capacity)
        slots = .allocate(capacity: capacity * width)
        for old in 0..<oldCapacity where oldKeys[old] != 0 {
            let index = find(oldKeys[old])
            keys[index] = oldKeys[old]
            for k in 0..<width { slots[index * width + k] = oldSlots[old * width + k] }
        }
        oldKeys.deallocate()
        oldSlots.deallocate()
    }

    /// Adds the value of arc `arc` (lower end `low`) driven up or down to `base`, writing `width` values to `out`.
    @inline(__always)
    package func add(arc: Int, low: Int, up: Bool, to base: UnsafePointer<Double>, into out: UnsafeMutablePointer<Double>) {
        var entry = lookup(arc, up: up)
        if entry == nil {
            compute(arc: arc, low: low, up: up)
            entry = lookup(arc, up: up)
        }
        guard let entry else { for k in 0..<width { out[k] = base[k] }; return }
        for k in 0..<width { out[k] = base[k] + slots[entry * width + k] }
    }

    /// Fills the memo for `arc` and every arc its unpacking needs, children before parents (no recursion: the
    /// unpacking depth reaches the hierarchy's height).
    private func compute(arc: Int, low: Int, up: Bool) {
        pending.removeAll(keepingCapacity: true)
        pending.append((Int32(arc), Int32(low), up))
        while let (arc32, low32, goingUp) = pending.last {
            let arc = Int(arc32), low = Int(low32)
            if lookup(arc, up: goingUp) != nil { pending.removeLast(); continue }
            let high = Int(cch.upHead[arc])
            guard let (middle, toLow, toHigh) = cch.middle(of: arc, low: low, up: goingUp, metric: attributes.metric) else {
                store(arc, up: goingUp, attributes.inputArcValue(arc, low: low, high: high, up: goingUp))
                pending.removeLast()
                continue
            }
            // Up: low -> middle (toLow driven down), middle -> high (toHigh up). Down: high -> middle, middle -> low.
            let first = goingUp ? (arc: toLow, up: false) : (arc: toHigh, up: false)
            let second = goingUp ? (arc: toHigh, up: true) : (arc: toLow, up: true)
            let firstEntry = lookup(first.arc, up: first.up), secondEntry = lookup(second.arc, up: second.up)
            if let firstEntry, let secondEntry {
                var sum = (slots[firstEntry * width] + slots[secondEntry * width], 0.0)
                if width > 1 { sum.1 = slots[firstEntry * width + 1] + slots[secondEntry * width + 1] }
                store(arc, up: goingUp, sum)
                pending.removeLast()
                continue
            }
            if firstEntry == nil { pending.append((Int32(first.arc), Int32(middle), first.up)) }
            if secondEntry == nil { pending.append((Int32(second.arc), Int32(middle), second.up)) }
        }
    }
}
