import Foundation
import NavGraphCore

/// The MapLibre style of the map page: the road network by class (from `/roads/v1` tiles the page loads into
/// the `navgraph-roads` source) under the route layers of `MapLibreStyle`, built from the same `RouteTheme`
/// as the CLI's `--style`, with empty route sources the page fills from `/geojson/v1`.
package enum MapPageStyle {
    /// Name of the GeoJSON source holding the visible road edges.
    package static let roadSourceName = "navgraph-roads"

    /// Fill and casing colours of a road class on the base map.
    package static func colors(_ roadClass: RoadClass) -> (line: String, casing: String) {
        switch roadClass {
        case .motorway, .motorwayLink: ("#E892A2", "#C24E6B")
        case .trunk, .trunkLink: ("#F9B29C", "#C8775E")
        case .primary, .primaryLink: ("#FCD6A4", "#B98A4B")
        case .secondary, .secondaryLink: ("#F7FABF", "#A3A56C")
        case .tertiary, .tertiaryLink, .unclassified, .residential, .livingStreet: ("#FFFFFF", "#C5BFB6")
        case .service, .track: ("#FFFFFF", "#D4CEC5")
        case .cycleway, .footway, .path, .pedestrian, .steps: ("#FFFFFF", "#D4CEC5")
        case .ferry: ("#6B9BD8", "#6B9BD8")
        }
    }

    /// Line width in pixels at zoom 12 and 18 for a road class.
    package static func widths(_ roadClass: RoadClass) -> (z12: Double, z18: Double) {
        switch roadClass {
        case .motorway, .trunk: (2.5, 18)
        case .primary, .secondary: (2, 16)
        case .motorwayLink, .trunkLink, .primaryLink, .secondaryLink, .tertiary: (1.5, 13)
        case .tertiaryLink, .unclassified, .residential: (1, 11)
        case .livingStreet, .service, .track, .cycleway, .footway, .path, .pedestrian, .steps: (0.5, 6)
        case .ferry: (1, 2)
        }
    }

    /// The whole style; `labels` adds road names (only when a glyph server is known to answer).
    package static func json(_ options: OutputOptions, labels: Bool) -> JSON {
        let empty = JSON.object([("type", .string("FeatureCollection")), ("features", .array([]))])
        func source() -> JSON { .object([("type", .string("geojson")), ("data", empty)]) }
        let routeLayers = MapLibreStyle.layers(options).filter { layer in
            if case .object(let members) = layer { return !members.contains { $0.0 == "type" && $0.1.isString("background") } }
            return true
        }
        var layers: [JSON] = [.object([
            ("id", .string("background")), ("type", .string("background")),
            ("paint", .object([("background-color", .string("#F2EFE9"))])),
        ])]
        let roads = RoadClass.allCases.filter { $0 != .ferry && $0.isMotorClass }
        layers.append(roadLayer("roads-casing", roads, color: { colors($0).casing }, widthScale: 1.4, widthAdd: 1))
        layers.append(roadLayer("roads-line", roads, color: { colors($0).line }, widthScale: 1, widthAdd: 0))
        layers.append(roadLayer("roads-ferry", [.ferry], color: { colors($0).line }, widthScale: 1, widthAdd: 0, dashed: true))
        if labels {
            layers.append(.object([
                ("id", .string("roads-name")), ("type", .string("symbol")), ("source", .string(roadSourceName)),
                ("minzoom", .number(15)),
                ("filter", .array([.string("!="), .array([.string("get"), .string("name")]), .string("")])),
                ("layout", .object([
                    ("symbol-placement", .string("line")),
                    ("text-field", .array([.string("get"), .string("name")])),
                    ("text-font", .array(options.fontStack.map(JSON.string))),
                    ("text-size", .number(11)),
                ])),
                ("paint", .object([
                    ("text-color", .string("#5A5249")), ("text-halo-color", .string("#FFFFFF")), ("text-halo-width", .number(1.2)),
                ])),
            ]))
        }
        layers += routeLayers
        return .object([
            ("version", .number(8)),
            ("name", .string("navgraph map page")),
            ("glyphs", .string(options.glyphsURL)),
            ("sources", .object([
                (roadSourceName, source()),
                (MapLibreStyle.sourceName, source()),
                (MapLibreStyle.labelSourceName, source()),
            ])),
            ("layers", .array(layers)),
        ])
    }

    /// A line layer over the given classes with a per-class `match` colour and zoom-interpolated width.
    private static func roadLayer(_ id: String, _ classes: [RoadClass], color: (RoadClass) -> String,
                                  widthScale: Double, widthAdd: Double, dashed: Bool = false) -> JSON {
        let get = JSON.array([.string("get"), .string("class")])
        var colorMatch: [JSON] = [.string("match"), get]
        var low: [JSON] = [.string("match"), get], high: [JSON] = [.string("match"), get]
        for roadClass in classes {
            colorMatch += [.string(roadClass.osmName), .string(color(roadClass))]
            low += [.string(roadClass.osmName), .number(widths(roadClass).z12 * widthScale + widthAdd, decimals: 2)]
            high += [.string(roadClass.osmName), .number(widths(roadClass).z18 * widthScale + widthAdd, decimals: 2)]
        }
        colorMatch.append(.string("#FFFFFF"))
        low.append(.number(0.5)); high.append(.number(4))
        let width = JSON.array([.string("interpolate"), .array([.string("exponential"), .number(1.5)]), .array([.string("zoom")]),
                                .number(12), .array(low), .number(18), .array(high)])
        var paint: [(String, JSON)] = [("line-color", .array(colorMatch)), ("line-width", width)]
        if dashed { paint.append(("line-dasharray", .array([.number(3), .number(2)]))) }
        return .object([
            ("id", .string(id)), ("type", .string("line")), ("source", .string(roadSourceName)),
            ("filter", .array([.string("match"), get, .array(classes.map { .string($0.osmName) }), .bool(true), .bool(false)])),
            ("layout", .object([("line-cap", .string(dashed ? "butt" : "round")), ("line-join", .string("round"))])),
            ("paint", .object(paint)),
        ])
    }
}

extension JSON {
    /// Whether this is the string `text`.
    package func isString(_ text: String) -> Bool {
        if case .string(let value) = self { return value == text }
        return false
    }
}
