import Foundation
import NavGraphCore

/// NextBillion's Snap To Roads: `GET /snapToRoads/json?path=lat,lng|...&timestamps=t|...&radiuses=r|...&key=...`,
/// translated into the shared `MatchRequest` and written in the shape of `nextbillion-sdk`'s
/// `SnapToRoadSnapResponse`: `snappedPoints` (location, name, distance, bearing in radians, `originalIndex`), the
/// matched `distance`, the `geometry` of each matching, and `geojson` with `geometry=geojson`.
package enum NextBillionSnapAPI {
    /// Parameters NextBillion defines for this endpoint that navgraph accepts and does not act on.
    package static let acceptedUnused: Set<String> = ["approaches", "option", "road_info", "tolerate_outlier", "interpolate"]
    package static let known: Set<String> = ["path", "timestamps", "radiuses", "mode", "avoid", "geometry"]

    /// Whether the path belongs to this dialect.
    package static func matches(_ path: String) -> Bool { path == "/snapToRoads/json" }

    /// Translates, matches and writes one request.
    package static func answer(_ request: HTTPRequest, service: RoutingService) throws -> HTTPResponse {
        var values: [String: String] = [:]
        for (name, value) in try NextBillionAPI.parameters(request) where !acceptedUnused.contains(name) {
            guard values[name] == nil else { throw OSRMError(.invalidQuery, "option '\(name)' is given twice", parameter: name) }
            values[name] = value
        }
        if let raw = values["interpolate"], raw != "true", raw != "false" {
            throw OSRMError(.invalidQuery, "interpolate='\(raw)' is not true or false", parameter: "interpolate")
        }
        let options = NextBillionAPI.Options(values: values, path: request.path)
        try options.check(known)
        let points = try options.points("path", required: true)
        guard points.count <= service.limits.maximumMatchingSize else {
            throw OSRMError(.tooBig, "\(points.count) points exceed this server's matching limit of \(service.limits.maximumMatchingSize)", parameter: "path")
        }
        let (profileName, profile) = try options.profile()
        var pairs = try options.sharedPairs(count: points.count, profile: profile)
        for name in ["timestamps", "radiuses"] {
            guard let raw = values[name] else { continue }
            let items = raw.split(separator: "|", omittingEmptySubsequences: false)
            // As NextBillion documents: a radius list of another length falls back to the default for every point.
            if name == "radiuses" && items.count != points.count { continue }
            pairs.append((name, items.joined(separator: ";")))
        }
        let geometry = values["geometry"] ?? "polyline6"
        guard ["polyline", "polyline6", "geojson"].contains(geometry) else {
            throw OSRMError(.invalidValue, "geometry='\(geometry)' is not polyline, polyline6 or geojson", parameter: "geometry")
        }
        pairs.append(("geometries", geometry == "polyline" ? "polyline" : "polyline6"))
        pairs.append(("overview", "full"))
        let query = try QueryOptions(pairs, allowed: MatchEndpoint.options, service: "snapToRoads")
        let url = OSRMURL(service: "match", profile: profileName, profileID: profile, coordinates: points)
        let match = try MatchEndpoint.request(url, query, limits: service.limits)
        let answer = try service.routerPool(for: profile).with { router in try service.matching(match, router: router) }
        return .json(body(answer, geojson: geometry == "geojson"))
    }

    /// The SDK's response shape.
    package static func body(_ answer: MatchAnswer, geojson: Bool) -> JSON {
        var snapped: [JSON] = []
        for (index, tracepoint) in answer.tracepoints.enumerated() {
            guard let tracepoint, let place = answer.result.placement[index] else { continue }
            let matching = answer.result.matchings[place.matching]
            let here = matching.snaps[place.index].point
            // Towards the next matched point; the last one looks back at the previous.
            let bearing: Double
            if let next = matching.snaps[safe: place.index + 1]?.point {
                bearing = Bearing.between(here, next)
            } else if let previous = matching.snaps[safe: place.index - 1]?.point {
                bearing = Bearing.between(here, previous)
            } else {
                bearing = 0
            }
            snapped.append(.object([
                ("bearing", .number(bearing * Double.pi / 180, decimals: 4)),
                ("distance", .number(matching.snaps[place.index].distance, decimals: 2)),
                ("location", NextBillionAPI.location(here)),
                ("name", .string(tracepoint.name)),
                ("originalIndex", .number(Double(index))),
            ]))
        }
        let routes = answer.responses.compactMap(\.routes.first)
        var members: [(String, JSON)] = [
            ("status", .string("Ok")),
            ("distance", .number(routes.reduce(0) { $0 + $1.distance }.rounded())),
            ("snappedPoints", .array(snapped)),
            ("geometry", .array(answer.matchings.map { $0.member("geometry") ?? .string("") })),
        ]
        if geojson {
            let coordinates = routes.flatMap(\.coordinates)
            members.append(("geojson", .object([
                ("type", .string("Feature")),
                ("geometry", .object([("type", .string("LineString")), ("coordinates", .array(coordinates.map(JSON.position)))])),
                ("properties", .string("")),
            ])))
        }
        return .object(members)
    }
}
