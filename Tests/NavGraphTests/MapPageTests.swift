import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// The map page's endpoints without a browser: road tiles, page files, the style built from the theme, `/info`
/// and the `traffic=false` toggle, through `RoutingService.handle` on the monaco extract.
@Suite struct MapPageTests {
    static let assets = FileManager.default.temporaryDirectory.appendingPathComponent("navgraph-map-page-assets-\(getpid())")

    static func service(theme: RouteTheme = .default, maximumFeatures: Int? = nil) throws -> (RoutingService, RoutingGraph) {
        let graph = try Fixtures.graph("monaco")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        let page = MapPage(graph: graph, assetsDirectory: assets, theme: theme)
        return (RoutingService(engine: RoutingEngine(graph: graph), mapPage: page), graph)
    }

    static func get(_ service: RoutingService, _ target: String) -> (status: Int, type: String, json: Any?, body: Data) {
        let response = service.handle(HTTPRequest(method: "GET", target: target))
        return (response.status, response.contentType, try? JSONSerialization.jsonObject(with: response.body), response.body)
    }

    /// Tile x/y of a point at zoom z (web mercator), written out here from the slippy-map formulas.
    static func tile(_ c: Coordinate, zoom z: Int) -> (x: Int, y: Int) {
        let n = Double(1 << z), lat = c.lat * Double.pi / 180
        return (Int((c.lon + 180) / 360 * n), Int((1 - log(tan(lat) + 1 / cos(lat)) / Double.pi) / 2 * n))
    }

    @Test func streetTileHoldsEveryEdgeWithAShapePointInside() throws {
        let (service, graph) = try Self.service()
        let center = Coordinate(lat: 43.7384, lon: 7.4246)
        let (x, y) = Self.tile(center, zoom: 16)
        let answer = Self.get(service, "/roads/v1/16/\(x)/\(y)")
        #expect(answer.status == 200 && answer.type == "application/geo+json")
        let features = try #require((answer.json as? [String: Any])?["features"] as? [[String: Any]])
        let ids = Set(features.compactMap { $0["id"] as? Int })
        // Independent count: every edge with a shape point in the tile's bounds (computed from the tile formula).
        var expected = Set<Int>()
        for edge in 0..<graph.edgeCount {
            for point in Int(graph.edgeShapeFirst[edge])..<Int(graph.edgeShapeFirst[edge + 1]) {
                let t = Self.tile(graph.coordinate(shapePoint: point), zoom: 16)
                if t.x == x && t.y == y { expected.insert(edge); break }
            }
        }
        #expect(!expected.isEmpty)
        #expect(expected.isSubset(of: ids), "missing edges: \(expected.subtracting(ids).sorted().prefix(10))")
        let classes = Set(RoadClass.allCases.map(\.osmName))
        for feature in features {
            let properties = feature["properties"] as? [String: Any]
            #expect(classes.contains(properties?["class"] as? String ?? ""))
        }
    }

    @Test func lowZoomTilesKeepMainRoadsOnlyAndSimplify() throws {
        let (service, graph) = try Self.service()
        let (x, y) = Self.tile(Coordinate(lat: 43.7384, lon: 7.4246), zoom: 10)
        let features = try #require((Self.get(service, "/roads/v1/10/\(x)/\(y)").json as? [String: Any])?["features"] as? [[String: Any]])
        #expect(!features.isEmpty)
        var points = 0
        for feature in features {
            let properties = feature["properties"] as? [String: Any]
            let name = properties?["class"] as? String ?? ""
            let roadClass = try #require(RoadClass.allCases.first { $0.osmName == name })
            #expect(RoadTiles.minimumZoom(roadClass) <= 10, "class \(name) drawn at zoom 10")
            let coordinates = (feature["geometry"] as? [String: Any])?["coordinates"] as? [Any] ?? []
            #expect(coordinates.count >= 2)
            points += coordinates.count
        }
        // Simplified: fewer points than the same edges' full shapes.
        let full = features.compactMap { $0["id"] as? Int }.reduce(0) { $0 + Int(graph.edgeShapeFirst[$1 + 1] - graph.edgeShapeFirst[$1]) }
        #expect(points < full, "\(points) points drawn of \(full)")
    }

    @Test func tilesAreBoundedAndKeepTheMostImportantClasses() throws {
        let graph = try Fixtures.graph("monaco")
        let roads = RoadTiles(graph: graph, maximumFeatures: 25)
        let (x, y) = Self.tile(Coordinate(lat: 43.7384, lon: 7.4246), zoom: 14)
        let full = RoadTiles(graph: graph).edges(z: 14, x: x, y: y)
        let bounded = roads.edges(z: 14, x: x, y: y)
        #expect(full.edges.count > 25 && full.truncated == false)
        #expect(bounded.edges.count == 25 && bounded.truncated == true)
        let worstKept = bounded.edges.map { graph.edgeClass[$0] }.max() ?? 0
        let dropped = Set(full.edges).subtracting(bounded.edges)
        #expect(dropped.count == full.edges.count - 25)
        #expect(dropped.allSatisfy { graph.edgeClass[$0] >= worstKept })
    }

