import Foundation
import Testing

/// The map page in a real browser: `navgraph serve` on the bundled Monaco extract (imported into a temporary
/// directory, ephemeral port, sample traffic), Debian's headless chromium with every host name but 127.0.0.1
/// unresolvable, and the state the page writes on <body>. Screenshots go to the printed directory.
@Suite(.serialized, .enabled(if: BrowserHarness.skipReason == nil, "\(BrowserHarness.skipReason ?? "")"))
struct MapPageBrowserTests {
    @Test func routesWithAlternativesOfflineAndDrawsTheMap() throws {
        let server = try BrowserHarness.Server.start()
        defer { server.stop() }
        let page = try BrowserHarness.open(server, query: "loc=43.7384,7.4246&loc=43.7311,7.4197&alternatives=2",
                                           screenshot: "map-page-routed.png")
        #expect(page.attributes["data-status"] == "routed", "page state: \(page.attributes)")
        #expect(Int(page.attributes["data-routes"] ?? "") ?? 0 >= 2, "page state: \(page.attributes)")
        #expect(page.attributes["data-error"] == "")
        #expect(page.attributes["data-map"] == "ready", "MapLibre did not start: \(page.attributes)")
        #expect(page.attributes["data-map-errors"] == "0", "MapLibre reported: \(page.attributes["data-map-error"] ?? "")")
        #expect(page.attributes["data-foreign"] == "", "resources from other hosts: \(page.attributes["data-foreign"] ?? "")")
        #expect(Int(page.attributes["data-roads"] ?? "") ?? 0 > 100, "base map roads drawn: \(page.attributes["data-roads"] ?? "none")")
        // The route list shows one entry per route, the first one selected.
        #expect(page.dom.components(separatedBy: "<li class=\"selected\"").count == 2)
        #expect(page.dom.components(separatedBy: "<li class=\"\" data-index=").count == (Int(page.attributes["data-routes"] ?? "") ?? 0))

        // Everything the page asked for came from this server and was found there.
        let log = server.log()
        for path in ["GET / ", "GET /assets/maplibre-gl.js ", "GET /map/v1/style.json ", "GET /info ", "GET /roads/v1/", "GET /route/v1/driving/", "GET /geojson/v1/driving/"] {
            #expect(log.contains(path), "the server never saw \(path)")
        }
        let failed = log.split(separator: "\n").filter { $0.hasPrefix("GET ") && !$0.contains(" 200 ") }
        #expect(failed.isEmpty, "requests that failed: \(failed)")
    }

    @Test func impossibleAvoidShowsTheServersMessage() throws {
        let server = try BrowserHarness.Server.start()
        defer { server.stop() }
        // The destination is on a motorway link only the motorway reaches, and the page asks to avoid highways.
        let page = try BrowserHarness.open(server, query: BrowserHarness.impossibleQuery, screenshot: "map-page-error.png")
        #expect(page.attributes["data-status"] == "error", "page state: \(page.attributes)")
        let message = page.attributes["data-error"] ?? ""
        #expect(!message.isEmpty)
        // The message is the server's own, and the user sees it in the alert box.
        #expect(server.log().contains(" 400 "))
        #expect(page.dom.contains("role=\"alert\">\(BrowserHarness.escapeHTML(message))</div>"), "alert box: \(message)")
    }
}
