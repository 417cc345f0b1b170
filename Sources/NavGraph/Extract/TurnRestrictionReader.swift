/// Resolves OSM `type=restriction` relations (from way, via node, to way) onto directed edges of the road network.
enum TurnRestrictionReader {
    static func read(source: OSMSource, network: RoadNetwork, graphNode: ContiguousArray<Int32>,
                     report: inout ImportReport) -> [TurnRestriction] {
        // Edges of each way, to find the pieces that touch the via node.
        var edgesByWay: [Int64: [UInt32]] = [:]
        for edge in 0..<network.edgeCount { edgesByWay[network.edgeWay[edge], default: []].append(UInt32(edge)) }

        var restrictions: [TurnRestriction] = []
        func drop(_ reason: String) { report.restrictionsDropped[reason, default: 0] += 1 }

        for relation in 0..<source.relationCount {
            let tags = source.relationTags(relation)
            guard let value = tags["restriction:motorcar"] ?? tags["restriction:motor_vehicle"] ?? tags["restriction"] else {
                drop(tags.keys.contains(where: { $0.hasPrefix("restriction:") }) ? "not for cars" : "no restriction value")
                continue
            }
            if let except = tags["except"], except.split(separator: ";").contains(where: { $0 == "motorcar" || $0 == "motor_vehicle" }) {
                drop("not for cars")
                continue
            }
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
            guard vias.count == 1, vias[0].type == "n" else {
                drop("via way (not supported yet)")
                continue
            }
            guard let viaIndex = source.nodeIndex(of: vias[0].ref), graphNode[viaIndex] >= 0 else {
                drop("via node outside the road network")
                continue
            }
            let via = UInt32(graphNode[viaIndex])
            guard let fromEdges = edgesByWay[froms[0].ref], let toEdges = edgesByWay[tos[0].ref] else {
                drop("from or to way not routable or not in the extract")
                continue
            }
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
            restrictions.append(TurnRestriction(fromDirectedEdges: arriving, via: via, toDirectedEdges: leaving,
                                                isMandatory: isMandatory, relationID: source.relationID(relation)))
        }
        report.restrictionsKept = restrictions.count
        return restrictions
    }
}
