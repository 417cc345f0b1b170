/// The edge-based graph routing runs on: a node per drivable directed road edge, an arc per allowed turn.
/// Turn restrictions and the no-U-turn rule live in which arcs exist.
public struct TurnGraph {
    /// Directed edge (2 * edge + direction) of each routing node.
    public var directedEdge = ContiguousArray<UInt32>()
    /// Arcs of routing node v are head[firstOut[v] ..< firstOut[v + 1]].
    public var firstOut = ContiguousArray<UInt32>()
    public var head = ContiguousArray<UInt32>()

    public init() {}
    public var nodeCount: Int { directedEdge.count }
    public var arcCount: Int { head.count }
}

/// Builds the TurnGraph from a RoadNetwork and its turn restrictions.
public enum TurnGraphBuilder {
    /// Whether a car may drive directed edge d.
    public static func isDrivable(_ network: RoadNetwork, directedEdge d: Int) -> Bool {
        let edge = d >> 1
        let time = d & 1 == 0 ? network.edgeTimeForward[edge] : network.edgeTimeBackward[edge]
        return time != RoadNetwork.forbidden && EdgeFlags(rawValue: network.edgeFlags[edge]).isDisjoint(with: .privateAccess)
    }

    public static func build(network: RoadNetwork, restrictions: [TurnRestriction]) -> TurnGraph {
        let directedCount = network.edgeCount * 2
        var graph = TurnGraph()
        var routingNode = ContiguousArray<Int32>(repeating: -1, count: directedCount)
        for d in 0..<directedCount where isDrivable(network, directedEdge: d) {
            routingNode[d] = Int32(graph.directedEdge.count)
            graph.directedEdge.append(UInt32(d))
        }

        // Directed edges leaving each junction, and each junction's degree.
        var firstLeaving = ContiguousArray<Int>(repeating: 0, count: network.nodeCount + 1)
        var degree = ContiguousArray<Int>(repeating: 0, count: network.nodeCount)
        for edge in 0..<network.edgeCount {
            firstLeaving[Int(network.edgeFrom[edge]) + 1] += 1
            firstLeaving[Int(network.edgeTo[edge]) + 1] += 1
            degree[Int(network.edgeFrom[edge])] += 1
            degree[Int(network.edgeTo[edge])] += 1
        }
        for node in 0..<network.nodeCount { firstLeaving[node + 1] += firstLeaving[node] }
        var leaving = ContiguousArray<UInt32>(repeating: 0, count: firstLeaving[network.nodeCount])
        var fill = firstLeaving
        for edge in 0..<network.edgeCount {
            leaving[fill[Int(network.edgeFrom[edge])]] = UInt32(edge * 2)
            fill[Int(network.edgeFrom[edge])] += 1
            leaving[fill[Int(network.edgeTo[edge])]] = UInt32(edge * 2 + 1)
            fill[Int(network.edgeTo[edge])] += 1
        }

        // Restrictions keyed by the arriving directed edge.
        var forbiddenTurns: [UInt32: Set<UInt32>] = [:]
        var mandatoryTurns: [UInt32: Set<UInt32>] = [:]
        for restriction in restrictions {
            for from in restriction.fromDirectedEdges {
                if restriction.isMandatory {
                    let allowed = Set(restriction.toDirectedEdges)
                    mandatoryTurns[from] = mandatoryTurns[from].map { $0.intersection(allowed) } ?? allowed
                } else {
                    forbiddenTurns[from, default: []].formUnion(restriction.toDirectedEdges)
                }
            }
        }

        graph.firstOut.reserveCapacity(graph.nodeCount + 1)
        graph.firstOut.append(0)
        for d in graph.directedEdge {
            let edge = Int(d >> 1)
            let junction = Int(d & 1 == 0 ? network.edgeTo[edge] : network.edgeFrom[edge])
            let forbidden = forbiddenTurns[d]
            let mandatory = mandatoryTurns[d]
            for index in firstLeaving[junction]..<firstLeaving[junction + 1] {
                let next = leaving[index]
                guard routingNode[Int(next)] >= 0, next != d else { continue }
                if next == d ^ 1 && degree[junction] > 1 { continue }
                if let forbidden, forbidden.contains(next) { continue }
                if let mandatory, !mandatory.contains(next) { continue }
                graph.head.append(UInt32(routingNode[Int(next)]))
            }
            graph.firstOut.append(UInt32(graph.head.count))
        }
        return graph
    }
}
