import Foundation
import NavGraphCore

/// `GET /directions-refresh/v1/{owner}/{profile}/{uuid}/{route_index}/{leg_index}[?current_route_geometry_index=N]`:
/// the annotations (congestion, duration, speed, maxspeed, ...) of a route issued with `enable_refresh=true`,
/// recomputed under the traffic in force now, in Mapbox's refresh shape (`{"code": "Ok", "route": {"legs": [...]}}`,
/// from `leg_index` on, the first leg's arrays starting at the route geometry index given).
package enum RouteRefreshAPI {
    package static let options: Set<String> = ["current_route_geometry_index"]

    /// Whether the path belongs to this endpoint.
    package static func matches(_ path: String) -> Bool { path.hasPrefix("/directions-refresh/v1/") }

    package static func answer(_ request: HTTPRequest, service: RoutingService) throws -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            throw OSRMError(.invalidUrl, "method \(request.method) is not supported on \(request.path) (use GET)")
        }
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 8, parts[3...].allSatisfy({ !$0.isEmpty }) else {
            throw OSRMError(.invalidUrl, "URL '\(request.path)' is not /directions-refresh/v1/{owner}/{profile}/{uuid}/{route_index}/{leg_index}")
        }
        let uuid = parts[5]
        guard let routeIndex = Int(parts[6]), routeIndex >= 0 else {
            throw OSRMError(.invalidValue, "route_index '\(parts[6])' is not an index", parameter: "route_index")
        }
        guard let legIndex = Int(parts[7]), legIndex >= 0 else {
            throw OSRMError(.invalidValue, "leg_index '\(parts[7])' is not an index", parameter: "leg_index")
        }
        let query = try QueryOptions(request.query, allowed: options, service: "directions-refresh")
        let geometryIndex = try query["current_route_geometry_index"].map { _ in
            try query.integer("current_route_geometry_index", default: 0, range: 0...Int(Int32.max))
        }
        let cache = service.refreshCache
        guard let entry = cache.routes(uuid) else {
            throw OSRMError(.routeNotFound, "route '\(uuid)' is unknown or expired (this server keeps \(cache.capacity) refreshable responses for \(Int(cache.maximumAge)) s; ask for them with enable_refresh=true)",
                            parameter: "uuid")
        }
        guard let paths = entry.routes[safe: routeIndex] else {
            throw OSRMError(.invalidValue, "route_index \(routeIndex) is out of range (the response had \(entry.routes.count) routes)", parameter: "route_index")
        }
        let legs = try service.refreshedLegs(entry, paths: paths)
        guard legIndex < legs.count else {
            throw OSRMError(.invalidValue, "leg_index \(legIndex) is out of range (the route has \(legs.count) legs)", parameter: "leg_index")
        }
        // Segments before each leg in the route geometry (legs share their joining coordinate).
        var legStart = 0
        for leg in legs[..<legIndex] { legStart += leg.segments }
        var shapeIndex = 0
        if let geometryIndex {
            shapeIndex = geometryIndex - legStart
            guard shapeIndex >= 0, shapeIndex < max(1, legs[legIndex].segments) else {
                throw OSRMError(.invalidValue, "current_route_geometry_index \(geometryIndex) is not on leg \(legIndex) (route geometry indices \(legStart)...\(legStart + max(0, legs[legIndex].segments - 1)))",
                                parameter: "current_route_geometry_index")
            }
        }
        let refreshed = legs[legIndex...].enumerated().map { offset, leg in
            offset == 0 && shapeIndex > 0 ? leg.json.droppingAnnotations(first: shapeIndex) : leg.json
        }
        return .json(.object([("code", .string("Ok")), ("route", .object([("legs", .array(refreshed))]))]))
    }
}

extension RoutingService {
    /// One refreshed leg: its JSON (`annotation`, and `closures` when asked for) and its segment count.
    package struct RefreshedLeg {
        package var json: JSON
        package var segments: Int
    }

    /// A kept route's legs rebuilt along the same paths under the traffic in force now, merged at silent via points
    /// as the original response was.
    package func refreshedLegs(_ entry: RefreshableRoutes, paths: [Router.LegPath]) throws -> [RefreshedLeg] {
        var parameters = entry.parameters
        parameters.steps = false
        parameters.overview = "false"
        if parameters.annotations.isEmpty { parameters.annotations = ["duration", "speed", "congestion", "congestion_numeric", "maxspeed"] }
        let answer = try routerPool(for: entry.profile).with { router -> JSON in
            let snapshot: LiveTraffic.Snapshot? = entry.usesTraffic && router.graph.profile.roadSet == RoadSet.motor ? traffic.snapshot : nil
            let metric = router.engine.metric(avoid: parameters.general.exclude, mode: .strict,
                                              traffic: snapshot?.overlay(departure: parameters.departure), vehicle: parameters.vehicle)
            let names = router.graph.nameLanguage(for: parameters.language)
            let legs = paths.map { router.buildLeg($0, metric: metric, names: names) }
            var response = RouteResponse(
                waypoints: (paths.map(\.source) + paths.suffix(1).map(\.target)).map {
                    RouteWaypoint(input: $0.point, snapped: $0.point, snapDistance: $0.distance, roadName: "", label: nil)
                },
                routes: [Route(legs: legs, isAlternate: false, avoided: [], usedAvoidedClasses: [])])
            if let keep = parameters.waypoints { response = RouteEndpoint.mergingVias(response, keep: keep) }
            return RouteEndpoint.body(response, parameters)
        }
        let legs = answer.elements("routes").first?.elements("legs") ?? []
        return legs.map { leg in
            let segments = leg.member("annotation")?.firstArrayCount ?? 0
            let json = MapboxDirectionsAPI.addOwnAnnotations(.object(leg.member("annotation").map { [("annotation", $0)] } ?? []),
                                                             closures: entry.dialectAnnotations.contains("closure"),
                                                             trafficTendency: entry.dialectAnnotations.contains("traffic_tendency"), segments: segments)
            return RefreshedLeg(json: json, segments: segments)
        }
    }
}

extension JSON {
    /// A leg whose annotation arrays start `count` segments later.
    package func droppingAnnotations(first count: Int) -> JSON {
        var leg = self
        leg.update("annotation") { annotation in
            guard case .object(let members) = annotation else { return annotation }
            return .object(members.map { key, value in
                guard case .array(let items) = value else { return (key, value) }
                return (key, .array(Array(items.dropFirst(count))))
            })
        }
        return leg
    }
}
