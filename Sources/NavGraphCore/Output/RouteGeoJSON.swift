import Foundation

/// A styled GeoJSON FeatureCollection (RFC 7946) of routes, congestion runs, waypoints and duration labels.
///
/// Every feature has `featureType`: "route" (whole route, drawn as casing), "segment" (a run of equal
/// congestion, toll, ferry and traversed state within a leg), "maneuver" (when steps were built), "waypoint" or "label". Line features carry
/// simplestyle `stroke`, `stroke-width` and `stroke-opacity`; features are ordered bottom to top.
public enum RouteGeoJSON {
    /// The collection as JSON data.
    public static func make(_ response: RouteResponse, _ options: OutputOptions) -> Data {
        featureCollection(response, options).data(pretty: options.prettyPrinted)
    }

    /// With `pointsOnly`, just the waypoint and label points (the text source of the MapLibre style).
    static func featureCollection(_ response: RouteResponse, _ options: OutputOptions, pointsOnly: Bool = false) -> JSON {
        let progress = RouteProgress.make(response, options)
        let currentLeg = progress?.legIndex ?? 0
        var features: [JSON] = []
        // Alternatives below the primary, lower-ranked alternatives lowest.
        for index in response.routes.indices.reversed() where !pointsOnly {
            let route = response.routes[index]
            features.append(summaryFeature(route, index: index, progress: index == 0 ? progress : nil, options))
            let pieces = route.legs.enumerated().map { l, leg in
                CongestionPiece.split(leg, legIndex: l, progress: index == 0 ? progress : nil)
            }
            for (l, legPieces) in pieces.enumerated() {
                for run in CongestionRun.group(legPieces) {
                    features.append(segmentFeature(run, route: route, index: index, leg: l, currentLeg: currentLeg, options.theme))
                }
            }
        }
        if !pointsOnly, let primary = response.routes.first { features += ManeuverFeatures.features(primary, options) }
        for (i, waypoint) in response.waypoints.enumerated() {
            let completed = progress.map { i < $0.waypointCompleted.count && $0.waypointCompleted[i] } ?? false
            features.append(waypointFeature(waypoint, index: i, count: response.waypoints.count, completed: completed, options))
        }
        let labelPoints = LabelPlacement.points(for: response.routes.map(\.coordinates))
        for (index, point) in labelPoints.enumerated() {
            guard let point else { continue }
            features.append(labelFeature(response.routes[index], index: index, at: point, options.units))
        }
        var members: [(String, JSON)] = [("type", .string("FeatureCollection"))]
        if let progress {
            members.append(("offRoute", .bool(progress.isOffRoute)))
            members.append(("distanceFromRoute", .measure(progress.distanceFromRoute)))
        }
        members.append(("features", .array(features)))
        return .object(members)
    }

    /// The name shown on a waypoint marker: the caller's name, else the waypoint's label, else its 1-based number.
    static func waypointName(_ waypoint: RouteWaypoint, index: Int, _ options: OutputOptions) -> String {
        if index < options.waypointNames.count, !options.waypointNames[index].isEmpty { return options.waypointNames[index] }
        if let label = waypoint.label, !label.isEmpty { return label }
        return String(index + 1)
    }

    static func lineString(_ coords: [Coordinate]) -> JSON {
        .object([("type", .string("LineString")), ("coordinates", .array(coords.map(JSON.position)))])
    }

    private static func feature(_ geometry: JSON, _ properties: [(String, JSON)]) -> JSON {
        .object([("type", .string("Feature")), ("geometry", geometry), ("properties", .object(properties))])
    }

    private static func point(_ c: Coordinate) -> JSON {
        .object([("type", .string("Point")), ("coordinates", JSON.position(c))])
    }

