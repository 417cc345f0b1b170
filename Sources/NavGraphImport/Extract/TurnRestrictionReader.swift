import NavGraphCore
/// Resolves OSM `type=restriction` relations (from way, via node or via ways, to way) onto directed edges of the road network.
package enum TurnRestrictionReader {
    package static func read(source: OSMSource, network: RoadNetwork, graphNode: ContiguousArray<Int32>,
                     profiles: [any VehicleProfile] = [CarVehicleProfile()], report: inout ImportReport) -> [TurnRestriction] {
        // Edges of each way, to find the pieces that touch the via node.
        let edgesByWay = EdgesByWay(network.edgeWay)

        var restrictions: [TurnRestriction] = []
        func drop(_ reason: String) { report.restrictionsDropped[reason, default: 0] += 1 }

        for relation in 0..<source.relationCount {
            let tags = source.relationTags(relation)
            // Each profile reads its own restriction:* key, then restriction, unless except= names it; profiles
            // that read the same value share one restriction.
            let values = profiles.map { $0.restrictionValue(tags) }
            var distinct: [String] = []
            for case let value? in values where !distinct.contains(value) { distinct.append(value) }
            if distinct.isEmpty {
                let notFor = profiles.count == 1 && profiles[0].id == .car ? "not for cars" : "not for " + profiles.map(\.rules.name).joined(separator: "/")
                let named = tags["except"] != nil || tags.keys.contains(where: { $0.hasPrefix("restriction:") })
                drop(named ? notFor : "no restriction value")
                continue
            }
            for value in distinct {
            let applies = profiles.indices.filter { values[$0] == value }.map { profiles[$0].id }
            let appliesTo: [ProfileID]? = applies.count == profiles.count ? nil : applies
            let isMandatory: Bool
            if value.hasPrefix("only_") { isMandatory = true } else if value.hasPrefix("no_") { isMandatory = false } else {
                drop("unknown restriction value")
                continue
            }
            let members = source.relationMembers(relation)
            let froms = members.filter { $0.role == 1 && $0.type == "w" }
            let vias = members.filter { $0.role == 2 }
            let tos = members.filter { $0.role == 3 && $0.type == "w" }
            guard froms.count == 1, tos.count == 1, vias.count >= 1 else {
                drop("malformed members")
                continue
            }
            guard let fromEdges = edgesByWay[froms[0].ref], let toEdges = edgesByWay[tos[0].ref] else {
                drop("from or to way not routable or not in the extract")
                continue
            }
            if vias.allSatisfy({ $0.type == "w" }) {
                switch resolveViaWays(vias.map(\.ref), from: fromEdges, to: toEdges, edgesByWay: edgesByWay, network: network) {
                case .failure(let error):
                    drop(error.reason)
                case .success(let resolved):
                    var restriction = TurnRestriction(fromDirectedEdges: resolved.arriving, via: resolved.entry,
                                                      toDirectedEdges: resolved.leaving, isMandatory: isMandatory,
                                                      relationID: source.relationID(relation), viaDirectedEdges: resolved.path)
                    restriction.profiles = appliesTo
                    restrictions.append(restriction)
                }
                continue
            }
            guard vias.count == 1, vias[0].type == "n" else {
                drop("malformed members")
                continue
            }
            guard let viaIndex = source.nodeIndex(of: vias[0].ref), graphNode[viaIndex] >= 0 else {
                drop("via node outside the road network")
                continue
            }
            let via = UInt32(graphNode[viaIndex])
            // Directed edges of the from way that arrive at via, and of the to way that leave it.
            var arriving: [UInt32] = [], leaving: [UInt32] = []
            for edge in fromEdges {
                if network.edgeTo[Int(edge)] == via { arriving.append(edge * 2) }
                if network.edgeFrom[Int(edge)] == via { arriving.append(edge * 2 + 1) }
            }
            for edge in toEdges {
                if network.edgeFrom[Int(edge)] == via { leaving.append(edge * 2) }
                if network.edgeTo[Int(edge)] == via { leaving.append(edge * 2 + 1) }
            }
            guard !arriving.isEmpty, !leaving.isEmpty else {
                drop("from or to way does not touch the via node")
                continue
            }
            var restriction = TurnRestriction(fromDirectedEdges: arriving, via: via, toDirectedEdges: leaving,
                                              isMandatory: isMandatory, relationID: source.relationID(relation))
            restriction.profiles = appliesTo
            restrictions.append(restriction)
            }
        }
        report.restrictionsKept = restrictions.count
        report.viaWayRestrictionsKept = restrictions.count { !$0.viaDirectedEdges.isEmpty }
        return restrictions
    }

    /// A via-way restriction on the network: the from way's directed edges arriving at the via ways (one junction),
    /// the drivable path along them, and the to way's directed edges leaving their far end.
    package struct ViaWayPath {
        package var arriving: [UInt32]
        package var entry: UInt32
        package var path: [UInt32]
        package var leaving: [UInt32]
    }

    /// Finds where the from way meets the via ways, where the to way leaves them, and the drivable path between.
    package static func resolveViaWays(_ viaWays: [Int64], from fromEdges: [UInt32], to toEdges: [UInt32],
                               edgesByWay: EdgesByWay, network: RoadNetwork) -> Result<ViaWayPath, ViaWayError> {
        var viaEdges: [UInt32] = []
        for way in viaWays {
            guard let edges = edgesByWay[way] else { return .failure(ViaWayError("via way not routable or not in the extract")) }
            viaEdges.append(contentsOf: edges)
        }
        var onVia = Set<UInt32>()
        for edge in viaEdges { onVia.insert(network.edgeFrom[Int(edge)]); onVia.insert(network.edgeTo[Int(edge)]) }
        var arriving: [UInt32] = [], leaving: [UInt32] = []
        for edge in fromEdges {
            if onVia.contains(network.edgeTo[Int(edge)]) { arriving.append(edge * 2) }
            if onVia.contains(network.edgeFrom[Int(edge)]) { arriving.append(edge * 2 + 1) }
        }
        for edge in toEdges {
            if onVia.contains(network.edgeFrom[Int(edge)]) { leaving.append(edge * 2) }
            if onVia.contains(network.edgeTo[Int(edge)]) { leaving.append(edge * 2 + 1) }
        }
        func head(_ d: UInt32) -> UInt32 { d & 1 == 0 ? network.edgeTo[Int(d >> 1)] : network.edgeFrom[Int(d >> 1)] }
        func tail(_ d: UInt32) -> UInt32 { d & 1 == 0 ? network.edgeFrom[Int(d >> 1)] : network.edgeTo[Int(d >> 1)] }
        arriving = arriving.filter { TurnGraphBuilder.isDrivable(network, directedEdge: Int($0)) }
        leaving = leaving.filter { TurnGraphBuilder.isDrivable(network, directedEdge: Int($0)) }
        guard let entry = arriving.first.map(head), let exit = leaving.first.map(tail) else {
            return .failure(ViaWayError("from or to way does not touch the via way"))
        }
        guard arriving.allSatisfy({ head($0) == entry }), leaving.allSatisfy({ tail($0) == exit }) else {
            return .failure(ViaWayError("from or to way touches the via way at two junctions"))
        }
        guard entry != exit else { return .failure(ViaWayError("via way does not lead from the from way to the to way")) }
        // Breadth-first search over the via ways' drivable directed edges, from the entry junction to the exit.
        var reachedBy: [UInt32: UInt32] = [:]   // junction -> directed edge it was first reached by
        var frontier = [entry]
        while !frontier.isEmpty, reachedBy[exit] == nil {
            var next: [UInt32] = []
            for junction in frontier {
                for edge in viaEdges {
                    for d in [edge * 2, edge * 2 + 1] where tail(d) == junction && TurnGraphBuilder.isDrivable(network, directedEdge: Int(d)) {
                        let reached = head(d)
                        if reached != entry && reachedBy[reached] == nil { reachedBy[reached] = d; next.append(reached) }
                    }
                }
            }
            frontier = next
        }
        guard reachedBy[exit] != nil else {
            return .failure(ViaWayError("via way not drivable from the from way to the to way"))
        }
        var path: [UInt32] = []
        var junction = exit
        while junction != entry, let d = reachedBy[junction] {
            path.append(d)
            junction = tail(d)
        }
        return .success(ViaWayPath(arriving: arriving, entry: entry, path: path.reversed(), leaving: leaving))
    }

    /// Why a via-way restriction could not be resolved (the import report's drop reason).
    package struct ViaWayError: Error {
        package var reason: String
        package init(_ reason: String) { self.reason = reason }
    }
}

