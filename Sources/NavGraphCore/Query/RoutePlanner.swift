/// Turns two snaps into search endpoints (with the partial costs of the snapped edges) and a same-edge candidate.
struct LegEndpoints {
    package var sources: [Endpoint] = []
    package var targets: [Endpoint] = []
    /// Source expansion: the routing node a successor endpoint stands for (or itself).
    var sourceOrigin: [Int: Int] = [:]
    /// Cost and routing node of driving from source to target along one directed edge, if possible.
    package var direct: (cost: Int, node: Int)?
}

/// Builds LegEndpoints for a metric.
struct RoutePlanner {
    package let graph: RoutingGraph
    package let costs: EdgeCostModel

    /// Metres from the start of directed edge d to a snap.
    package func position(of snap: Snap, onDirectedEdge d: Int) -> Double {
        d & 1 == 0 ? snap.offset : graph.edgeLength[snap.edge] - snap.offset
    }

    /// For each usable direction of the snapped edge that the snap allows (`Snap.directions`): its routing node and
    /// the cost from the edge start to the snap.
    func partialCosts(of snap: Snap, metric: RoutingMetric) -> [Int: UInt32] {
        var partials: [Int: UInt32] = [:]
        for direction in 0..<2 {
            let d = 2 * snap.edge + direction
            guard snap.directions.contains(.of(directedEdge: d)) else { continue }
            let node = Int(graph.routingNodeOfEdge[d])
            guard node >= 0, metric.nodeWeight[node] < CCHMetric.infinity else { continue }
            partials[node] = costs.cost(directedEdge: d, upTo: position(of: snap, onDirectedEdge: d), metric: metric)
        }
        return partials
    }

    package func endpoints(from source: Snap, to target: Snap, metric: RoutingMetric) -> LegEndpoints {
        var result = LegEndpoints()
        let sourcePartial = partialCosts(of: source, metric: metric), targetPartial = partialCosts(of: target, metric: metric)
        result.sources = sourcePartial.map { Endpoint(node: $0.key, cost: metric.nodeWeight[$0.key] - $0.value) }.sorted { $0.node < $1.node }
        result.targets = targetPartial.map { Endpoint(node: $0.key, cost: metric.nodeWeight[$0.key] - $0.value) }.sorted { $0.node < $1.node }
        // A source node that is also a target: the zero-turn path is the direct candidate; any other
        // path must leave the node first, so it starts from the node's successors instead.
        var best: [Int: (cost: UInt32, origin: Int)] = [:]
        func offer(_ node: Int, _ cost: UInt32, _ origin: Int) {
            if let existing = best[node], existing.cost <= cost { return }
            best[node] = (cost, origin)
        }
        for source in result.sources {
            guard let arrival = targetPartial[source.node], let departure = sourcePartial[source.node] else {
                offer(source.node, source.cost, source.node)
                continue
            }
            if arrival >= departure, result.direct.map({ Int(arrival - departure) < $0.cost }) ?? true {
                result.direct = (Int(arrival - departure), source.node)
            }
            for arc in Int(graph.cch.turnFirstOut[source.node])..<Int(graph.cch.turnFirstOut[source.node + 1]) {
                let next = Int(graph.cch.turnHead[arc])
                let weight = metric.nodeWeight[next]
                if weight < CCHMetric.infinity { offer(next, source.cost &+ weight &+ metric.turnCost[arc], source.node) }
            }
        }
        let expanded = best.sorted { $0.key < $1.key }.map { Endpoint(node: $0.key, cost: $0.value.cost) }
        result.sourceOrigin = best.mapValues(\.origin)
        result.sources = expanded
        return result
    }
}