    @Test func badTilesAndPathsAreRefusedWithTheirValue() throws {
        let (service, _) = try Self.service()
        let zoom = Self.get(service, "/roads/v1/23/0/0")
        #expect(zoom.status == 400 && String(decoding: zoom.body, as: UTF8.self).contains("zoom '23'"))
        let x = Self.get(service, "/roads/v1/2/4/0")
        #expect(x.status == 400 && String(decoding: x.body, as: UTF8.self).contains("x '4'"))
        for path in ["/web/../../Package.swift", "/web/.hidden", "/assets/%2e%2e/x", "/fonts/../../etc/passwd/0-255.pbf", "/assets/maplibre-gl.js"] {
            #expect(Self.get(service, path).status == 404, "\(path)")
        }
    }

    @Test func pageAndInfoAreServed() throws {
        let (service, graph) = try Self.service()
        let page = Self.get(service, "/")
        #expect(page.status == 200 && page.type.hasPrefix("text/html"))
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains("/assets/maplibre-gl.js") && html.contains("/web/map.js"))
        #expect(!html.contains("http://") && !html.contains("https://"), "the page loads nothing from another host")
        #expect(Self.get(service, "/web/map.js").type.hasPrefix("text/javascript"))
        let info = try #require(Self.get(service, "/info").json as? [String: Any])
        #expect(info["traffic"] as? Bool == false)
        #expect((info["missing"] as? [String])?.contains { $0.hasSuffix("maplibre-gl.js") } == true)
        let bounds = try #require(info["bounds"] as? [Double])
        let c = graph.coordinate(shapePoint: 0)
        #expect(bounds.count == 4 && bounds[0] <= c.lon && c.lon <= bounds[2] && bounds[1] <= c.lat && c.lat <= bounds[3])
    }

    @Test func styleTakesTheRouteColoursFromTheTheme() throws {
        var theme = RouteTheme()
        theme.trafficHeavyColor = "#123456"
        theme.routeCasingColor = "#654321"
        let (service, _) = try Self.service(theme: theme)
        let style = try #require(Self.get(service, "/map/v1/style.json").json as? [String: Any])
        #expect(style["glyphs"] as? String == "/fonts/{fontstack}/{range}.pbf")
        let layers = try #require(style["layers"] as? [[String: Any]])
        let ids = layers.compactMap { $0["id"] as? String }
        for id in ["roads-casing", "roads-line", "route-alternate-casing", "route-casing", "route-traversed", "route-line", "waypoint-circle"] {
            #expect(ids.contains(id), "layer \(id)")
        }
        #expect(ids.firstIndex(of: "roads-line") ?? 99 < ids.firstIndex(of: "route-casing") ?? 0, "roads under the route")
        let text = String(decoding: Self.get(service, "/map/v1/style.json").body, as: UTF8.self)
        #expect(text.contains("#123456") && text.contains("#654321"))
        let sources = try #require(style["sources"] as? [String: Any])
        #expect(Set(sources.keys) == ["navgraph-roads", "navgraph-route", "navgraph-route-labels"])
    }

    @Test func routeStyleTakesTheGlyphsOption() throws {
        _ = try Fixtures.graph("monaco")
        let graph = Fixtures.workDirectory.appendingPathComponent("monaco.navgraph").path
        // In a folder of its own: CommandLineTests look for temporary files at the top of the work directory.
        let folder = Fixtures.workDirectory.appendingPathComponent("map-page-glyphs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let style = folder.appendingPathComponent("glyphs-style.json").path
        let url = "http://127.0.0.1:5000/fonts/{fontstack}/{range}.pbf"
        let ok = try Fixtures.run(["route", graph, "43.7384,7.4246", "43.7311,7.4197", "--style", style, "--glyphs", url])
        #expect(ok.status == 0, "\(ok.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: style))) as? [String: Any]
        #expect(json?["glyphs"] as? String == url)
        let bad = folder.appendingPathComponent("glyphs-bad.json").path
        let refused = try Fixtures.run(["route", graph, "43.7384,7.4246", "43.7311,7.4197", "--style", bad, "--glyphs", "http://x/"])
        #expect(refused.status == 2 && refused.stderr.contains("--glyphs: 'http://x/'"))
        #expect(!FileManager.default.fileExists(atPath: bad))
    }

    @Test func trafficFalseRoutesOnFreeFlow() throws {
        let (service, graph) = try Self.service()
        let csv = try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("Data/monaco-traffic.csv"))
        _ = try service.traffic.load(csv: csv, engine: service.engine)
        let plain = RoutingService(engine: RoutingEngine(graph: graph))
        let path = "/route/v1/driving/7.4246,43.7384;7.4268,43.7402;7.4197,43.7311?overview=false"
        func duration(_ s: RoutingService, _ target: String) throws -> Double {
            let json = try #require(Self.get(s, target).json as? [String: Any])
            return try #require((json["routes"] as? [[String: Any]])?.first?["duration"] as? Double)
        }
        let freeFlow = try duration(plain, path)
        let congested = try duration(service, path)
        #expect(congested > freeFlow)
        #expect(try duration(service, path + "&traffic=false") == freeFlow)
        #expect(try duration(service, path + "&traffic=true") == congested)
        #expect(Self.get(service, path + "&traffic=maybe").status == 400)
    }
}
