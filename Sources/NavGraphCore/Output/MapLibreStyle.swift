import Foundation

/// A self-contained MapLibre GL style (version 8) drawing the route GeoJSON from an inline source.
///
/// Layers bottom to top: background, alternate casing and line, primary casing, traversed part, remaining
/// primary line coloured by congestion (above the traversed part, so a road driven again later in the route
/// shows its traffic), dotted ferry overlay, waypoint circles and names, duration labels.
///
/// Symbol layers read a second source holding only the point features: older MapLibre GL JS releases (5.3 was
/// checked; 5.24 draws missing glyphs locally instead) drop every tile of a source whose glyphs fail to load
/// (offline, or the glyph server down), so lines and circles sharing a source with text vanished with the labels.
public enum MapLibreStyle {
    /// Name of the inline GeoJSON source in the style: every feature of the route GeoJSON.
    public static let sourceName = "navgraph-route"
    /// Name of the inline GeoJSON source for text: only the waypoint and duration-label points.
    public static let labelSourceName = "navgraph-route-labels"

    /// The style as JSON data.
    public static func make(_ response: RouteResponse, _ options: OutputOptions) -> Data {
        json(response, options).data(pretty: options.prettyPrinted)
    }

    package static func json(_ response: RouteResponse, _ options: OutputOptions) -> JSON {
        let view = initialView(response.routes.flatMap(\.coordinates) + response.waypoints.map(\.snapped))
        return .object([
            ("version", .number(8)),
            ("name", .string("navgraph route")),
            ("center", JSON.position(view.center)),
            ("zoom", .number(view.zoom, decimals: 2)),
            ("glyphs", .string(options.glyphsURL)),
            ("sources", .object([
                (sourceName, .object([
                    ("type", .string("geojson")),
                    ("data", RouteGeoJSON.featureCollection(response, options)),
                ])),
                (labelSourceName, .object([
                    ("type", .string("geojson")),
                    ("data", RouteGeoJSON.featureCollection(response, options, pointsOnly: true)),
                ])),
            ])),
            ("layers", .array(layers(options))),
        ])
    }

    package static func layers(_ options: OutputOptions) -> [JSON] {
        let theme = options.theme
        let roundLine: [(String, JSON)] = [("line-cap", .string("round")), ("line-join", .string("round"))]
        let font = JSON.array(options.fontStack.map(JSON.string))
        let completedOpacity = JSON.array([
            .string("case"), equals("waypointCompleted", .bool(true)), .number(theme.waypointCompletedOpacity), .number(1),
        ])
        var congestionColor: [JSON] = [.string("match"), get("congestion")]
        for level in CongestionLevel.allCases where level != .unknown {
            congestionColor += [.string(level.rawValue), .string(theme.color(for: level))]
        }
        congestionColor.append(.string(theme.trafficUnknownColor))

        return [
            layer("background", "background", filter: nil, layout: [], paint: [("background-color", .string("#F8F4F0"))]),
            layer("route-alternate-casing", "line", filter: all(equals("featureType", "route"), equals("isAlternateRoute", .bool(true))),
                  layout: roundLine, paint: [
                      ("line-color", .string(theme.routeAlternateCasingColor)),
                      ("line-width", width(theme, scale: theme.routeCasingWidthRatio)),
                  ]),
            layer("route-alternate-line", "line", filter: all(equals("featureType", "segment"), equals("isAlternateRoute", .bool(true))),
                  layout: roundLine, paint: [
                      ("line-color", .string(theme.routeAlternateColor)),
                      ("line-width", width(theme, scale: 1)),
                  ]),
            layer("route-casing", "line", filter: all(equals("featureType", "route"), equals("isAlternateRoute", .bool(false))),
                  layout: roundLine, paint: [
                      ("line-color", .string(theme.routeCasingColor)),
                      ("line-width", width(theme, scale: theme.routeCasingWidthRatio)),
                  ]),
            layer("route-traversed", "line",
                  filter: all(equals("featureType", "segment"), equals("isAlternateRoute", .bool(false)), equals("traversed", .bool(true))),
                  layout: roundLine, paint: [
                      ("line-color", .string(theme.traversedRouteColor)),
                      ("line-width", width(theme, scale: 1)),
                  ]),
            layer("route-line", "line",
                  filter: all(equals("featureType", "segment"), equals("isAlternateRoute", .bool(false)),
                              .array([.string("!="), get("traversed"), .bool(true)])),
                  layout: roundLine, paint: [
                      ("line-color", .array(congestionColor)),
                      ("line-width", width(theme, scale: 1)),
                  ]),
            layer("route-ferry", "line", filter: all(equals("featureType", "segment"), equals("isFerry", .bool(true))),
                  layout: roundLine, paint: [
                      ("line-color", .string(theme.ferryDashColor)),
                      ("line-width", width(theme, scale: 0.3)),
                      ("line-dasharray", .array([.number(0), .number(1.5)])),
                  ]),
            layer("waypoint-circle", "circle", filter: equals("featureType", "waypoint"), layout: [], paint: [
                ("circle-color", .string(theme.waypointColor)),
                ("circle-radius", .number(theme.waypointRadius)),
                ("circle-stroke-color", .string(theme.waypointStrokeColor)),
                ("circle-stroke-width", .number(theme.waypointStrokeWidth)),
                ("circle-opacity", completedOpacity),
                ("circle-stroke-opacity", completedOpacity),
            ]),
            layer("waypoint-name", "symbol", source: labelSourceName, filter: equals("featureType", "waypoint"), layout: [
                ("text-field", get("name")),
                ("text-font", font),
                ("text-size", .number(theme.waypointTextSize)),
                ("text-allow-overlap", .bool(true)),
                ("text-ignore-placement", .bool(true)),
            ], paint: [
                ("text-color", .string(theme.waypointTextColor)),
                ("text-halo-color", .string(theme.waypointTextHaloColor)),
                ("text-halo-width", .number(theme.waypointTextHaloWidth)),
                ("text-opacity", completedOpacity),
            ]),
            layer("route-duration-label", "symbol", source: labelSourceName, filter: equals("featureType", "label"), layout: [
                ("text-field", get("label")),
                ("text-font", font),
                ("text-size", .number(theme.durationLabelTextSize)),
                ("text-anchor", .string("bottom")),
                ("text-offset", .array([.number(0), .number(-0.8)])),
            ], paint: [
                ("text-color", .string(theme.durationLabelTextColor)),
                ("text-halo-color", .string(theme.durationLabelHaloColor)),
                ("text-halo-width", .number(1.5)),
            ]),
        ]
    }

