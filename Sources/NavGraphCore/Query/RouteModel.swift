/// Congestion classes of the Mapbox Directions API.
public enum CongestionLevel: String, Codable, CaseIterable, Sendable {
    case unknown, low, moderate, heavy, severe

    /// low 0–39, moderate 40–59, heavy 60–79, severe 80–100; nil is unknown.
    public init(numeric: Int?) {
        guard let numeric else { self = .unknown; return }
        switch numeric {
        case ..<40: self = .low
        case 40..<60: self = .moderate
        case 60..<80: self = .heavy
        default: self = .severe
        }
    }

    /// `rawValue` as a literal, for writers that copy it without scanning it.
    package var name: StaticString {
        switch self {
        case .unknown: "unknown"
        case .low: "low"
        case .moderate: "moderate"
        case .heavy: "heavy"
        case .severe: "severe"
        }
    }
}

/// What the route knows about the stretch between two consecutive coordinates of a leg.
public struct SegmentAnnotation: Sendable, Equatable {
    /// Metres.
    public var distance: Double
    /// Seconds, with traffic when traffic data is applied.
    public var duration: Double
    /// Seconds at free flow.
    public var durationTypical: Double
    /// 0–100, nil when no traffic data covers the segment.
    public var congestionNumeric: Int?
    public var roadClass: RoadClass
    public var isToll: Bool
    public var isFerry: Bool
    /// Road edge the segment belongs to.
    public var edge: Int
    /// Posted speed limit in km/h as stored (0 unknown, 255 `maxspeed=none`).
    public var maxspeed: UInt8 = 0

    public init(distance: Double, duration: Double, durationTypical: Double, congestionNumeric: Int?, roadClass: RoadClass,
                isToll: Bool, isFerry: Bool, edge: Int) {
        self.distance = distance; self.duration = duration; self.durationTypical = durationTypical
        self.congestionNumeric = congestionNumeric; self.roadClass = roadClass
        self.isToll = isToll; self.isFerry = isFerry; self.edge = edge
    }

    public var congestion: CongestionLevel { CongestionLevel(numeric: congestionNumeric) }
    /// Metres per second.
    public var speed: Double { duration > 0 ? distance / duration : 0 }
}

/// One leg of a route, between two consecutive waypoints.
public struct RouteLeg: Sendable {
    /// Full-resolution geometry; the first point is the snapped origin, the last the snapped destination.
    public var coordinates: [Coordinate]
    /// One entry per pair of consecutive coordinates.
    public var annotations: [SegmentAnnotation]
    /// Metres.
    public var distance: Double
    /// Seconds, with traffic.
    public var duration: Double
    /// Seconds at free flow.
    public var durationTypical: Double
    /// Seconds of search cost: what the router minimised (duration, plus penalties in prefer mode).
    public var weight: Double
    /// The main road names or refs of the leg, comma-separated.
    public var summary: String
    /// Directed road edges (2 * edge + direction) in driving order.
    public var directedEdges: [Int]
    /// The routing nodes driven, one per directed edge (a via-way restriction's copy where the route runs on one);
    /// empty for legs not built by the router.
    public var routingNodes: [Int]
    /// For each directed edge, the index of its first segment in `annotations` (its first coordinate); an edge the
    /// leg touches without driving (snapped at its very end) has no segment and shares the next edge's start.
    /// Empty for legs not built by the router.
    public var edgeFirstSegment: [Int] = []
    /// Guidance steps, filled on request (`Router.addSteps`); empty otherwise.
    public var steps: [GuidanceStep] = []
    /// Seconds of `duration` spent on turns and junction controls (signals, stops, give way, level crossings); each
    /// turn's cost is also in the duration of the first segment of the edge it enters.
    public var turnDelay: Double = 0
    /// The language of the street names of its summary and steps (`RouteOptions.nameLanguage`); nil for the local names.
    public var nameLanguage: NameLanguage?
    /// Silent via points the leg passes (coordinates that are not waypoints, `waypoints=`), in order.
    public var viaWaypoints: [ViaWaypoint] = []

