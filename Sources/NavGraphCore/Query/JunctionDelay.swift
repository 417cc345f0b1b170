/// How turn and junction delays change under traffic: a junction is as congested as the road arriving at it.
public enum JunctionDelay {
    /// Largest factor congestion applies to a turn's free-flow cost.
    public static let maximumFactor = 3.0

    /// The graph's free-flow turn costs, each multiplied by the time factor of the last segment of the arriving
    /// directed edge (current / free-flow time, clamped to 1 ... `maximumFactor`; 1 without data or when closed).
    public static func trafficScaled(_ graph: RoutingGraph, traffic: TrafficOverlay) -> ContiguousArray<UInt32> {
        var result = ContiguousArray(graph.turnCost)
        for node in 0..<graph.routingNodeCount {
            let factor = arrivalFactor(graph, directedEdge: Int(graph.routingEdge[node]), traffic: traffic)
            if factor == 1 { continue }
            for arc in Int(graph.cch.turnFirstOut[node])..<Int(graph.cch.turnFirstOut[node + 1]) {
                // Only the delay scales; a restricted-entry penalty (TurnCosts) stays as it is.
                let penalty = result[arc] - TurnCosts.duration(ofArcCost: result[arc])
                result[arc] = penalty + UInt32((Double(result[arc] - penalty) * factor).rounded())
            }
        }
        return result
    }

    /// Time factor of the last segment of directed edge d, clamped to 1 ... `maximumFactor`.
    public static func arrivalFactor(_ graph: RoutingGraph, directedEdge d: Int, traffic: TrafficOverlay) -> Double {
        let edge = d >> 1, forward = d & 1 == 0
        let first = Int(graph.edgeShapeFirst[edge]), last = Int(graph.edgeShapeFirst[edge + 1]) - 1
        guard last > first else { return 1 }
        // The last segment in driving order starts at shape point last - 1 (forward) or first (backward, keyed by its lower index).
        let key = TrafficOverlay.key(segment: forward ? last - 1 : first, direction: forward ? 0 : 1)
        guard let factor = traffic.factor(key: key), factor.isFinite else { return 1 }
        return min(maximumFactor, max(1, factor))
    }
}
