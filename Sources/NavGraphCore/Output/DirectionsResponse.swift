import Foundation

/// A Directions-API response (OSRM / Mapbox shape) with per-segment annotations.
public enum DirectionsResponse {
    /// `{"code": "Ok", "waypoints": [...], "routes": [...]}`; geometry as `options.geometry` says.
    public static func make(_ response: RouteResponse, _ options: OutputOptions) -> Data {
        json(response, options).data(pretty: options.prettyPrinted)
    }

    package static func json(_ response: RouteResponse, _ options: OutputOptions) -> JSON {
        .object([
            ("code", .string("Ok")),
            ("uuid", .string(options.responseID ?? UUID().uuidString.lowercased())),
            ("waypoints", .array(response.waypoints.map(waypoint))),
            ("routes", .array(response.routes.map { route($0, options) })),
        ])
    }

    /// The failure body of the Directions API: `{"code": "NoRoute"|"NoSegment"|"InvalidInput"|..., "message": ...}`.
    public static func failure(_ error: NavGraphError, pretty: Bool = true) -> Data {
        let code: String
        switch error.code {
        case .noRoute: code = "NoRoute"
        case .noSegment: code = "NoSegment"
        case .tooBig: code = "TooBig"
        case .invalidInput, .badFile: code = "InvalidInput"
        case .ioFailure: code = "IOFailure"
        }
        return JSON.object([("code", .string(code)), ("message", .string(error.message))]).data(pretty: pretty)
    }

    /// The geometry in the requested format: an encoded polyline string or a GeoJSON LineString.
    package static func geometry(_ coords: [Coordinate], _ format: GeometryFormat) -> JSON {
        switch format {
        case .polyline6: .string(Polyline.encode(coords, precision: 6))
        case .polyline: .string(Polyline.encode(coords, precision: 5))
        case .geojson: RouteGeoJSON.lineString(coords)
        }
    }

    private static func route(_ route: Route, _ options: OutputOptions) -> JSON {
        var members: [(String, JSON)] = [
            ("distance", .measure(route.distance)),
            ("duration", .measure(route.duration)),
            ("duration_typical", .measure(route.durationTypical)),
            ("weight", .measure(route.weight)),
            ("weight_name", .string("duration")),
            ("geometry", geometry(route.coordinates, options.geometry)),
            ("legs", .array(route.legs.map { leg($0, options) })),
        ]
        if let narrator = options.narrator { members.append(("voiceLocale", .string(narrator.voiceLocale))) }
        return .object(members)
    }

    private static func leg(_ leg: RouteLeg, _ options: OutputOptions) -> JSON {
        // Exactly one entry per coordinate pair, as clients index annotations by segment.
        let a: [SegmentAnnotation?] = (0..<max(0, leg.coordinates.count - 1)).map {
            leg.annotations.indices.contains($0) ? leg.annotations[$0] : nil
        }
        var members: [(String, JSON)] = [
            ("distance", .measure(leg.distance)),
            ("duration", .measure(leg.duration)),
            ("duration_typical", .measure(leg.durationTypical)),
            ("turn_delay_s", .measure(leg.turnDelay)),
            ("weight", .measure(leg.weight)),
            ("summary", .string(leg.summary)),
            ("steps", .array(steps(leg, options))),
            ("annotation", .object([
                ("distance", .array(a.map { $0.map { .measure($0.distance) } ?? .null })),
                ("duration", .array(a.map { $0.map { .measure($0.duration) } ?? .null })),
                ("speed", .array(a.map { $0.map { .measure($0.speed) } ?? .null })),
                ("congestion", .array(a.map { .string(($0?.congestion ?? .unknown).rawValue) })),
                ("congestion_numeric", .array(a.map { .int($0?.congestionNumeric) })),
                ("maxspeed", .array(a.map { maxspeed($0?.maxspeed ?? 0) })),
            ])),
        ]
        if !leg.viaWaypoints.isEmpty {
            // Mapbox's silent waypoints: the coordinate's index, metres from the leg's start, its geometry index.
            members.append(("via_waypoints", .array(leg.viaWaypoints.map { via in
                .object([("waypoint_index", .number(Double(via.coordinateIndex))), ("distance_from_start", .measure(via.distanceFromStart)),
                         ("geometry_index", .number(Double(via.geometryIndex)))])
            })))
        }
        return .object(members)
    }

    /// A waypoint of the response: the road's name, the snapped location and the snapping distance.
    package static func waypoint(_ w: RouteWaypoint) -> JSON {
        .object([("name", .string(w.roadName)), ("location", JSON.position(w.snapped)), ("distance", .measure(w.snapDistance))])
    }
}
