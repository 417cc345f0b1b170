/// The downward view of a hierarchy: for each CCH node y, the upward arcs x -> y that end at it, x ascending, as pairs
/// (x, arc index). Built once per hierarchy at import (8 bytes per arc) and written beside the upward arcs, so that a
/// metric needs no middle nodes: unpacking finds a shortcut's middle among its lower triangles (`CCHView.middle`), and
/// partial customization lists an arc's lower triangles through it.
enum DownwardArcs {
    /// The offsets (nodes + 1) and the pairs (two entries per arc) of the hierarchy with these upward arcs.
    static func build(firstUp: UnsafeBufferPointer<UInt32>, upHead: UnsafeBufferPointer<UInt32>)
        -> (firstDown: ContiguousArray<UInt32>, pairs: ContiguousArray<UInt32>) {
        let nodes = max(0, firstUp.count - 1), arcs = upHead.count
        var first = ContiguousArray<UInt32>(repeating: 0, count: nodes + 1)
        first.withUnsafeMutableBufferPointer { first in
            for index in 0..<arcs { first[Int(upHead[index]) + 1] &+= 1 }
            for node in 0..<nodes { first[node + 1] &+= first[node] }
        }
        var next = ContiguousArray(first.dropLast())
        let pairs = ContiguousArray<UInt32>(unsafeUninitializedCapacity: 2 * arcs) { pairs, initialized in
            next.withUnsafeMutableBufferPointer { next in
                // Tails visited in ascending order, so every node's list comes out ascending.
                for x in 0..<nodes {
                    for index in Int(firstUp[x])..<Int(firstUp[x + 1]) {
                        let y = Int(upHead[index])
                        let slot = Int(next[y])
                        pairs[2 * slot] = UInt32(x); pairs[2 * slot + 1] = UInt32(index)
                        next[y] = UInt32(slot + 1)
                    }
                }
            }
            initialized = 2 * arcs
        }
        return (first, pairs)
    }
}

extension CCHView {
    /// The middle node x of arc `arc` (lower end `low`) driven up (low -> high) or down (high -> low) under `metric`,
    /// with the arcs x -> low and x -> high: the lowest x whose lower triangle gives the arc's weight, or nil when none
    /// does (the arc's weight is that of its input turn). Needs the view's downward arcs; x is always below `low`.
    @inline(__always)
    func middle(of arc: Int, low: Int, up: Bool, metric: CCHMetric) -> (node: Int, toLow: Int, toHigh: Int)? {
        let high = Int(upHead[arc])
        let weight = up ? metric.forward[arc] : metric.backward[arc]
        let forward = metric.forward, backward = metric.backward
        @inline(__always) func gives(_ toLow: Int, _ toHigh: Int) -> Bool {
            up ? backward[toLow] &+ forward[toHigh] == weight : backward[toHigh] &+ forward[toLow] == weight
        }
        guard low + 1 < firstDown.count, high + 1 < firstDown.count else { return nil }
        let lowBegin = Int(firstDown[low]), lowEnd = Int(firstDown[low + 1])
        let highBegin = Int(firstDown[high]), highEnd = Int(firstDown[high + 1])
        // Walk the shorter list; the other arc of each triangle is looked up in x's row.
        if lowEnd - lowBegin <= highEnd - highBegin {
            for slot in lowBegin..<lowEnd {
                let x = Int(downArcs[2 * slot]), toLow = Int(downArcs[2 * slot + 1])
                guard let toHigh = self.arc(from: x, to: high) else { continue }
                if gives(toLow, toHigh) { return (x, toLow, toHigh) }
            }
        } else {
            for slot in highBegin..<highEnd {
                let x = Int(downArcs[2 * slot])
                if x >= low { break }
                let toHigh = Int(downArcs[2 * slot + 1])
                guard let toLow = self.arc(from: x, to: low) else { continue }
                if gives(toLow, toHigh) { return (x, toLow, toHigh) }
            }
        }
        return nil
    }
}