/// The edges of each way, in edge order (what `[wayID: [edge]]` would hold), without an array per way: the builder
/// appends a way's edges in a row, so a way is one run of edges (or more, were a way id repeated), kept as
/// (way id, first edge, end) sorted by way id, then first edge: 16 bytes per way.
package struct EdgesByWay {
    private struct Run { var way: Int64; var first: UInt32; var end: UInt32 }
    private let runs: ContiguousArray<Run>

    package init(_ edgeWay: ContiguousArray<Int64>) {
        var runs = ContiguousArray<Run>()
        var edge = 0
        while edge < edgeWay.count {
            let way = edgeWay[edge]
            var end = edge + 1
            while end < edgeWay.count && edgeWay[end] == way { end += 1 }
            runs.append(Run(way: way, first: UInt32(edge), end: UInt32(end)))
            edge = end
        }
        runs.sort { ($0.way, $0.first) < ($1.way, $1.first) }
        self.runs = runs
    }

    /// The way's edges in ascending order, nil when it has none.
    package subscript(way: Int64) -> [UInt32]? {
        var low = 0, high = runs.count
        while low < high {
            let middle = (low + high) >> 1
            if runs[middle].way < way { low = middle + 1 } else { high = middle }
        }
        guard low < runs.count, runs[low].way == way else { return nil }
        var edges: [UInt32] = []
        while low < runs.count && runs[low].way == way {
            edges.append(contentsOf: runs[low].first..<runs[low].end)
            low += 1
        }
        return edges
    }
}
