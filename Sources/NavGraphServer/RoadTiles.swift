import Foundation
import NavGraphCore

/// `/roads/v1/{z}/{x}/{y}`: the graph's road edges inside one web-mercator tile as GeoJSON, the map page's
/// base map. Minor classes appear only from the zoom where they matter, shapes are simplified to about a pixel
/// below zoom 15, and a tile holds at most `maximumFeatures` edges (`truncated: true` says when more matched).
///
/// Lifetime: one per served graph (the per-edge bounding boxes are built once, O(shape points)).
/// Thread safety: immutable after init.
public final class RoadTiles: Sendable {
    public let graph: RoutingGraph
    /// Most features in one tile; the rest are dropped (most important classes first) and `truncated` is set.
    public let maximumFeatures: Int
    /// Per edge: west, south, east, north in degrees.
    private let boxes: [Float]

    public init(graph: RoutingGraph, maximumFeatures: Int = 20_000) {
        self.graph = graph
        self.maximumFeatures = maximumFeatures
        var boxes = [Float](repeating: 0, count: graph.edgeCount * 4)
        for edge in 0..<graph.edgeCount {
            var west = Float.infinity, south = Float.infinity, east = -Float.infinity, north = -Float.infinity
            for point in Int(graph.edgeShapeFirst[edge])..<Int(graph.edgeShapeFirst[edge + 1]) {
                let c = graph.coordinate(shapePoint: point)
                west = min(west, Float(c.lon)); east = max(east, Float(c.lon))
                south = min(south, Float(c.lat)); north = max(north, Float(c.lat))
            }
            boxes[edge * 4] = west; boxes[edge * 4 + 1] = south; boxes[edge * 4 + 2] = east; boxes[edge * 4 + 3] = north
        }
        self.boxes = boxes
    }

    /// Lowest zoom at which a class is drawn: main roads from the start, streets once a town fills the screen.
    public static func minimumZoom(_ roadClass: RoadClass) -> Int {
        switch roadClass {
        case .motorway, .motorwayLink, .trunk, .trunkLink, .ferry: 0
        case .primary, .primaryLink: 8
        case .secondary, .secondaryLink: 10
        case .tertiary, .tertiaryLink: 11
        case .unclassified, .residential, .livingStreet: 13
        case .service, .track: 14
        case .cycleway, .footway, .path, .pedestrian, .steps: 15
        }
    }

    /// Longitude/latitude bounds (west, south, east, north) of tile z/x/y.
    public static func bounds(z: Int, x: Int, y: Int) -> (west: Double, south: Double, east: Double, north: Double) {
        let n = Double(1 << z)
        func latitude(_ row: Double) -> Double { atan(sinh(Double.pi * (1 - 2 * row / n))) * 180 / Double.pi }
        return (Double(x) / n * 360 - 180, latitude(Double(y + 1)), Double(x + 1) / n * 360 - 180, latitude(Double(y)))
    }

    /// Answers a path `/roads/v1/{z}/{x}/{y}` (an optional `.json` or `.geojson` suffix is accepted).
    package func answer(path: String) throws -> HTTPResponse {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count == 5, parts[0] == "roads", parts[1] == "v1" else {
            throw OSRMError(.invalidUrl, "\(path): expected /roads/v1/{z}/{x}/{y}")
        }
        var last = parts[4]
        for suffix in [".geojson", ".json"] where last.hasSuffix(suffix) { last.removeLast(suffix.count) }
        guard let z = Int(parts[2]), (0...22).contains(z) else { throw OSRMError(.invalidUrl, "\(path): zoom '\(parts[2])' is not 0–22") }
        let size = 1 << z
        guard let x = Int(parts[3]), (0..<size).contains(x) else { throw OSRMError(.invalidUrl, "\(path): x '\(parts[3])' is not 0–\(size - 1) at zoom \(z)") }
        guard let y = Int(last), (0..<size).contains(y) else { throw OSRMError(.invalidUrl, "\(path): y '\(last)' is not 0–\(size - 1) at zoom \(z)") }
        return HTTPResponse(status: 200, contentType: "application/geo+json", body: tile(z: z, x: x, y: y).data(pretty: false))
    }

    /// The edges drawn in tile z/x/y (most important classes first when truncated) and whether some were dropped.
    public func edges(z: Int, x: Int, y: Int) -> (edges: [Int], truncated: Bool) {
        let bounds = Self.bounds(z: z, x: x, y: y)
        let west = Float(bounds.west), south = Float(bounds.south), east = Float(bounds.east), north = Float(bounds.north)
        let pixelDegrees = Float((bounds.east - bounds.west) / 512)
        var selected: [Int] = []
        for edge in 0..<graph.edgeCount {
            let base = edge * 4
            guard boxes[base] <= east, boxes[base + 2] >= west, boxes[base + 1] <= north, boxes[base + 3] >= south else { continue }
            let roadClass = graph.roadClass(edge: edge)
            guard z >= Self.minimumZoom(roadClass) else { continue }
            // Below street zoom an edge smaller than half a pixel draws nothing visible.
            if z < 15, max(boxes[base + 2] - boxes[base], boxes[base + 3] - boxes[base + 1]) < pixelDegrees / 2 { continue }
            selected.append(edge)
        }
        let truncated = selected.count > maximumFeatures
        if truncated {
            selected.sort { graph.edgeClass[$0] < graph.edgeClass[$1] }
            selected.removeLast(selected.count - maximumFeatures)
        }
        return (selected, truncated)
    }

    /// The FeatureCollection of tile z/x/y: one LineString per edge with `id`, `class` and `name`.
    package func tile(z: Int, x: Int, y: Int) -> JSON {
        let (selected, truncated) = edges(z: z, x: x, y: y)
        let bounds = Self.bounds(z: z, x: x, y: y)
        // About one pixel of a 512-pixel tile, in metres at the tile's centre.
        let pixelMetres = 40_075_016 * cos((bounds.south + bounds.north) / 2 * Double.pi / 180) / Double(512 << z)
        var features: [JSON] = []
        features.reserveCapacity(selected.count)
        for edge in selected {
            var points = (Int(graph.edgeShapeFirst[edge])..<Int(graph.edgeShapeFirst[edge + 1])).map { graph.coordinate(shapePoint: $0) }
            if z < 15 { points = Simplification.douglasPeucker(points, toleranceMetres: pixelMetres) }
            let roadClass = graph.roadClass(edge: edge)
            features.append(.object([
                ("type", .string("Feature")),
                ("id", .number(Double(edge))),
                ("geometry", .object([("type", .string("LineString")), ("coordinates", .array(points.map(JSON.position)))])),
                ("properties", .object([
                    ("class", .string(roadClass.osmName)),
                    ("name", .string(graph.string(graph.edgeName[edge]))),
                ])),
            ]))
        }
        return .object([
            ("type", .string("FeatureCollection")),
            ("truncated", .bool(truncated)),
            ("features", .array(features)),
        ])
    }
}
