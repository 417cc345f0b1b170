import Foundation
import Testing

/// The map page in a real browser: `navgraph serve` on the bundled Monaco extract (imported into a temporary
/// directory, ephemeral port, sample traffic), Debian's headless chromium with every host name but 127.0.0.1
/// unresolvable, and the state the page writes on <body>. Screenshots go to the printed paths (out/map-page/).
@Suite(.serialized, .enabled(if: BrowserHarness.skipReason == nil, "\(BrowserHarness.skipReason ?? "")"))
struct MapPageBrowserTests {
    @Test func routesWithAlternativesOfflineAndDrawsTheMap() throws {
        let server = try BrowserHarness.Server.start()
        defer { server.stop() }
        let page = try BrowserHarness.open(server, query: "loc=43.7384,7.4246&loc=43.7311,7.4197&alternatives=2",
                                           screenshot: "map-page-routed.png")
        #expect(!page.timedOut, "the page never settled: \(page.attributes)")
        #expect(page.attributes["data-status"] == "routed", "page state: \(page.attributes)")
        #expect(Int(page.attributes["data-routes"] ?? "") ?? 0 >= 2, "page state: \(page.attributes)")
        #expect(page.attributes["data-error"] == "")
        #expect(page.alert == "")
        #expect(page.attributes["data-map"] == "ready", "MapLibre did not start: \(page.attributes)")
        #expect(page.attributes["data-map-errors"] == "0", "MapLibre reported: \(page.attributes["data-map-error"] ?? "")")
        #expect(page.attributes["data-page-error"] == nil && page.exceptions.isEmpty, "page errors: \(page.exceptions)")
        #expect(Int(page.attributes["data-roads"] ?? "") ?? 0 > 100, "base map roads drawn: \(page.attributes["data-roads"] ?? "none")")

        // No request left 127.0.0.1: neither in the browser's own network log nor in the page's resource record.
        #expect(BrowserHarness.foreignRequests(page, server: server).isEmpty, "foreign: \(BrowserHarness.foreignRequests(page, server: server))")
        #expect(page.attributes["data-foreign"] == "")
        // Everything the page needed came from this server and was found there: the page, MapLibre, the style,
        // glyphs, road tiles and the routes.
        let log = server.log()
        for path in ["GET /?loc=", "GET /assets/maplibre-gl.js ", "GET /web/map.js ", "GET /map/v1/style.json ", "GET /info ",
                     "GET /fonts/", "GET /roads/v1/", "GET /route/v1/driving/", "GET /geojson/v1/driving/"] {
            #expect(log.contains(path), "the server never saw \(path)")
        }
        let failed = log.split(separator: "\n").filter { $0.hasPrefix("GET ") && !$0.contains(" 200 ") && !$0.hasPrefix("GET /favicon.ico ") }
        #expect(failed.isEmpty, "requests that failed: \(failed)")
    }

    @Test func clicksSetPointsAndDraggingMovesThem() throws {
        let server = try BrowserHarness.Server.start()
        defer { server.stop() }
        // The page opens on the whole graph (the map starts at x = 320 beside the panel). Two clicks set origin and
        // destination, a third one becomes a waypoint, then the destination's circle is dragged 60 px right.
        let page = try BrowserHarness.open(server, query: "", screenshot: "map-page-clicked.png",
                                           actions: ["--click", "750,420", "--click", "1000,520", "--click", "880,300", "--drag-last", "60,40"])
        #expect(!page.timedOut, "page state: \(page.attributes)")
        #expect(page.attributes["data-status"] == "routed", "page state: \(page.attributes)")
        #expect(page.attributes["data-requests"] == "5", "one routing request per gesture after the start: \(page.attributes)")
        let locs = page.url.components(separatedBy: "loc=").dropFirst().map { $0.prefix { $0 != "&" } }
        #expect(locs.count == 3, "share URL: \(page.url)")
        // Each gesture reached the server as a route request: 2, then 3 points, then the moved destination.
        let routes = server.log().split(separator: "\n").filter { $0.hasPrefix("GET /route/v1/driving/") }
        #expect(routes.count == 3, "\(routes)")
        if routes.count == 3 {
            let coordinates = routes.map { $0.dropFirst("GET /route/v1/driving/".count).prefix { $0 != "?" }.split(separator: ";") }
            #expect(coordinates.map(\.count) == [2, 3, 3])
            #expect(coordinates[1].first == coordinates[2].first && coordinates[1][1] == coordinates[2][1])
            #expect(coordinates[1].last != coordinates[2].last, "the drag moved the destination")
        }
        #expect(BrowserHarness.foreignRequests(page, server: server).isEmpty)
    }

    @Test func impossibleAvoidShowsTheServersMessage() throws {
        let server = try BrowserHarness.Server.start()
        defer { server.stop() }
        // The destination is on a motorway link only the motorway reaches, and the page asks to avoid highways.
        let page = try BrowserHarness.open(server, query: BrowserHarness.impossibleQuery, screenshot: "map-page-error.png")
        #expect(page.attributes["data-status"] == "error", "page state: \(page.attributes)")
        #expect(page.attributes["data-routes"] == "0")
        let message = page.attributes["data-error"] ?? ""
        // The message is the server's own answer to the page's route request, and the user sees it.
        let routeLine = server.log().split(separator: "\n").first { $0.hasPrefix("GET /route/v1/driving/") }
        #expect(routeLine?.contains("exclude=motorway") == true && routeLine?.contains(" 400 ") == true, "\(String(describing: routeLine))")
        #expect(message.hasPrefix("NoRoute: ") && message.contains("highway"), "data-error: \(message)")
        #expect(page.alert == message)
        #expect(BrowserHarness.foreignRequests(page, server: server).isEmpty)
    }
}
