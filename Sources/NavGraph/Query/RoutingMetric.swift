/// A travel-time metric: the cost of each routing node (its directed edge) and the hierarchy customized for it.
public final class RoutingMetric: @unchecked Sendable {
    /// Milliseconds to drive each routing node's directed edge, or CCHMetric.infinity if it may not be used.
    public let nodeWeight: ContiguousArray<UInt32>
    public let hierarchy: CCHMetric
    /// Traffic the weights include, if any.
    public let traffic: TrafficOverlay?

    public init(nodeWeight: ContiguousArray<UInt32>, hierarchy: CCHMetric, traffic: TrafficOverlay? = nil) {
        self.nodeWeight = nodeWeight
        self.hierarchy = hierarchy
        self.traffic = traffic
    }

    /// The free-flow metric stored in the graph file.
    public static func freeFlow(_ graph: RoutingGraph) -> RoutingMetric {
        RoutingMetric(nodeWeight: freeFlowWeights(graph), hierarchy: graph.freeFlowMetric)
    }

    public static func freeFlowWeights(_ graph: RoutingGraph) -> ContiguousArray<UInt32> {
        var weights = ContiguousArray<UInt32>(repeating: CCHMetric.infinity, count: graph.routingNodeCount)
        for node in 0..<graph.routingNodeCount { weights[node] = graph.freeFlowTime(directedEdge: Int(graph.routingEdge[node])) }
        return weights
    }

    /// Customizes the graph's hierarchy for new node weights; the order and contraction are reused.
    public static func customized(_ graph: RoutingGraph, nodeWeight: ContiguousArray<UInt32>, traffic: TrafficOverlay? = nil) -> RoutingMetric {
        let hierarchy = nodeWeight.withUnsafeBufferPointer { Customization.customize(graph.cch, nodeWeight: $0) }
        return RoutingMetric(nodeWeight: nodeWeight, hierarchy: hierarchy, traffic: traffic)
    }
}

/// A place a search starts or ends: a routing node and a cost in milliseconds.
/// For a source the cost is paid to finish its directed edge; for a target it is refunded
/// because the route stops part-way along the target's directed edge.
public struct Endpoint: Sendable, Equatable {
    public var node: Int
    public var cost: UInt32
    public init(node: Int, cost: UInt32) { self.node = node; self.cost = cost }
}

/// The best path a search found: its cost (source cost + turns - target refund) and its routing nodes in order.
public struct SearchResult: Sendable {
    public var cost: Int
    public var nodes: [Int]
}

/// A shortest-path search between endpoint sets on one metric.
public protocol ShortestPathSearch: AnyObject {
    func search(sources: [Endpoint], targets: [Endpoint], metric: RoutingMetric) -> SearchResult?
}
