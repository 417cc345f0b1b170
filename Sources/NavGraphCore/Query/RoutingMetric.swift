/// A travel-time metric: the cost of each routing node (its directed edge), of each turn, and the hierarchy customized
/// for them. Turn arc a from u into v costs turnCost[a] + nodeWeight[v].
public final class RoutingMetric: @unchecked Sendable {
    /// Milliseconds to drive each routing node's directed edge, or CCHMetric.infinity if it may not be used.
    public let nodeWeight: ContiguousArray<UInt32>
    /// Milliseconds of each turn arc (parallel to `cch.turnHead`): the graph's free-flow turn costs, scaled under traffic.
    public let turnCost: ContiguousArray<UInt32>
    public let hierarchy: CCHMetric
    /// Traffic the weights include, if any.
    public let traffic: TrafficOverlay?

    public init(nodeWeight: ContiguousArray<UInt32>, turnCost: ContiguousArray<UInt32>, hierarchy: CCHMetric, traffic: TrafficOverlay? = nil) {
        self.nodeWeight = nodeWeight
        self.turnCost = turnCost
        self.hierarchy = hierarchy
        self.traffic = traffic
    }

    /// A metric with the graph's free-flow turn costs.
    public convenience init(graph: RoutingGraph, nodeWeight: ContiguousArray<UInt32>, hierarchy: CCHMetric) {
        self.init(nodeWeight: nodeWeight, turnCost: ContiguousArray(graph.turnCost), hierarchy: hierarchy)
    }

    /// The free-flow metric stored in the graph file.
    public static func freeFlow(_ graph: RoutingGraph) -> RoutingMetric {
        RoutingMetric(graph: graph, nodeWeight: freeFlowWeights(graph), hierarchy: graph.freeFlowMetric)
    }

    /// Milliseconds of the turn from routing node `from` into `to` (the cheapest such arc), nil if there is none.
    @inline(__always)
    public func turnCost(_ graph: RoutingGraph, from: Int, to: Int) -> UInt32? {
        var best: UInt32?
        for arc in Int(graph.cch.turnFirstOut[from])..<Int(graph.cch.turnFirstOut[from + 1]) where Int(graph.cch.turnHead[arc]) == to {
            best = min(best ?? UInt32.max, turnCost[arc])
        }
        return best
    }

    /// Cost in milliseconds of driving `nodes` after the first one: each turn and each entered edge.
    public func pathCost(_ graph: RoutingGraph, _ nodes: ArraySlice<Int>) -> Int {
        var total = 0
        var previous: Int?
        for node in nodes {
            if let previous { total += Int(turnCost(graph, from: previous, to: node) ?? 0) + Int(nodeWeight[node]) }
            previous = node
        }
        return total
    }

    public static func freeFlowWeights(_ graph: RoutingGraph) -> ContiguousArray<UInt32> {
        var weights = ContiguousArray<UInt32>(repeating: CCHMetric.infinity, count: graph.routingNodeCount)
        for node in 0..<graph.routingNodeCount {
            // A routing node of another profile of the road set (its time forbidden to this one) is unusable.
            let time = graph.freeFlowTime(directedEdge: Int(graph.routingEdge[node]))
            weights[node] = time >= CCHMetric.infinity ? CCHMetric.infinity : time
        }
        return weights
    }

    /// Customizes the graph's hierarchy for new node weights; the order and contraction are reused. Under traffic the
    /// turn costs scale with the entered edge's congestion (`JunctionDelay.trafficScaled`).
    public static func customized(_ graph: RoutingGraph, nodeWeight: ContiguousArray<UInt32>, traffic: TrafficOverlay? = nil) -> RoutingMetric {
        let turnCost = traffic.map { JunctionDelay.trafficScaled(graph, traffic: $0) } ?? ContiguousArray(graph.turnCost)
        let hierarchy = nodeWeight.withUnsafeBufferPointer { weights in
            turnCost.withUnsafeBufferPointer { Customization.customize(graph.cch, nodeWeight: weights, turnCost: $0) }
        }
        return RoutingMetric(nodeWeight: nodeWeight, turnCost: turnCost, hierarchy: hierarchy, traffic: traffic)
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
