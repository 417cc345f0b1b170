import NavGraphCore
/// Builds the TurnGraph from a RoadNetwork and its turn restrictions.
public enum TurnGraphBuilder {
    /// Whether a car (or any other profile of the network) may drive directed edge d.
    public static func isDrivable(_ network: RoadNetwork, directedEdge d: Int) -> Bool {
        let edge = d >> 1
        let time = d & 1 == 0 ? network.edgeTimeForward[edge] : network.edgeTimeBackward[edge]
        if time != RoadNetwork.forbidden { return true }
        return network.profileEdges.contains { isDrivable($0, directedEdge: d) }
    }

    /// Whether one profile may drive directed edge d.
    package static func isDrivable(_ profile: ProfileEdges, directedEdge d: Int) -> Bool {
        let edge = d >> 1
        let time = d & 1 == 0 ? profile.timeForward[edge] : profile.timeBackward[edge]
        return time != RoadNetwork.forbidden
    }

    /// With `junctions`, a U-turn also exists where some profile may turn back by its own roads (see
    /// `ProfileJunctions`); the others' turn costs close it again. Without, only at dead ends of the whole network.
    public static func build(network: RoadNetwork, restrictions: [TurnRestriction]) -> TurnGraph {
        build(network: network, restrictions: restrictions, junctions: nil)
    }

    package static func build(network: RoadNetwork, restrictions: [TurnRestriction], junctions: ProfileJunctions?) -> TurnGraph {
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

        // Via-node restrictions keyed by the arriving directed edge.
        var forbiddenTurns: [UInt32: Set<UInt32>] = [:]
        var mandatoryTurns: [UInt32: Set<UInt32>] = [:]
        for restriction in restrictions where restriction.viaDirectedEdges.isEmpty {
            for from in restriction.fromDirectedEdges {
                if restriction.isMandatory {
                    let allowed = Set(restriction.toDirectedEdges)
                    mandatoryTurns[from] = mandatoryTurns[from].map { $0.intersection(allowed) } ?? allowed
                } else {
                    forbiddenTurns[from, default: []].formUnion(restriction.toDirectedEdges)
                }
            }
        }

        // Via-way restrictions: the via path entered from a restricted from edge runs on copies of its routing
        // nodes, one chain per (from edge, path prefix), whose last copy lacks the forbidden exits (or has only the
        // mandatory ones). A chain node continues along the chain, and otherwise turns back onto the ordinary graph.
        var copies = ViaPathCopies(originalCount: graph.nodeCount)
        for restriction in restrictions where !restriction.viaDirectedEdges.isEmpty {
            let path = restriction.viaDirectedEdges
            for from in restriction.fromDirectedEdges {
                var parent = ViaPathCopies.Parent.original(from)
                if restriction.isMandatory {
                    mandatoryTurns[from] = (mandatoryTurns[from] ?? [path[0]]).intersection([path[0]])
                }
                for (index, d) in path.enumerated() {
                    let copy = copies.child(of: parent, along: d)
                    if index + 1 < path.count {
                        if restriction.isMandatory { copies.restrict(copy, to: [path[index + 1]]) }
                    } else if restriction.isMandatory {
                        copies.restrict(copy, to: Set(restriction.toDirectedEdges))
                    } else {
                        copies.forbid(copy, restriction.toDirectedEdges)
                    }
                    parent = .copy(copy)
                }
            }
        }

        // The directed edges some restriction starts from: only those have entries in the turn sets and copies of
        // their own, so the others skip the lookups (most of this build's time before).
        var restrictedFrom = ContiguousArray<Bool>(repeating: false, count: directedCount)
        for restriction in restrictions { for from in restriction.fromDirectedEdges { restrictedFrom[Int(from)] = true } }

        graph.firstOut.reserveCapacity(graph.nodeCount + copies.count + 1)
        graph.firstOut.append(0)
        func addTurns(of d: UInt32, as parent: ViaPathCopies.Parent, forbidden extraForbidden: Set<UInt32>?,
                      mandatory extraMandatory: Set<UInt32>?) {
            let edge = Int(d >> 1)
            let junction = Int(d & 1 == 0 ? network.edgeTo[edge] : network.edgeFrom[edge])
            let restricted = restrictedFrom[Int(d)]
            let forbidden = restricted ? forbiddenTurns[d] : nil
            let mandatory = restricted ? mandatoryTurns[d] : nil
            let onCopy = parent != .original(d)
            let mayEnterCopy = restricted || onCopy  // else no via-path copy starts here
            let barrier = junction < network.nodeBarrier.count && network.nodeBarrier[junction] == NodeBarrier.impassable.rawValue
            for index in firstLeaving[junction]..<firstLeaving[junction + 1] {
                let next = leaving[index]
                guard routingNode[Int(next)] >= 0, next != d else { continue }
                // At a barrier a car can only turn back (car.lua); elsewhere U-turns exist at dead ends only.
                if barrier && next != d ^ 1 { continue }
                if next == d ^ 1 && degree[junction] > 1 && !barrier
                    && !(junctions?.someProfileTurnsBack(network, arrivingBy: Int(d), at: junction) ?? false) { continue }
                if let forbidden, forbidden.contains(next) { continue }
                if let mandatory, !mandatory.contains(next) { continue }
                if let extraForbidden, extraForbidden.contains(next) { continue }
                if let extraMandatory, !extraMandatory.contains(next) { continue }
                // A copy that leaves its own chain is still on directed edge d, so via-way restrictions starting
                // from d apply there too (unless both chains continue along the same edge).
                var chainChild: Int?
                if mayEnterCopy {
                    chainChild = copies.existingChild(of: parent, along: next)
                        ?? (onCopy ? copies.existingChild(of: .original(d), along: next) : nil)
                }
                if let copy = chainChild {
                    graph.head.append(UInt32(copies.originalCount + copy))
                } else {
                    graph.head.append(UInt32(routingNode[Int(next)]))
                }
            }
            graph.firstOut.append(UInt32(graph.head.count))
        }
        for d in graph.directedEdge {
            addTurns(of: d, as: .original(d), forbidden: nil, mandatory: nil)
        }
        for copy in 0..<copies.count {
            addTurns(of: copies.directedEdge[copy], as: .copy(copy), forbidden: copies.forbidden[copy], mandatory: copies.mandatory[copy])
        }
        graph.directedEdge.append(contentsOf: copies.directedEdge)
        graph.viaPathCopyCount = copies.count
        return graph
    }
}