    private static func summaryFeature(_ route: Route, index: Int, progress: RouteProgress?, _ options: OutputOptions) -> JSON {
        let theme = options.theme
        let casing = route.isAlternate ? theme.routeAlternateCasingColor : theme.routeCasingColor
        var properties: [(String, JSON)] = [
            ("featureType", .string("route")),
            ("routeIndex", .number(Double(index))),
            ("isAlternateRoute", .bool(route.isAlternate)),
            ("distance", .measure(route.distance)),
            ("duration", .measure(route.duration)),
            ("duration_typical", .measure(route.durationTypical)),
            ("turn_delay_s", .measure(route.turnDelay)),
            ("avoided", .array(route.avoided.map(JSON.string))),
            ("usedAvoidedClasses", .array(route.usedAvoidedClasses.map(JSON.string))),
        ]
        if let c = route.divergeCoordinate { properties.append(("divergeLocation", JSON.position(c))) }
        if let c = route.mergeCoordinate { properties.append(("mergeLocation", JSON.position(c))) }
        if let progress {
            properties += [
                ("offRoute", .bool(progress.isOffRoute)),
                ("distanceFromRoute", .measure(progress.distanceFromRoute)),
                ("distanceRemaining", .measure(progress.distanceRemaining)),
                ("durationRemaining", .measure(progress.durationRemaining)),
            ]
        }
        properties += [
            ("casing", .string(casing)),
            ("stroke", .string(casing)),
            ("stroke-width", .number(theme.baseLineWidth * theme.routeCasingWidthRatio, decimals: 2)),
            ("stroke-opacity", .number(1)),
        ]
        return feature(lineString(route.coordinates), properties)
    }

    private static func segmentFeature(_ run: CongestionRun, route: Route, index: Int, leg: Int, currentLeg: Int, _ theme: RouteTheme) -> JSON {
        let stroke = run.traversed ? theme.traversedRouteColor
            : route.isAlternate ? theme.routeAlternateColor : theme.color(for: run.congestion)
        var properties: [(String, JSON)] = [
            ("featureType", .string("segment")),
            ("routeIndex", .number(Double(index))),
            ("isAlternateRoute", .bool(route.isAlternate)),
            ("legIndex", .number(Double(leg))),
            ("isCurrentLeg", .bool(leg == currentLeg)),
            ("congestion", .string(run.congestion.rawValue)),
            ("congestion_numeric", .int(run.congestionNumeric)),
            ("distance", .measure(run.distance)),
            ("duration", .measure(run.duration)),
            ("isFerry", .bool(run.isFerry)),
            ("isToll", .bool(run.isToll)),
        ]
        if index == 0 { properties.append(("traversed", .bool(run.traversed))) }
        properties += [
            ("stroke", .string(stroke)),
            ("stroke-width", .number(theme.baseLineWidth)),
            ("stroke-opacity", .number(1)),
        ]
        return feature(lineString(run.coordinates), properties)
    }

    private static func waypointFeature(_ waypoint: RouteWaypoint, index: Int, count: Int, completed: Bool, _ options: OutputOptions) -> JSON {
        let role = index == 0 ? "origin" : index == count - 1 ? "destination" : "via"
        return feature(point(waypoint.snapped), [
            ("featureType", .string("waypoint")),
            ("waypointIndex", .number(Double(index))),
            ("name", .string(waypointName(waypoint, index: index, options))),
            ("role", .string(role)),
            ("waypointCompleted", .bool(completed)),
            ("inputLocation", JSON.position(waypoint.input)),
            ("snapDistance", .measure(waypoint.snapDistance)),
            ("roadName", .string(waypoint.roadName)),
            ("marker-color", .string(options.theme.waypointColor)),
        ])
    }

    private static func labelFeature(_ route: Route, index: Int, at point: Coordinate, _ units: DistanceUnits) -> JSON {
        feature(self.point(point), [
            ("featureType", .string("label")),
            ("routeIndex", .number(Double(index))),
            ("isAlternateRoute", .bool(route.isAlternate)),
            ("label", .string(RouteText.duration(route.duration))),
            ("distanceLabel", .string(RouteText.distance(route.distance, units: units))),
            ("duration", .measure(route.duration)),
            ("distance", .measure(route.distance)),
        ])
    }
}