    /// A leg; `weight` defaults to the duration.
    public init(coordinates: [Coordinate], annotations: [SegmentAnnotation], distance: Double, duration: Double,
                durationTypical: Double, weight: Double? = nil, summary: String, directedEdges: [Int], routingNodes: [Int] = []) {
        self.coordinates = coordinates; self.annotations = annotations; self.distance = distance
        self.duration = duration; self.durationTypical = durationTypical; self.weight = weight ?? duration
        self.summary = summary; self.directedEdges = directedEdges; self.routingNodes = routingNodes
    }
}

/// A silent via point on a leg: the coordinate it was given as, where it snapped, and where the leg passes it.
public struct ViaWaypoint: Sendable {
    /// Index of the coordinate in the request.
    public var coordinateIndex: Int
    public var waypoint: RouteWaypoint
    /// Metres along the leg to the via point.
    public var distanceFromStart: Double
    /// Index of the via point in the leg's coordinates.
    public var geometryIndex: Int

    public init(coordinateIndex: Int, waypoint: RouteWaypoint, distanceFromStart: Double, geometryIndex: Int) {
        self.coordinateIndex = coordinateIndex; self.waypoint = waypoint
        self.distanceFromStart = distanceFromStart; self.geometryIndex = geometryIndex
    }
}

/// A route through all waypoints: the primary one or an alternative.
public struct Route: Sendable {
    public var legs: [RouteLeg]
    /// true for alternatives (routeIndex > 0).
    public var isAlternate: Bool
    /// Classes the request asked to avoid.
    public var avoided: [String]
    /// Avoided classes the route still uses (only in `prefer` mode).
    public var usedAvoidedClasses: [String]
    /// Where an alternative leaves and rejoins the primary route.
    public var divergeCoordinate: Coordinate?
    public var mergeCoordinate: Coordinate?

    public init(legs: [RouteLeg], isAlternate: Bool, avoided: [String], usedAvoidedClasses: [String],
                divergeCoordinate: Coordinate? = nil, mergeCoordinate: Coordinate? = nil) {
        self.legs = legs; self.isAlternate = isAlternate; self.avoided = avoided
        self.usedAvoidedClasses = usedAvoidedClasses; self.divergeCoordinate = divergeCoordinate; self.mergeCoordinate = mergeCoordinate
    }

    public var distance: Double { legs.reduce(0) { $0 + $1.distance } }
    public var duration: Double { legs.reduce(0) { $0 + $1.duration } }
    public var durationTypical: Double { legs.reduce(0) { $0 + $1.durationTypical } }
    /// Seconds of the search cost (equals duration unless avoided roads were penalised).
    public var weight: Double { legs.reduce(0) { $0 + $1.weight } }
    /// Seconds of the duration spent on turns and junction controls.
    public var turnDelay: Double { legs.reduce(0) { $0 + $1.turnDelay } }
    /// The whole geometry, legs joined without repeating the shared waypoint.
    public var coordinates: [Coordinate] {
        var all: [Coordinate] = []
        for leg in legs { all.append(contentsOf: all.isEmpty ? leg.coordinates[...] : leg.coordinates.dropFirst()) }
        return all
    }
}

/// A waypoint as requested and as snapped onto the road network.
public struct RouteWaypoint: Sendable {
    public var input: Coordinate
    public var snapped: Coordinate
    /// Metres between input and snapped point.
    public var snapDistance: Double
    /// Name of the road the waypoint snapped to.
    public var roadName: String
    /// Caller-given label, if any.
    public var label: String?

    public init(input: Coordinate, snapped: Coordinate, snapDistance: Double, roadName: String, label: String?) {
        self.input = input; self.snapped = snapped; self.snapDistance = snapDistance; self.roadName = roadName; self.label = label
    }
}

/// Everything `navgraph route` computes for one request.
public struct RouteResponse: Sendable {
    public var waypoints: [RouteWaypoint]
    /// Index 0 is the primary route; alternatives follow, ranked by duration.
    public var routes: [Route]
    /// Where each waypoint was snapped (edge and offset), as the legs used them.
    public var snaps: [Snap] = []

    public init(waypoints: [RouteWaypoint], routes: [Route]) {
        self.waypoints = waypoints; self.routes = routes
    }
}
