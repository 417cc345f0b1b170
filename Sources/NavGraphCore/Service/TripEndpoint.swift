import Foundation

/// `/trip/v1`: a round trip (or a path from the first to the last stop) through every coordinate, ordered by
/// `TripSolver` on the hierarchy's duration matrix (`BucketManyToMany`), with osrm-routed's parameters
/// (`roundtrip`, `source=first|any`, `destination=last|any`, steps, annotations, geometries, overview) and response
/// (`trips`, `waypoints` with `trips_index` and `waypoint_index`).
enum TripEndpoint {
    package static let options: Set<String> = RouteEndpoint.options.subtracting(["alternatives", "continue_straight", "waypoints"])
        .union(["roundtrip", "source", "destination"])

    /// A trip request: where, how to order and what to write.
    package struct Request {
        package var url: OSRMURL
        package var parameters: RouteEndpoint.Parameters
        package var roundtrip = true
        var fixedSource = false
        var fixedDestination = false
        package var usesTraffic = true
    }

    /// Reads a `/trip/v1` query. Like osrm-routed, a trip that is not a round trip must start first and end last.
    package static func request(_ url: OSRMURL, _ query: QueryOptions, limits: ServiceLimits) throws -> Request {
        let count = url.coordinates.count
        guard count >= 2 else { throw OSRMError(.invalidOptions, "a trip needs at least 2 coordinates, got \(count)", parameter: "coordinates") }
        guard count <= limits.maximumTripSize else {
            throw OSRMError(.tooBig, "\(count) coordinates exceed this server's trip limit of \(limits.maximumTripSize)", parameter: "coordinates")
        }
        var request = Request(url: url, parameters: try RouteEndpoint.Parameters(query, coordinateCount: count, maximumAlternatives: 0, profile: url.profileID))
        request.roundtrip = try query.bool("roundtrip", default: true)
        request.fixedSource = try query.choice("source", ["any", "first"], default: "any") == "first"
        request.fixedDestination = try query.choice("destination", ["any", "last"], default: "any") == "last"
        request.usesTraffic = try query.bool("traffic", default: true)
        if !request.roundtrip && !(request.fixedSource && request.fixedDestination) {
            throw OSRMError(.notImplemented, "roundtrip=false is supported with source=first and destination=last only", parameter: "roundtrip")
        }
        return request
    }

    /// The order of the stops (indices into the coordinates) for the request's constraints on a duration matrix.
    package static func order(count: Int, cost: [Double], request: Request) -> [Int] {
        // A path from first to last, or a cycle that must hold the arc last → first: the same path problem (the
        // closing arc's cost is the same for every order).
        if !request.roundtrip || (request.fixedSource && request.fixedDestination) {
            return TripSolver(count: count, cost: cost, roundtrip: false).solve()
        }
        var order = TripSolver(count: count, cost: cost, roundtrip: true).solve()
        if request.fixedDestination, let end = order.firstIndex(of: count - 1) {
            order = Array(order[(end + 1)...] + order[...end])   // rotate so the last stop closes the tour
        }
        return order
    }
}

extension OSRMService {
    /// The trip pipeline: snap, matrix, order, then the route through the stops in that order (closing back to the
    /// first with `roundtrip`) through the shared route pipeline.
    func trip(_ request: TripEndpoint.Request, router: Router) throws -> JSON {
        let snapshot = request.usesTraffic && router.graph.profile.roadSet == .motor ? traffic.snapshot : nil
        let overlay = snapshot?.overlay(departure: request.parameters.departure)
        let coordinates = request.url.coordinates
        let metric = router.engine.metric(avoid: request.parameters.general.exclude, mode: .strict, traffic: overlay, vehicle: request.parameters.vehicle)
        var routeOptions = RouteOptions()
        routeOptions.radius = OSRMService.defaultRadius
        routeOptions.radii = request.parameters.general.radii
        let snaps: [Snap]
        do {
            snaps = try coordinates.indices.map { try router.snap(coordinates[$0], index: $0, options: routeOptions, metric: metric) }
        } catch let error as NavGraphError { throw OSRMError(error) }
        let matrix = BucketManyToMany(router: router, metric: metric, attributes: []).compute(sources: snaps, destinations: snaps)
        let count = coordinates.count
        var cost = [Double](repeating: TripSolver.unreachable, count: count * count)
        for row in 0..<count {
            for column in 0..<count where matrix.cost[row * count + column] != TravelMatrix.unreachable {
                cost[row * count + column] = Double(matrix.cost[row * count + column]) / 1000
            }
        }
        let order = TripEndpoint.order(count: count, cost: cost, request: request)
        let closes = request.roundtrip
        let tourCost = TripSolver(count: count, cost: cost, roundtrip: closes).tourCost(order)
        guard tourCost < TripSolver.unreachable else {
            throw OSRMError(.noTrips, "the \(count) stops are not all reachable from each other (different road network components)")
        }
        let stops = order + (closes ? [order[0]] : [])
        var url = request.url
        url.coordinates = stops.map { coordinates[$0] }
        var parameters = request.parameters
        parameters.general.radii = request.parameters.general.radii.map { radii in stops.map { radii[$0] } }
        parameters.general.bearings = request.parameters.general.bearings.map { bearings in stops.map { bearings[$0] } }
        parameters.general.approaches = request.parameters.general.approaches.map { approaches in stops.map { approaches[$0] } }
        // The order comes from a matrix whose cells each start and end freely, and a stop is a stop: the legs may
        // turn back at it, as the matrix assumed.
        parameters.general.continueStraight = false
        parameters.waypoints = nil
        parameters.general.skipWaypoints = false
        let result = try directions(DirectionsRequest(url: url, parameters: parameters, usesTraffic: request.usesTraffic), router: router)
        let json = RouteEndpoint.body(result.response, parameters, uuid: result.uuid, shape: result.shape)
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($0.element, $0.offset) })
        let waypoints = json.elements("waypoints")
        let tripWaypoints: [JSON] = (0..<count).map { index in
            var waypoint = position[index].flatMap { waypoints[safe: $0] } ?? .object([])
            waypoint.append("waypoint_index", .number(Double(position[index] ?? 0)))
            waypoint.append("trips_index", .number(0))
            return waypoint
        }
        return .object([("code", .string("Ok")), ("trips", .array(json.elements("routes")))]
                       + (request.parameters.general.skipWaypoints ? [] : [("waypoints", .array(tripWaypoints))]))
    }
}