    private static func layer(_ id: String, _ type: String, source: String = sourceName, filter: JSON?,
                              layout: [(String, JSON)], paint: [(String, JSON)]) -> JSON {
        var members: [(String, JSON)] = [("id", .string(id)), ("type", .string(type))]
        if type != "background" { members.append(("source", .string(source))) }
        if let filter { members.append(("filter", filter)) }
        if !layout.isEmpty { members.append(("layout", .object(layout))) }
        members.append(("paint", .object(paint)))
        return .object(members)
    }

    private static func get(_ key: String) -> JSON { .array([.string("get"), .string(key)]) }
    private static func equals(_ key: String, _ value: String) -> JSON { equals(key, .string(value)) }
    private static func equals(_ key: String, _ value: JSON) -> JSON { .array([.string("=="), get(key), value]) }
    private static func all(_ conditions: JSON...) -> JSON { .array([.string("all")] + conditions) }

    /// Line width interpolated linearly by zoom over the theme's stops, times `scale`.
    private static func width(_ theme: RouteTheme, scale: Double) -> JSON {
        var expression: [JSON] = [.string("interpolate"), .array([.string("linear")]), .array([.string("zoom")])]
        for stop in theme.routeLineWidthByZoom {
            expression += [.number(stop.zoom), .number(stop.value * scale, decimals: 2)]
        }
        return .array(expression)
    }

    /// Centre and zoom that roughly fit the points in a ~800 px viewport.
    private static func initialView(_ points: [Coordinate]) -> (center: Coordinate, zoom: Double) {
        let valid = points.filter(\.isValid)
        guard let first = valid.first else { return (Coordinate(lat: 0, lon: 0), 1) }
        var south = first.lat, north = first.lat, west = first.lon, east = first.lon
        for p in valid {
            south = min(south, p.lat); north = max(north, p.lat)
            west = min(west, p.lon); east = max(east, p.lon)
        }
        let center = Coordinate(lat: (south + north) / 2, lon: (west + east) / 2)
        let span = max(east - west, (north - south) / max(0.1, cos(center.lat * .pi / 180)), 1e-6)
        return (center, min(16, max(1, log2(800 * 360 / (512 * span)))))
    }
}
