import Foundation

/// One map-matching request in the shared model, whatever dialect it came in (OSRM `/match/v1`, Mapbox
/// `/matching/v5`, NextBillion `/snapToRoads/json`): the trace, the matcher's options and the route output options.
package struct MatchRequest {
    /// Profile and coordinates in the OSRM form.
    package var url: OSRMURL
    /// Steps, annotations, geometry, overview, waypoints, radiuses (as σ), language ...
    package var parameters: RouteEndpoint.Parameters
    package var trace: [TracePoint]
    package var options: MatchOptions
    /// Match with the live traffic when the server has some.
    package var usesTraffic = true
}

/// `/match/v1`: osrm-routed's parameters (`timestamps`, `radiuses`, `gaps`, `tidy`, `waypoints`, `steps`,
/// `annotations`, `geometries`, `overview`) read into a `MatchRequest`, and the response with `matchings` (each with
/// `confidence`) and `tracepoints`.
package enum MatchEndpoint {
    package static let options: Set<String> = RouteEndpoint.options.subtracting(["alternatives", "continue_straight", "depart_at"])
        .union(["timestamps", "gaps", "tidy"])

    /// The OSRM translator: the query of a `/match/v1` URL.
    package static func request(_ url: OSRMURL, _ query: QueryOptions, limits: ServiceLimits) throws -> MatchRequest {
        let count = url.coordinates.count
        guard count >= 2 else {
            throw OSRMError(.invalidOptions, "a trace needs at least 2 coordinates, got \(count)", parameter: "coordinates")
        }
        guard count <= limits.maximumMatchingSize else {
            throw OSRMError(.tooBig, "\(count) coordinates exceed this server's matching limit of \(limits.maximumMatchingSize)", parameter: "coordinates")
        }
        let parameters = try RouteEndpoint.Parameters(query, coordinateCount: count, maximumAlternatives: 0, profile: url.profileID)
        let timestamps = try query.perCoordinate("timestamps", count: count) { item -> Double in
            guard let value = Double(item), value.isFinite, value >= 0 else {
                throw OSRMError(.invalidValue, "timestamps: '\(item)' is not a number of seconds", parameter: "timestamps")
            }
            return value
        }
        var options = MatchOptions()
        options.splitGaps = try query.choice("gaps", ["split", "ignore"], default: "split") == "split"
        options.tidy = try query.bool("tidy", default: false)
        options.avoid = parameters.general.exclude
        options.vehicle = parameters.vehicle
        return MatchRequest(url: url, parameters: parameters,
                            trace: try trace(url.coordinates, timestamps: timestamps, sigmas: parameters.general.radii), options: options,
                            usesTraffic: try query.bool("traffic", default: true))
    }

    /// The trace points, with timestamps checked to be given for all points or none and never to decrease.
    package static func trace(_ coordinates: [Coordinate], timestamps: [Double?]?, sigmas: [Double?]?) throws -> [TracePoint] {
        if let timestamps {
            guard timestamps.allSatisfy({ $0 != nil }) else {
                throw OSRMError(.invalidOptions, "timestamps: every coordinate needs one", parameter: "timestamps")
            }
            for index in 1..<timestamps.count {
                if let a = timestamps[index - 1], let b = timestamps[index], b < a {
                    throw OSRMError(.invalidValue, String(format: "timestamps: %.0f at index %d is before %.0f at index %d (they must not decrease)", b, index, a, index - 1),
                                    parameter: "timestamps")
                }
            }
        }
        for (index, point) in coordinates.enumerated() where !point.isValid {
            throw OSRMError(.invalidValue, "coordinate \(index) (\(point.lon),\(point.lat)) is not a valid coordinate", parameter: "coordinates")
        }
        return coordinates.enumerated().map { index, coordinate in
            TracePoint(coordinate: coordinate, timestamp: timestamps?[index] ?? nil, sigma: sigmas?[index] ?? nil)
        }
    }
}

/// A matched trace ready for a dialect's writer: the matcher's result and, per matching, its route response.
package struct MatchAnswer {
    package var result: MatchResult
    package var responses: [RouteResponse]
    /// Each matching as a Directions route object (with `confidence`), and the OSRM tracepoints.
    package var matchings: [JSON]
    package var tracepoints: [JSON]

    /// osrm-routed's body.
    package var osrmJSON: JSON {
        .object([("code", .string("Ok")), ("matchings", .array(matchings)), ("tracepoints", .array(tracepoints))])
    }
}

extension OSRMService {
    /// The match pipeline every dialect shares: the matcher, then each matching through the route pipeline's leg,
    /// guidance and annotation code. A trace matching nowhere is `NoMatch`.
    package func matching(_ request: MatchRequest, router: Router) throws -> MatchAnswer {
        var options = request.options
        let snapshot = request.usesTraffic && router.graph.profile.roadSet == .motor ? traffic.snapshot : nil
        options.traffic = snapshot?.overlay(departure: nil)
        let matcher = MapMatcher(router: router, options: options)
        let result = matcher.match(request.trace)
        guard !result.matchings.isEmpty else {
            throw OSRMError(.noMatch, "no stretch of the \(request.trace.count) points could be matched to a road (radiuses \(request.parameters.general.radii == nil ? "default" : "as given"))")
        }
        let names = router.graph.nameLanguage(for: request.parameters.language)
        var responses: [RouteResponse] = []
        var matchings: [JSON] = []
        let wanted = Set(request.parameters.waypoints ?? Array(request.trace.indices))
        var waypointIndex = [Int?](repeating: nil, count: request.trace.count)
        for matching in result.matchings {
            let legs = matching.paths.map { router.buildLeg($0, metric: result.metric, names: names) }
            var response = RouteResponse(
                waypoints: zip(matching.pointIndices, matching.snaps).map { index, snap in
                    RouteWaypoint(input: request.trace[index].coordinate, snapped: snap.point, snapDistance: snap.distance,
                                  roadName: router.graph.string(router.graph.name(edge: snap.edge, in: names)), label: nil)
                },
                routes: [Route(legs: legs, isAlternate: false, avoided: options.avoid.listed, usedAvoidedClasses: [])])
            response.snaps = matching.snaps
            // Waypoints: the requested ones this matching holds, and always its ends.
            let keep = matching.pointIndices.indices.filter { position in
                position == 0 || position == matching.pointIndices.count - 1 || wanted.contains(matching.pointIndices[position])
            }
            for (order, position) in keep.enumerated() { waypointIndex[matching.pointIndices[position]] = order }
            if keep.count < matching.pointIndices.count { response = RouteEndpoint.mergingVias(response, keep: keep) }
            if request.parameters.steps { router.addSteps(to: &response) }
            var route = RouteEndpoint.body(response, request.parameters).elements("routes").first ?? .object([])
            route.append("confidence", .number(matching.confidence, decimals: 4))
            matchings.append(route)
            responses.append(response)
        }
        let tracepoints: [JSON] = request.trace.indices.map { index in
            guard let place = result.placement[index] else { return .null }
            let matching = result.matchings[place.matching]
            let snap = matching.snaps[place.index]
            return .object([
                ("alternatives_count", .number(Double(matching.alternatives[place.index]))),
                ("waypoint_index", waypointIndex[index].map { .number(Double($0)) } ?? .null),
                ("matchings_index", .number(Double(place.matching))),
                ("location", JSON.position(snap.point)),
                ("name", .string(router.graph.string(router.graph.name(edge: snap.edge, in: names)))),
                ("distance", .measure(snap.distance)),
            ])
        }
        return MatchAnswer(result: result, responses: responses, matchings: matchings, tracepoints: tracepoints)
    }
}
