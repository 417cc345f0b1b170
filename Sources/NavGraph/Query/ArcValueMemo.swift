import Foundation

/// One thread's memo of hierarchy arcs' path attributes (`PathAttributes`), filled on demand: an arc's value is
/// computed the first time a search tree uses it, by unpacking its shortcut halves (memoised too) down to input
/// arcs. A shortcut y → z through x (the middle node the metric chose) is x → y driven down then x → z driven up;
/// z → y is x → z down then x → y up, the sums `PathAttributes` always used.
///
/// Lifetime and threads: one per worker thread for one metric; never shared. Its two arc-sized tables are
/// zero-filled pages from `calloc`, so only the pages of arcs actually used become resident.
final class ArcValueMemo {
    let attributes: PathAttributes
    let width: Int
    private let cch: CCHView
    private let forwardVia: UnsafeBufferPointer<Int32>
    private let backwardVia: UnsafeBufferPointer<Int32>
    /// `width` slots per arc, up (low to high) and down; 0 = not computed, else the bit pattern's complement.
    private let upTable: UnsafeMutablePointer<UInt64>
    private let downTable: UnsafeMutablePointer<UInt64>
    private var pending = ContiguousArray<(arc: Int32, low: Int32, up: Bool)>()

    init?(attributes: PathAttributes) {
        self.attributes = attributes
        width = attributes.width
        cch = attributes.graph.cch
        forwardVia = attributes.metric.hierarchy.forwardVia
        backwardVia = attributes.metric.hierarchy.backwardVia
        let slots = max(1, cch.arcCount * width)
        guard let up = calloc(slots, MemoryLayout<UInt64>.stride), let down = calloc(slots, MemoryLayout<UInt64>.stride) else { return nil }
        upTable = up.assumingMemoryBound(to: UInt64.self)
        downTable = down.assumingMemoryBound(to: UInt64.self)
    }

    deinit {
        free(upTable)
        free(downTable)
    }

    @inline(__always) private func table(_ up: Bool) -> UnsafeMutablePointer<UInt64> { up ? upTable : downTable }

    @inline(__always) private func known(_ arc: Int, up: Bool) -> Bool { table(up)[arc * width] != 0 }

    @inline(__always) private func slot(_ arc: Int, up: Bool, _ k: Int) -> Double { Double(bitPattern: ~table(up)[arc * width + k]) }

    @inline(__always) private func store(_ arc: Int, up: Bool, _ values: (Double, Double)) {
        let entry = table(up) + arc * width
        entry[0] = ~values.0.bitPattern
        if width > 1 { entry[1] = ~values.1.bitPattern }
    }

    /// Adds the value of arc `arc` (lower end `low`) driven up or down to `base`, writing `width` values to `out`.
    @inline(__always)
    func add(arc: Int, low: Int, up: Bool, to base: UnsafePointer<Double>, into out: UnsafeMutablePointer<Double>) {
        if !known(arc, up: up) { compute(arc: arc, low: low, up: up) }
        for k in 0..<width { out[k] = base[k] + slot(arc, up: up, k) }
    }

    /// Fills the memo for `arc` and every arc its unpacking needs, children before parents (no recursion: the
    /// unpacking depth reaches the hierarchy's height).
    private func compute(arc: Int, low: Int, up: Bool) {
        pending.removeAll(keepingCapacity: true)
        pending.append((Int32(arc), Int32(low), up))
        while let (arc32, low32, goingUp) = pending.last {
            let arc = Int(arc32), low = Int(low32)
            if known(arc, up: goingUp) { pending.removeLast(); continue }
            let high = Int(cch.upHead[arc])
            let via = goingUp ? forwardVia[arc] : backwardVia[arc]
            if via < 0 {
                store(arc, up: goingUp, attributes.inputArcValue(arc, low: low, high: high, up: goingUp))
                pending.removeLast()
                continue
            }
            let middle = Int(via)
            guard let toLow = cch.arc(from: middle, to: low), let toHigh = cch.arc(from: middle, to: high) else {
                store(arc, up: goingUp, (0, 0))   // unreachable on a validated file: the metric names only existing triangles
                pending.removeLast()
                continue
            }
            // Up: low -> middle (toLow driven down), middle -> high (toHigh up). Down: high -> middle, middle -> low.
            let first = goingUp ? (arc: toLow, up: false) : (arc: toHigh, up: false)
            let second = goingUp ? (arc: toHigh, up: true) : (arc: toLow, up: true)
            let firstKnown = known(first.arc, up: first.up), secondKnown = known(second.arc, up: second.up)
            if firstKnown && secondKnown {
                var sum = (slot(first.arc, up: first.up, 0) + slot(second.arc, up: second.up, 0), 0.0)
                if width > 1 { sum.1 = slot(first.arc, up: first.up, 1) + slot(second.arc, up: second.up, 1) }
                store(arc, up: goingUp, sum)
                pending.removeLast()
                continue
            }
            if !firstKnown { pending.append((Int32(first.arc), Int32(middle), first.up)) }
            if !secondKnown { pending.append((Int32(second.arc), Int32(middle), second.up)) }
        }
    }
}
