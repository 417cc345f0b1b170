/// Shortest paths between graph nodes (junctions) by id, for graphs without coordinates such as DIMACS.
public final class NodeToNodeQuery {
    private let router: Router
    private var firstLeaving = ContiguousArray<Int>()
    private var leaving = ContiguousArray<Int32>()
    private var firstArriving = ContiguousArray<Int>()
    private var arriving = ContiguousArray<Int32>()

    /// Indexes the routing nodes (directed edges) leaving and arriving at each junction.
    public init(router: Router) {
        self.router = router
        let graph = router.graph
        let nodeCount = graph.nodeOSMID.count
        firstLeaving = ContiguousArray(repeating: 0, count: nodeCount + 1)
        firstArriving = ContiguousArray(repeating: 0, count: nodeCount + 1)
        for routingNode in 0..<graph.routingNodeCount {
            let (tail, head) = ends(Int(graph.routingEdge[routingNode]))
            firstLeaving[tail + 1] += 1
            firstArriving[head + 1] += 1
        }
        for node in 0..<nodeCount {
            firstLeaving[node + 1] += firstLeaving[node]
            firstArriving[node + 1] += firstArriving[node]
        }
        leaving = ContiguousArray(repeating: 0, count: graph.routingNodeCount)
        arriving = ContiguousArray(repeating: 0, count: graph.routingNodeCount)
        var leaveFill = firstLeaving, arriveFill = firstArriving
        for routingNode in 0..<graph.routingNodeCount {
            let (tail, head) = ends(Int(graph.routingEdge[routingNode]))
            leaving[leaveFill[tail]] = Int32(routingNode); leaveFill[tail] += 1
            arriving[arriveFill[head]] = Int32(routingNode); arriveFill[head] += 1
        }
    }

    private func ends(_ d: Int) -> (Int, Int) {
        let graph = router.graph
        let from = Int(graph.edgeFrom[d >> 1]), to = Int(graph.edgeTo[d >> 1])
        return d & 1 == 0 ? (from, to) : (to, from)
    }

    /// Cost in milliseconds from junction `source` to junction `target` (0-based), or nil if unreachable. With
    /// `unpack` false the hierarchy search stops at the cost (the path's shortcuts are not unpacked).
    public func cost(from source: Int, to target: Int, metric: RoutingMetric, algorithm: SearchAlgorithm, unpack: Bool = true) throws -> Int? {
        let count = firstLeaving.count - 1
        guard (0..<count).contains(source), (0..<count).contains(target) else {
            throw NavGraphError("node id out of range: \(source + 1) or \(target + 1) (graph has \(count) nodes)")
        }
        if source == target { return 0 }
        let sources = (firstLeaving[source]..<firstLeaving[source + 1]).map { Int(leaving[$0]) }
            .filter { metric.nodeWeight[$0] < CCHMetric.infinity }.map { Endpoint(node: $0, cost: metric.nodeWeight[$0]) }
        let targets = (firstArriving[target]..<firstArriving[target + 1]).map { Endpoint(node: Int(arriving[$0]), cost: 0) }
        guard !sources.isEmpty, !targets.isEmpty else { return nil }
        if !unpack && algorithm == .hierarchy {
            return router.hierarchy.distance(sources: sources, targets: targets, metric: metric)?.0
        }
        return router.search(algorithm).search(sources: sources, targets: targets, metric: metric)?.cost
    }
}
