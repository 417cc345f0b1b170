import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

@Suite struct OutputThemeTests {
    typealias F = OutputFixtures

    func writeTheme(_ json: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("navgraph-theme-\(UUID().uuidString).json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func loadError(_ json: String) throws -> String {
        let path = try writeTheme(json)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try RouteTheme.load(path: path)
            return ""
        } catch let error as NavGraphError {
            return error.message
        }
    }

    @Test func themeFileChangesColoursAndWidths() throws {
        let path = try writeTheme("""
            {"trafficHeavyColor": "#123456", "routeAlternateColor": "#ABC", "routeLineWidthByZoom": {"5": 2, "15": 6}}
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let theme = try RouteTheme.load(path: path)
        #expect(theme.trafficHeavyColor == "#123456")
        #expect(theme.trafficLowColor == RouteTheme.default.trafficLowColor)
        #expect(theme.routeLineWidthByZoom == [ZoomStop(zoom: 5, value: 2), ZoomStop(zoom: 15, value: 6)])

        let options = OutputOptions(theme: theme)
        let segments = F.features(try F.object(RouteGeoJSON.make(F.response(), options))).filter { F.featureType($0) == "segment" }
        let strokes = Set(segments.map { F.properties($0)["stroke"] as? String ?? "" })
        #expect(strokes.contains("#123456") && strokes.contains("#ABC"))
        #expect(!strokes.contains(RouteTheme.default.trafficHeavyColor))
        #expect(segments.allSatisfy { F.properties($0)["stroke-width"] as? Double == 2 })

        let style = try F.object(MapLibreStyle.make(F.response(), options))
        let line = (style["layers"] as? [[String: Any]])?.first { $0["id"] as? String == "route-line" }
        let color = (line?["paint"] as? [String: Any])?["line-color"] as? [Any] ?? []
        #expect(color.contains { $0 as? String == "#123456" })
        #expect(StyleValidator.validate(style) == [])
    }

    @Test(arguments: [
        (##"{"trafficHeavyColour": "#123456"}"##, "trafficHeavyColour"),
        (##"{"routeCasingColor": "blue"}"##, "routeCasingColor"),
        (##"{"routeCasingColor": "#12345G"}"##, "routeCasingColor"),
        (##"{"waypointColor": 3}"##, "waypointColor"),
        (##"{"waypointRadius": "10"}"##, "waypointRadius"),
        (##"{"waypointRadius": true}"##, "waypointRadius"),
        (##"{"routeLineWidthByZoom": {"far": 3}}"##, "routeLineWidthByZoom"),
        (##"{"routeLineWidthByZoom": [8, 9]}"##, "routeLineWidthByZoom"),
        (##"["#123456"]"##, "object"),
    ])
    func badThemesNameTheKey(json: String, key: String) throws {
        let message = try loadError(json)
        #expect(message.contains(key), "\(message)")
    }

    /// Regression: the default traversed colour was the low/unknown congestion blue, so a rendered route showed
    /// no difference between where the vehicle has been and the free-flowing road ahead.
    @Test func defaultTraversedColourStandsApartFromCongestionColours() {
        let theme = RouteTheme.default
        for level in CongestionLevel.allCases {
            #expect(theme.traversedRouteColor.uppercased() != theme.color(for: level).uppercased(), "\(level)")
        }
        #expect(theme.traversedRouteColor.uppercased() != theme.routeAlternateColor.uppercased())
    }

    @Test func missingFileIsAnError() {
        #expect(throws: NavGraphError.self) { try RouteTheme.load(path: "/nonexistent/theme.json") }
    }
}
