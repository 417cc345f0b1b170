/// Builds a leg's geometry and per-segment annotations from its path of routing nodes.
extension Router {
    /// The leg of a path; `names` is the language of its summary's street names and, later, of its steps'.
    package func buildLeg(_ path: LegPath, metric: RoutingMetric, names: NameLanguage?) -> RouteLeg {
        let planner = RoutePlanner(graph: graph, costs: costs)
        let directedEdges = path.nodes.map { Int(graph.routingEdge[$0]) }
        var coordinates: [Coordinate] = [path.source.point]
        var annotations: [SegmentAnnotation] = []
        var roadLengths = RoadLengths()
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
            if name != 0 { roadLengths.add(pieceLength, name: name, edge: edge) }
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
        let summary = roadLengths.longest(2).map { entry in
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
