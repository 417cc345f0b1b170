import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

@Suite struct OutputStyleTests {
    typealias F = OutputFixtures

    func style(_ options: OutputOptions = OutputOptions(position: Coordinate(lat: 52.5, lon: 13.4065))) throws -> [String: Any] {
        try F.object(MapLibreStyle.make(F.response(), options))
    }

    func layers(_ style: [String: Any]) -> [[String: Any]] { style["layers"] as? [[String: Any]] ?? [] }

    @Test func generatedStyleIsValid() throws {
        let s = try style()
        #expect(StyleValidator.validate(s) == [])
        let source = try #require((s["sources"] as? [String: Any])?[MapLibreStyle.sourceName] as? [String: Any])
        #expect((source["data"] as? [String: Any])?["type"] as? String == "FeatureCollection")
    }

    @Test func layersAreOrderedBottomToTop() throws {
        let ids = layers(try style()).compactMap { $0["id"] as? String }
        let expected = ["route-alternate-casing", "route-alternate-line", "route-casing", "route-traversed", "route-line",
                        "route-ferry", "waypoint-circle", "waypoint-name", "route-duration-label"]
        #expect(ids.filter(expected.contains) == expected)
    }

    /// Regression: the traversed overlay was drawn above the whole primary line, so where the route drives a road
    /// again later (Monaco's one-way loops) the road ahead showed the traversed colour instead of its traffic.
    /// The traversed part now lies below, and the congestion line draws only segments not yet traversed.
    @Test func remainingRouteIsDrawnAboveTheTraversedPart() throws {
        let all = layers(try style())
        let ids = all.compactMap { $0["id"] as? String }
        let traversedIndex = try #require(ids.firstIndex(of: "route-traversed"))
        let lineIndex = try #require(ids.firstIndex(of: "route-line"))
        #expect(traversedIndex < lineIndex)
        let filter = try #require(all[lineIndex]["filter"] as? [Any])
        let conditions = filter.dropFirst().compactMap { $0 as? [Any] }
        #expect(conditions.contains { c in
            c.first as? String == "!=" && (c[1] as? [String]) == ["get", "traversed"] && F.bool(c[2]) == true
        })
        // Per feature, exactly one of the two layers applies to a primary segment.
        let features = F.features(try F.object(RouteGeoJSON.make(F.response(), OutputOptions(position: Coordinate(lat: 52.5, lon: 13.4065)))))
        let primary = features.filter { F.featureType($0) == "segment" && F.bool(F.properties($0)["isAlternateRoute"]) == false }
        #expect(primary.contains { F.bool(F.properties($0)["traversed"]) == true })
        #expect(primary.allSatisfy { F.bool(F.properties($0)["traversed"]) != nil })
    }

    /// Regression: with glyphs unreachable (offline, the default public glyph server) MapLibre GL JS 5.3 drops
    /// whole tiles of a source that has a symbol layer, and with them the route lines and waypoint circles.
    /// Text layers now read their own source of point features.
    @Test func textLayersUseTheirOwnPointSource() throws {
        let s = try style()
        let sources = try #require(s["sources"] as? [String: Any])
        let labels = try #require(sources[MapLibreStyle.labelSourceName] as? [String: Any])
        let labelFeatures = F.features(try #require(labels["data"] as? [String: Any]))
        #expect(Set(labelFeatures.compactMap(F.featureType)) == ["waypoint", "label"])
        #expect(labelFeatures.filter { F.featureType($0) == "waypoint" }.count == 3)
        for layer in layers(s) {
            let type = layer["type"] as? String
            if type == "symbol" {
                #expect(layer["source"] as? String == MapLibreStyle.labelSourceName)
            } else if type != "background" {
                #expect(layer["source"] as? String == MapLibreStyle.sourceName)
            }
        }
    }

    @Test func primaryLineUsesThemeColoursAndZoomWidths() throws {
        let line = try #require(layers(try style()).first { $0["id"] as? String == "route-line" })
        let paint = try #require(line["paint"] as? [String: Any])
        let color = try #require(paint["line-color"] as? [Any])
        #expect(color.first as? String == "match")
        let theme = RouteTheme.default
        for level in [CongestionLevel.moderate, .heavy, .severe] {
            let i = try #require(color.firstIndex { $0 as? String == level.rawValue })
            #expect(color[i + 1] as? String == theme.color(for: level))
        }
        let width = try #require(paint["line-width"] as? [Any])
        #expect(width.first as? String == "interpolate")
        #expect((width.count - 3) / 2 == theme.routeLineWidthByZoom.count)
        let casing = try #require(layers(try style()).first { $0["id"] as? String == "route-casing" })
        let casingWidth = try #require((casing["paint"] as? [String: Any])?["line-width"] as? [Any])
        #expect(abs((casingWidth[4] as? Double ?? 0) - 1.3 * (width[4] as? Double ?? 0)) < 0.01)
    }

    /// Each mutation breaks one rule; the validator must name the problem.
    @Test(arguments: [
        ("unknown paint property", "line-colour"),
        ("circle property on a line layer", "circle-radius"),
        ("bad match arity", "match"),
        ("descending interpolate stops", "ascending"),
        ("case without fallback", "case"),
        ("zoom outside interpolate", "zoom"),
        ("bad filter operator", "unknown expression operator"),
        ("bad layer type", "bad type"),
        ("symbol text without glyphs", "glyphs"),
        ("bad colour", "not a valid color"),
        ("missing source", "missing source"),
        ("bad line-cap", "line-cap"),
    ])
    func brokenStylesAreRejected(mutation: String, expectedMessage: String) throws {
        var s = try style()
        var all = layers(s)
        func edit(_ id: String, _ change: (inout [String: Any]) -> Void) {
            guard let i = all.firstIndex(where: { $0["id"] as? String == id }) else { return }
            change(&all[i])
        }
        func editPaint(_ id: String, _ change: @escaping (inout [String: Any]) -> Void) {
            edit(id) { layer in
                var paint = layer["paint"] as? [String: Any] ?? [:]
                change(&paint)
                layer["paint"] = paint
            }
        }
        switch mutation {
        case "unknown paint property": editPaint("route-line") { $0["line-colour"] = "#FF0000" }
        case "circle property on a line layer": editPaint("route-casing") { $0["circle-radius"] = 4 }
        case "bad match arity": editPaint("route-line") { $0["line-color"] = ["match", ["get", "congestion"], "low", "#00FF00"] }
        case "descending interpolate stops":
            editPaint("route-line") { $0["line-width"] = ["interpolate", ["linear"], ["zoom"], 16, 11, 10, 8] }
        case "case without fallback":
            editPaint("waypoint-circle") { $0["circle-opacity"] = ["case", ["==", ["get", "waypointCompleted"], true], 0.5] }
        case "zoom outside interpolate": editPaint("route-casing") { $0["line-width"] = ["*", ["zoom"], 2] }
        case "bad filter operator": edit("route-line") { $0["filter"] = ["equals", ["get", "featureType"], "segment"] }
        case "bad layer type": edit("route-line") { $0["type"] = "polyline" }
        case "symbol text without glyphs": s["glyphs"] = nil
        case "bad colour": editPaint("route-casing") { $0["line-color"] = "blue-ish" }
        case "missing source": edit("route-line") { $0["source"] = "nowhere" }
        case "bad line-cap": edit("route-line") { $0["layout"] = ["line-cap": "pointy"] }
        default: Issue.record("unknown mutation \(mutation)")
        }
        s["layers"] = all
        // Round-trip through JSON so values look exactly like a parsed style file.
        let reparsed = try F.object(JSONSerialization.data(withJSONObject: s))
        let problems = StyleValidator.validate(reparsed)
        #expect(problems.contains { $0.contains(expectedMessage) }, "\(mutation): \(problems)")
    }
}