/// The copies of via-way paths TurnGraphBuilder adds: a trie over (from edge, via path prefix).
package struct ViaPathCopies {
    /// What a copy continues from: an ordinary routing node's directed edge or another copy.
    package enum Parent: Hashable {
        case original(UInt32)
        case copy(Int)
    }

    private struct Key: Hashable {
        package var parent: Parent
        package var next: UInt32
    }

    package let originalCount: Int
    private var children: [Key: Int] = [:]
    private(set) var directedEdge = ContiguousArray<UInt32>()
    private(set) var forbidden: [Set<UInt32>?] = []
    private(set) var mandatory: [Set<UInt32>?] = []

    package init(originalCount: Int) { self.originalCount = originalCount }

    package var count: Int { directedEdge.count }

    package func existingChild(of parent: Parent, along d: UInt32) -> Int? { children[Key(parent: parent, next: d)] }

    /// The copy of directed edge d entered from parent, made on first use.
    package mutating func child(of parent: Parent, along d: UInt32) -> Int {
        if let copy = children[Key(parent: parent, next: d)] { return copy }
        let copy = directedEdge.count
        children[Key(parent: parent, next: d)] = copy
        directedEdge.append(d)
        forbidden.append(nil)
        mandatory.append(nil)
        return copy
    }

    package mutating func forbid(_ copy: Int, _ exits: [UInt32]) { forbidden[copy] = (forbidden[copy] ?? []).union(exits) }

    package mutating func restrict(_ copy: Int, to exits: Set<UInt32>) {
        mandatory[copy] = mandatory[copy].map { $0.intersection(exits) } ?? exits
    }
}
