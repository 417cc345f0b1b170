import Foundation
import NavGraphCore

/// The route planner page of `navgraph serve`: `/` and `/web/*` (the page's own HTML, JS and CSS, bundled with
/// the library), `/assets/*` (MapLibre GL JS from `--assets`), `/fonts/{stack}/{range}.pbf` (glyphs from the
/// same directory), `/map/v1/style.json` (roads and route layers from the theme), `/roads/v1/{z}/{x}/{y}` and
/// `/info` (what the page may offer: traffic, bounds, limits). Nothing is loaded from another host.
///
/// Lifetime: one per served graph. Thread safety: immutable after init.
public struct MapPage: Sendable {
    /// Directory with index.html, map.js and map.css.
    public let pageDirectory: URL?
    /// Directory with maplibre-gl.js, maplibre-gl.css and fonts/<stack>/<range>.pbf (Tools/web_assets.py fills it).
    public let assetsDirectory: URL
    /// Route theme for the style's route layers (the CLI's `--theme`).
    public let theme: RouteTheme
    /// Glyph URL template of the style; relative URLs are resolved by the page against the server's origin.
    public let glyphsURL: String
    public let roads: RoadTiles
    /// West, south, east, north of the graph's roads.
    public let bounds: (west: Double, south: Double, east: Double, north: Double)

    /// The page files bundled with the library.
    public static var bundledPageDirectory: URL? { Bundle.module.url(forResource: "Web", withExtension: nil) }

    /// `glyphsURL` nil serves the glyphs of `assetsDirectory/fonts`.
    public init(graph: RoutingGraph, assetsDirectory: URL, pageDirectory: URL? = MapPage.bundledPageDirectory,
                theme: RouteTheme = .default, glyphsURL: String? = nil) {
        self.pageDirectory = pageDirectory
        self.assetsDirectory = assetsDirectory
        self.theme = theme
        self.glyphsURL = glyphsURL ?? "/fonts/{fontstack}/{range}.pbf"
        roads = RoadTiles(graph: graph)
        var west = 180.0, south = 90.0, east = -180.0, north = -90.0
        for point in 0..<graph.shapeLatE7.count {
            let c = graph.coordinate(shapePoint: point)
            west = min(west, c.lon); east = max(east, c.lon); south = min(south, c.lat); north = max(north, c.lat)
        }
        bounds = west <= east ? (west, south, east, north) : (-180, -85, 180, 85)
    }

    /// Files the page needs that are missing (empty when the page can work).
    public var missingFiles: [String] {
        var missing: [String] = []
        if pageDirectory.map({ !FileManager.default.fileExists(atPath: $0.appendingPathComponent("index.html").path) }) ?? true {
            missing.append("index.html (the bundled page)")
        }
        for name in ["maplibre-gl.js", "maplibre-gl.css"] where !FileManager.default.fileExists(atPath: assetsDirectory.appendingPathComponent(name).path) {
            missing.append(assetsDirectory.appendingPathComponent(name).path)
        }
        return missing
    }

    /// Whether glyphs are served from `assetsDirectory/fonts` (or an explicit glyph URL was given).
    public var hasGlyphs: Bool {
        !glyphsURL.hasPrefix("/fonts/") || FileManager.default.fileExists(atPath: assetsDirectory.appendingPathComponent("fonts").path)
    }

    /// The response for a page path, or nil when the path belongs to the routing API.
    package func answer(_ request: HTTPRequest, service: RoutingService) -> HTTPResponse? {
        guard request.method == "GET" || request.method == "HEAD" else { return nil }
        let path = request.path
        switch path {
        case "/", "/index.html": return file(pageDirectory, "index.html")
        case "/info": return .json(info(service))
        case "/map/v1/style.json":
            var options = OutputOptions()
            options.theme = theme
            options.glyphsURL = glyphsURL
            options.prettyPrinted = false
            return .json(MapPageStyle.json(options, labels: hasGlyphs))
        default: break
        }
        if path.hasPrefix("/web/") { return file(pageDirectory, String(path.dropFirst(5))) }
        if path.hasPrefix("/assets/") { return file(assetsDirectory, String(path.dropFirst(8))) }
        if path.hasPrefix("/fonts/") {
            // MapLibre asks for "Stack A,Stack B": the first stack that exists answers.
            let rest = path.dropFirst(7)
            guard let slash = rest.lastIndex(of: "/") else { return notFound(path) }
            let range = String(rest[rest.index(after: slash)...])
            for stack in rest[..<slash].split(separator: ",") {
                let name = stack.trimmingCharacters(in: .whitespaces)
                if let response = file(assetsDirectory.appendingPathComponent("fonts"), "\(name)/\(range)"), response.status == 200 { return response }
            }
            return notFound(path)
        }
        if path.hasPrefix("/roads/") {
            do { return try roads.answer(path: path) } catch let error as OSRMError { return error.response } catch {
                return OSRMError(.invalidValue, "\(error)").response
            }
        }
        return nil
    }

    /// What the page may offer and where to start.
    package func info(_ service: RoutingService) -> JSON {
        let snapshot = service.traffic.snapshot
        return .object([
            ("traffic", .bool(snapshot != nil)),
            ("traffic_label", snapshot.map { .string($0.label) } ?? .null),
            ("bounds", .array([bounds.west, bounds.south, bounds.east, bounds.north].map { .number($0, decimals: 6) })),
            ("max_alternatives", .number(Double(service.limits.maximumAlternatives))),
            ("max_coordinates", .number(Double(service.limits.maximumCoordinates))),
            ("exclude", .array(["toll", "ferry", "motorway"].map(JSON.string))),
            ("glyphs", .bool(hasGlyphs)),
            ("missing", .array(missingFiles.map(JSON.string))),
        ])
    }

    /// A file under `directory` by a relative path of plain names (no `..`, no hidden files), or 404.
    private func file(_ directory: URL?, _ relative: String) -> HTTPResponse? {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard let directory, !parts.isEmpty,
              parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") && !$0.contains("\\") && !$0.contains("\0") }) else {
            return notFound(relative)
        }
        let url = parts.reduce(directory) { $0.appendingPathComponent(String($1)) }
        guard let data = FileManager.default.contents(atPath: url.path) else { return notFound(relative) }
        return HTTPResponse(status: 200, contentType: Self.contentType(url.pathExtension), body: data)
    }

    private func notFound(_ path: String) -> HTTPResponse {
        HTTPResponse(status: 404, contentType: Self.contentType("txt"),
                     body: Data("not found: \(path) (the map page's assets come from Tools/setup.sh, see navgraph serve --assets)\n".utf8))
    }

    /// Every content type the page's files are served with (the socket server keeps them as C strings).
    public static let contentTypes = ["html", "js", "css", "json", "pbf", "png", "svg", "", "txt"].map(contentType)

    package static func contentType(_ pathExtension: String) -> String {
        switch pathExtension {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json": "application/json; charset=utf-8"
        case "pbf": "application/x-protobuf"
        case "png": "image/png"
        case "svg": "image/svg+xml"
        case "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}
