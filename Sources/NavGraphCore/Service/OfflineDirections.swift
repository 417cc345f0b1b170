import Foundation

/// A directions request for the in-process API: a profile, the coordinates, and the HTTP API's options by name
/// (`alternatives`, `steps`, `exclude`, `language`, `voice_instructions`, `banner_instructions`, `annotations`,
/// `geometries`, `overview`, `bearings`, `approaches`, `radiuses`, `continue_straight`, `waypoints`, `depart_at` ...),
/// with the values and meanings of `/route/v1` (and its Mapbox extensions).
public struct DirectionsQuery: Sendable {
    /// `driving` (or `car`), `truck`, `motorcycle`, `cycling` (or `bicycle`), `walking` (or `foot`), `escooter`.
    public var profile: String
    /// The stops (and silent via points), in order.
    public var coordinates: [Coordinate]
    /// Option names and values, as in the query string of `/route/v1`.
    public var options: [String: String]

    public init(profile: String = "driving", coordinates: [Coordinate], options: [String: String] = [:]) {
        self.profile = profile
        self.coordinates = coordinates
        self.options = options
    }
}

/// The answer of the in-process API: the Directions JSON document `navgraph serve` sends for the same request.
public struct DirectionsDocument: Sendable {
    /// The document, UTF-8 JSON (`code`, `routes`, `waypoints`, `uuid`; OSRM v5 / Mapbox Directions shape).
    public let json: Data
    /// Each route's duration (s) and distance (m), primary first.
    public let routes: [(duration: Double, distance: Double)]
}

extension OSRMService {
    /// Opens a graph file for on-device routing: the file is mapped, not read; sections are checksummed once.
    /// Lifetime: keep one service per graph file for the app's life; it is Sendable and serves any thread.
    public convenience init(graphPath: String, profile: ProfileID = .car, limits: ServiceLimits = ServiceLimits()) throws {
        let graph = try RoutingGraph(path: graphPath, profile: profile)
        self.init(engine: RoutingEngine(graph: graph), limits: limits)
    }

    /// Directions in process, through the same request model and route pipeline as `/route/v1`: the same options,
    /// the same document. Throws `OSRMError` (its `code` is osrm-routed's, its message names the offending value).
    /// Uses the live traffic loaded into `traffic`, if any, unless `options["traffic"] == "false"`.
    public func directions(_ query: DirectionsQuery) throws -> DirectionsDocument {
        let profileID = try OSRMURL.profileID(named: query.profile)
        guard query.coordinates.count >= 2 else {
            throw OSRMError(.invalidValue, "\(query.coordinates.count) coordinates: a route needs at least 2", parameter: "coordinates")
        }
        try OSRMURL.check(query.coordinates, maximum: limits.maximumCoordinates)
        let pairs = query.options.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        do {
            let options = try QueryOptions(pairs, allowed: RouteEndpoint.options, service: "route")
            let parameters = try RouteEndpoint.Parameters(options, coordinateCount: query.coordinates.count,
                                                          maximumAlternatives: limits.maximumAlternatives, profile: profileID)
            let request = DirectionsRequest(url: OSRMURL(service: "route", profile: query.profile, profileID: profileID, coordinates: query.coordinates),
                                            parameters: parameters, usesTraffic: try options.bool("traffic", default: true))
            let result = try routerPool(for: profileID).with { router in try directions(request, router: router) }
            let body = RouteEndpoint.bytes(result.response, parameters, uuid: result.uuid, shape: result.shape)
            return DirectionsDocument(json: body.data, routes: result.response.routes.map { (duration: $0.duration, distance: $0.distance) })
        } catch let error as NavGraphError {
            throw OSRMError(error)
        }
    }
}
