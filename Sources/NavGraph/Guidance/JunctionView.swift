/// One road at a junction as seen from its centre: the directed edge leaving along it, its bearing, and whether
/// the route's incoming edge may turn onto it.
struct JunctionRoad {
    /// Directed edge (2 * edge + direction) leaving the junction along this road.
    var leaving: Int
    /// Bearing from the junction along the road, 0..<360.
    var bearing: Double
    /// Whether a car arriving on the route's incoming edge may drive onto it.
    var entry: Bool
    var edge: Int { leaving >> 1 }
}

/// All roads at one junction of a route, in bearing order, with the roads the route arrives on and leaves by.
struct JunctionView {
    var node: Int
    var roads: [JunctionRoad]
    /// Index in `roads` of the road the route arrives on (its leaving edge is the reverse of the incoming edge).
    var inIndex: Int
    var outIndex: Int
    /// Direction of travel when arriving, 0..<360.
    var bearingBefore: Double
    var bearingAfter: Double { roads[outIndex].bearing }
    /// Signed turn of the route here, -180...180, positive to the right.
    var deviation: Double { Bearing.deviation(from: bearingBefore, to: bearingAfter) }

    /// Deviation of any road from the direction of arrival.
    func deviation(of road: JunctionRoad) -> Double { Bearing.deviation(from: bearingBefore, to: road.bearing) }
}

/// Builds junction views and road bearings from the graph's junction adjacency and edge shapes.
struct JunctionReader {
    let graph: RoutingGraph
    /// Road bearings already measured (shared by every view the reader builds).
    let bearings: EdgeBearingCache

    init(graph: RoutingGraph) {
        self.graph = graph
        bearings = EdgeBearingCache(directedEdgeCount: 2 * graph.edgeCount)
    }
    /// Metres along a road at which its bearing is measured (OSRM looks a similar distance ahead); shorter on a
    /// roundabout's ring, which curves away at once.
    static let lookahead = 12.0
    static let ringLookahead = 4.0

    /// Bearing of directed edge d measured from its start, at `lookahead` metres or its end (cached).
    func bearingFromStart(directedEdge d: Int) -> Double {
        bearings.bearing(d) { measureBearing(directedEdge: $0) }
    }

    /// Bearing of directed edge d measured from its start, at `lookahead` metres or its end.
    func measureBearing(directedEdge d: Int) -> Double {
        let edge = d >> 1
        let first = Int(graph.edgeShapeFirst[edge]), last = Int(graph.edgeShapeFirst[edge + 1]) - 1
        let forward = d & 1 == 0
        let lookahead = graph.flags(edge: edge).contains(.roundabout) ? Self.ringLookahead : Self.lookahead
        let origin = graph.coordinate(shapePoint: forward ? first : last)
        var travelled = 0.0
        var previous = origin
        var index = forward ? first + 1 : last - 1
        while forward ? index <= last : index >= first {
            let point = graph.coordinate(shapePoint: index)
            let step = Bearing.planarMetres(previous, point)
            if travelled + step >= lookahead && step > 0 {
                let t = (lookahead - travelled) / step
                let target = Coordinate(lat: previous.lat + (point.lat - previous.lat) * t, lon: previous.lon + (point.lon - previous.lon) * t)
                return Bearing.planar(origin, target)
            }
            travelled += step
            previous = point
            index += forward ? 1 : -1
        }
        return Bearing.planar(origin, previous)
    }

    /// Head junction of a directed edge.
    func head(of d: Int) -> Int { Int(d & 1 == 0 ? graph.edgeTo[d >> 1] : graph.edgeFrom[d >> 1]) }

    /// The junction between `incoming` and `outgoing` (consecutive directed edges of a route); `routingNode` is the
    /// routing node the route drove `incoming` on (for turn restrictions), or nil to use the plain edge's node.
    func view(incoming: Int, outgoing: Int, routingNode: Int?) -> JunctionView {
        let node = head(of: incoming)
        let reverseIn = incoming ^ 1
        let from = routingNode ?? Int(graph.routingNodeOfEdge[incoming])
        var roads: [JunctionRoad] = []
        roads.reserveCapacity(Int(graph.junctionFirstOut[node + 1] - graph.junctionFirstOut[node]))
        for slot in Int(graph.junctionFirstOut[node])..<Int(graph.junctionFirstOut[node + 1]) {
            let leaving = Int(graph.junctionOut[slot])
            // Private roads and tracks are no way on for a driver (OSRM's car profile drops them): not listed.
            if leaving != outgoing && leaving != reverseIn
                && (graph.flags(edge: leaving >> 1).contains(.privateAccess) || graph.roadClass(edge: leaving >> 1) == .track) { continue }
            var entry = false
            if from >= 0 {
                for arc in Int(graph.cch.turnFirstOut[from])..<Int(graph.cch.turnFirstOut[from + 1])
                where Int(graph.routingEdge[Int(graph.cch.turnHead[arc])]) == leaving {
                    entry = true
                    break
                }
            }
            if leaving == outgoing { entry = true }
            roads.append(JunctionRoad(leaving: leaving, bearing: bearingFromStart(directedEdge: leaving), entry: entry))
        }
        roads.sort { $0.bearing < $1.bearing }
        let inIndex = roads.firstIndex { $0.leaving == reverseIn }
        let outIndex = roads.firstIndex { $0.leaving == outgoing } ?? 0
        let inBearing = inIndex.map { roads[$0].bearing } ?? bearingFromStart(directedEdge: reverseIn)
        return JunctionView(node: node, roads: roads, inIndex: inIndex ?? 0, outIndex: outIndex,
                            bearingBefore: Bearing.normalized(inBearing + 180))
    }
}
