/// Builds a leg's geometry and per-segment annotations from its path of routing nodes.
extension Router {
    /// The leg of a path; `names` is the language of its summary's street names and, later, of its steps'.
    /// Road names a leg's summary searches in its list before it indexes them.
    static let namesScannedInPlace = 48

    package func buildLeg(_ path: LegPath, metric: RoutingMetric, names: NameLanguage?) -> RouteLeg {
        let planner = RoutePlanner(graph: graph, costs: costs)
        let directedEdges = path.nodes.map { Int(graph.routingEdge[$0]) }
        var coordinates: [Coordinate] = [path.source.point]
        var annotations: [SegmentAnnotation] = []
        // Metres by string id of the edge's name, else of its ref, with an edge of that name (to localize it).
        // Consecutive edges mostly share a name, so the last one used is tried first; the others are searched in the
        // list while it is short, and through an index built once it is long (a long leg through many towns). A
        // dictionary's `default:` closure would box a value per edge.
        var distanceByName: [(name: UInt32, metres: Double, edge: Int)] = []
        var nameSlot: [UInt32: Int] = [:]
        var lastSlot = -1
        var edgeFirstSegment: [Int] = []
        edgeFirstSegment.reserveCapacity(directedEdges.count)
        // One coordinate and one annotation per shape segment driven (the edges' segments bound them).
        var segmentCount = 0
        for d in directedEdges { segmentCount += Int(graph.edgeShapeFirst[(d >> 1) + 1]) - Int(graph.edgeShapeFirst[d >> 1]) - 1 }
        coordinates.reserveCapacity(segmentCount + 2)
        annotations.reserveCapacity(segmentCount + 1)
        for (index, d) in directedEdges.enumerated() {
            edgeFirstSegment.append(annotations.count)
            let edge = d >> 1
            let from = index == 0 ? planner.position(of: path.source, onDirectedEdge: d) : 0
            let to = index == directedEdges.count - 1 ? planner.position(of: path.target, onDirectedEdge: d) : graph.edgeLength[edge]
            let flags = graph.flags(edge: edge), roadClass = graph.roadClass(edge: edge)
            var travelled = 0.0
            var pieceLength = 0.0
            costs.forEachSegment(directedEdge: d, traffic: metric.traffic) { segment in
                defer { travelled += segment.length }
                let start = max(from, travelled), end = min(to, travelled + segment.length)
                guard end > start else { return }
                let share = (end - start) / segment.length
                let endPoint: Coordinate
                if end >= travelled + segment.length {
                    endPoint = graph.coordinate(shapePoint: segment.to)
                } else {
                    let a = graph.coordinate(shapePoint: segment.from), b = graph.coordinate(shapePoint: segment.to)
                    let t = (end - travelled) / segment.length
                    endPoint = Coordinate(lat: a.lat + (b.lat - a.lat) * t, lon: a.lon + (b.lon - a.lon) * t)
                }
                coordinates.append(endPoint)
                pieceLength += end - start
                var annotation = SegmentAnnotation(
                    distance: end - start, duration: segment.current * share / 1000, durationTypical: segment.typical * share / 1000,
                    congestionNumeric: segment.congestion.map(Int.init), roadClass: roadClass,
                    isToll: flags.contains(.toll), isFerry: flags.contains(.ferry), edge: edge)
                annotation.maxspeed = graph.edgeMaxspeed[edge]
                annotations.append(annotation)
            }
            let name = graph.edgeName[edge] != 0 ? graph.edgeName[edge] : graph.edgeRef[edge]
            if name != 0 {
                if lastSlot < 0 || distanceByName[lastSlot].name != name {
                    let found: Int?
                    if distanceByName.count <= Self.namesScannedInPlace {
                        found = distanceByName.lastIndex { $0.name == name }
                    } else {
                        if nameSlot.isEmpty { for (slot, entry) in distanceByName.enumerated() { nameSlot[entry.name] = slot } }
                        found = nameSlot[name]
                    }
                    if let found { lastSlot = found } else {
                        lastSlot = distanceByName.count
                        if !nameSlot.isEmpty { nameSlot[name] = lastSlot }
                        distanceByName.append((name, 0, edge))
                    }
                }
                distanceByName[lastSlot].metres += pieceLength
            }
        }
        if coordinates.count == 1 {
            coordinates.append(path.target.point)
            let edge = path.target.edge
            annotations.append(SegmentAnnotation(distance: 0, duration: 0, durationTypical: 0, congestionNumeric: nil,
                                                 roadClass: graph.roadClass(edge: edge), isToll: graph.flags(edge: edge).contains(.toll),
                                                 isFerry: graph.flags(edge: edge).contains(.ferry), edge: edge))
        } else {
            coordinates[coordinates.count - 1] = path.target.point
        }
        let turnDelay = addTurnCosts(path.nodes, edgeFirstSegment: edgeFirstSegment, metric: metric, to: &annotations)
        // Longest first; equal lengths (a leg of no length) by name id, so the summary never follows hash order.
        let summary = distanceByName.sorted { $0.metres > $1.metres || ($0.metres == $1.metres && $0.name < $1.name) }
            .prefix(2).map { entry in
            graph.string(graph.edgeName[entry.edge] == entry.name ? graph.name(edge: entry.edge, in: names) : entry.name)
        }.joined(separator: ", ")
        var leg = RouteLeg(coordinates: coordinates, annotations: annotations,
                           distance: annotations.reduce(0) { $0 + $1.distance },
                           duration: annotations.reduce(0) { $0 + $1.duration },
                           durationTypical: annotations.reduce(0) { $0 + $1.durationTypical },
                           weight: Double(path.cost) / 1000, summary: summary, directedEdges: directedEdges,
                           routingNodes: path.nodes)
        leg.edgeFirstSegment = edgeFirstSegment
        leg.turnDelay = turnDelay
        leg.nameLanguage = names
        return leg
    }

    /// Adds each turn's cost to the first segment of the edge it enters (the leg's last segment for an edge touched
    /// without driving), current cost to `duration` and free-flow cost to `durationTypical`; returns the seconds added.
    private func addTurnCosts(_ nodes: [Int], edgeFirstSegment: [Int], metric: RoutingMetric, to annotations: inout [SegmentAnnotation]) -> Double {
        guard !annotations.isEmpty, nodes.count > 1 else { return 0 }
        let firstOut = graph.cch.turnFirstOut, head = graph.cch.turnHead, typicalCost = graph.turnCost
        let last = annotations.count - 1
        var total = 0.0
        metric.turnCost.withUnsafeBufferPointer { currentCost in
            for index in 1..<nodes.count {
                let from = nodes[index - 1], to = nodes[index]
                var best = -1
                for arc in Int(firstOut[from])..<Int(firstOut[from + 1]) where Int(head[arc]) == to {
                    if best < 0 || currentCost[arc] < currentCost[best] { best = arc }
                }
                guard best >= 0, currentCost[best] > 0 || typicalCost[best] > 0 else { continue }
                let current = Double(TurnCosts.duration(ofArcCost: currentCost[best])) / 1000
                let segment = index < edgeFirstSegment.count ? min(edgeFirstSegment[index], last) : last
                annotations[segment].duration += current
                annotations[segment].durationTypical += Double(TurnCosts.duration(ofArcCost: typicalCost[best])) / 1000
                total += current
            }
        }
        return total
    }
}
