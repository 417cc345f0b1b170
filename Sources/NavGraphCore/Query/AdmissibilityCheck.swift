/// The tests a via path must pass to be offered as an alternative: no repeated road, limited sharing, local optimality.
/// Bounded stretch is applied earlier, when via candidates are collected.
package struct AdmissibilityCheck {
    package let graph: RoutingGraph
    package let metric: RoutingMetric
    /// Answers the point-to-point query of the local-optimality test.
    package let search: CCHSearch

    /// Whether the path drives some road twice, in either direction (a loop, or out and back along a dead end).
    func repeatsRoad(_ nodes: [Int], stamps: inout ContiguousArray<UInt32>, stamp: UInt32) -> Bool {
        for node in nodes {
            let twin = Int(graph.routingNodeOfEdge[Int(graph.routingEdge[node] ^ 1)])
            if stamps[node] == stamp || (twin >= 0 && stamps[twin] == stamp) { return true }
            stamps[node] = stamp
        }
        return false
    }

    /// Adds the weight of every path node to `shared[k]` for each route bit k the node carries
    /// (bit 0: the primary leg; bit k: the k-th accepted alternative).
    func addSharedWeights(_ nodes: [Int], bits: ContiguousArray<UInt16>, into shared: inout [Int]) {
        for node in nodes {
            var mask = bits[node]
            let weight = Int(metric.nodeWeight[node])
            while mask != 0 {
                shared[mask.trailingZeroBitCount] += weight
                mask &= mask - 1
            }
        }
    }

    /// The T-test of Abraham et al. for the path source → via → target whose two halves are shortest paths:
    /// with a the last node at least `threshold` before the via node and b the first one at least `threshold`
    /// after it (or the path's ends), the path is `threshold`-locally optimal if its a → b part is a shortest path.
    /// Any subpath costing at most `threshold` either lies in one half or, around the via node, within a → b.
    package func isLocallyOptimal(_ nodes: [Int], viaIndex: Int, threshold: Int) -> Bool {
        let weight = metric.nodeWeight
        var before = viaIndex, costBefore = 0
        while before > 0 && costBefore <= threshold {
            costBefore += Int(weight[nodes[before]]) + Int(metric.turnCost(graph, from: nodes[before - 1], to: nodes[before]) ?? 0)
            before -= 1
        }
        var after = viaIndex, costAfter = 0
        while after < nodes.count - 1 && costAfter <= threshold {
            after += 1
            costAfter += Int(weight[nodes[after]]) + Int(metric.turnCost(graph, from: nodes[after - 1], to: nodes[after]) ?? 0)
        }
        guard before < after else { return true }
        guard let (shortest, _) = search.distance(sources: [Endpoint(node: nodes[before], cost: 0)],
                                                  targets: [Endpoint(node: nodes[after], cost: 0)], metric: metric) else { return false }
        return shortest == costBefore + costAfter
    }
}
