extension CCHView {
    /// Relaxes the upward arcs of `nodes` (ancestors in increasing rank) over `weights` with a strict `<`, the one
    /// relaxation every elimination-tree search shares: a head whose label an arc lowers gets the new label, then
    /// `improved(head, arc, tail)` runs (to record the predecessor, or nothing). Nodes whose label exceeds `bound`
    /// are not relaxed from (a search that only needs costs up to the bound). Inlined into each caller's loop.
    @inline(__always)
    func relaxUpward(_ nodes: ContiguousArray<Int32>, labels: UnsafeMutableBufferPointer<UInt32>, weights: UnsafeBufferPointer<UInt32>,
                     bound: UInt32 = CCHMetric.infinity - 1, improved: (_ head: Int, _ arc: Int, _ tail: Int32) -> Void) {
        let firstUp = self.firstUp, upHead = self.upHead
        for node32 in nodes {
            let node = Int(node32)
            let base = labels[node]
            if base > bound { continue }
            // Wrapping index arithmetic: the arc ranges come from the validated graph file (Storage/RoutingGraph's
            // checks), and the traps of checked arithmetic cost this loop measurably (Benchmarks/IMPORT.md).
            var arc = Int(firstUp[node])
            let end = Int(firstUp[node &+ 1])
            while arc < end {
                defer { arc &+= 1 }
                let weight = weights[arc]
                if weight >= CCHMetric.infinity { continue }
                let head = Int(upHead[arc])
                let candidate = base &+ weight
                if candidate < labels[head] {
                    labels[head] = candidate
                    improved(head, arc, node32)
                }
            }
        }
    }
}

/// Sums path attributes down a search tree on demand, each node once: from `node` it climbs while `parent` gives a
/// tree parent (nil at a root or at a node summed already), then calls `add` for the climbed nodes from the top
/// down, so that each is summed from its parent's values. `chain` is the caller's reusable scratch list.
@inline(__always)
func sumDownTree(from node: Int, chain: inout ContiguousArray<Int32>, parent: (Int) -> Int?, add: (Int) -> Void) {
    chain.removeAll(keepingCapacity: true)
    var current = node
    while let above = parent(current) {
        chain.append(Int32(current))
        current = above
    }
    var index = chain.count - 1
    while index >= 0 {
        add(Int(chain[index]))
        index -= 1
    }
}
