/// Strongly connected components of one profile's part of a road set's turn graph: the routing nodes the profile
/// may use (finite weight) and the turns between them. A road set's own components join what any of its profiles
/// may use (a footpath closed to bicycles joins the pedestrians' network); snapping with the profile's own keeps a
/// cyclist's waypoint off a way the bicycle cannot leave. Numbered so that 0 is the largest; unusable routing nodes
/// are components of their own.
package enum ProfileComponents {
    /// `turns` in rank order, `weights` the profile's routing-node weights in the order before ranking
    /// (`rank[v]` is node v's number in `turns`), `turnCosts` the profile's per arc of `turns`, if known: a turn that
    /// costs `ProfileTurnCosts.forbiddenTurn` (a U-turn where the profile may not turn back) joins nothing.
    package static func compute(turns: TurnGraph, weights: ContiguousArray<UInt32>, rank: ContiguousArray<UInt32>,
                                turnCosts: ContiguousArray<UInt32>? = nil) -> (component: ContiguousArray<UInt32>, sizes: [Int]) {
        let count = turns.nodeCount
        var usable = ContiguousArray<Bool>(repeating: false, count: count)
        for node in 0..<min(count, weights.count) { usable[Int(rank[node])] = weights[node] < CCHMetric.infinity }
        var firstOut = ContiguousArray<UInt32>()
        firstOut.reserveCapacity(count + 1)
        firstOut.append(0)
        var head = ContiguousArray<UInt32>()
        head.reserveCapacity(turns.arcCount)
        for node in 0..<count {
            if usable[node] {
                for arc in Int(turns.firstOut[node])..<Int(turns.firstOut[node + 1]) where usable[Int(turns.head[arc])] {
                    if let turnCosts, arc < turnCosts.count, turnCosts[arc] >= ProfileTurnCosts.forbiddenTurn { continue }
                    head.append(turns.head[arc])
                }
            }
            firstOut.append(UInt32(head.count))
        }
        return StronglyConnectedComponents.compute(nodeCount: count, firstOut: firstOut, head: head)
    }

    /// How many routing nodes each component has, from a component array numbered as `compute` numbers them.
    package static func sizes(_ component: UnsafeBufferPointer<UInt32>) -> [Int] {
        var sizes: [Int] = []
        for value in component {
            let index = Int(value)
            if index >= sizes.count { sizes.append(contentsOf: repeatElement(0, count: index + 1 - sizes.count)) }
            sizes[index] += 1
        }
        return sizes
    }
}
