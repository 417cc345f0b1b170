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
    /// One input point's place in the answer (nil in `tracepoints` for an unmatched point).
    package struct Tracepoint {
        package var alternatives: Int
        package var waypointIndex: Int?
        package var matchingIndex: Int
        package var location: Coordinate
        package var name: String
        package var distance: Double
    }

    package var result: MatchResult
    package var responses: [RouteResponse]
    package var tracepoints: [Tracepoint?]
    /// How the route objects are written (the request's geometry, overview, steps and annotations).
    package var output: OutputOptions
    package var shape: DirectionsShape

    /// Each matching as a Directions route object with its `confidence`, as a tree (NextBillion reads it back).
    package var matchings: [JSON] {
        zip(responses, result.matchings).map { response, matching in
            var tree = JSONTreeBuilder()
            Self.route(response, matching, output, shape, to: &tree)
            return tree.result
        }
    }

    /// osrm-routed's body, written straight to bytes.
    package var osrmBytes: WrittenBytes {
        var stream = JSONStream()
        stream.beginObject()
        stream.member("code", "Ok")
        stream.key("matchings")
        stream.beginArray()
        for (response, matching) in zip(responses, result.matchings) { Self.route(response, matching, output, shape, to: &stream) }
        stream.endArray()
        stream.key("tracepoints")
        stream.beginArray()
        for point in tracepoints { Self.tracepoint(point, to: &stream) }
        stream.endArray()
        stream.endObject()
        return stream.finish()
    }

    private static func route<S: JSONSink & ~Copyable>(_ response: RouteResponse, _ matching: Matching, _ output: OutputOptions,
                                                       _ shape: DirectionsShape, to sink: inout S) {
        if let route = response.routes.first {
            DirectionsResponse.route(route, output, shape, confidence: matching.confidence, to: &sink)
        } else {
            sink.beginObject()
            sink.key("confidence")
            sink.number(matching.confidence, decimals: 4)
            sink.endObject()
        }
    }

    private static func tracepoint<S: JSONSink & ~Copyable>(_ point: Tracepoint?, to sink: inout S) {
        guard let point else { return sink.null() }
        sink.beginObject()
        sink.key("alternatives_count")
        sink.number(Double(point.alternatives))
        sink.key("waypoint_index")
        if let index = point.waypointIndex { sink.number(Double(index)) } else { sink.null() }
        sink.key("matchings_index")
        sink.number(Double(point.matchingIndex))
        sink.key("location")
        sink.position(point.location)
        sink.member("name", point.name)
        sink.member("distance", measure: point.distance)
        sink.endObject()
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
            responses.append(response)
        }
        let tracepoints: [MatchAnswer.Tracepoint?] = request.trace.indices.map { index in
            guard let place = result.placement[index] else { return nil }
            let matching = result.matchings[place.matching]
            let snap = matching.snaps[place.index]
            return MatchAnswer.Tracepoint(alternatives: matching.alternatives[place.index], waypointIndex: waypointIndex[index],
                                          matchingIndex: place.matching, location: snap.point,
                                          name: router.graph.string(router.graph.name(edge: snap.edge, in: names)), distance: snap.distance)
        }
        return MatchAnswer(result: result, responses: responses, tracepoints: tracepoints,
                           output: RouteEndpoint.output(request.parameters, uuid: nil), shape: RouteEndpoint.shape(request.parameters))
    }
}
