import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphServer

/// The Directions writer's two sinks on real routes (monaco, steps in several languages, via points, every shape a
/// route endpoint or dialect sets): the streamed bytes are the tree's bytes; and the voice and banner writer against
/// the instructions' own `json` trees.
@Suite struct DirectionsWriterTests {
    static let options: [String] = [
        "steps=true&annotations=true&geometries=polyline6&overview=full&voice_instructions=true&banner_instructions=true",
        "steps=true&language=de&voice_instructions=true&voice_units=imperial&geometries=geojson&overview=simplified",
        "steps=true&language=fr&banner_instructions=true&annotations=maxspeed,congestion_numeric,speed",
        "annotations=duration,distance,congestion&overview=false&geometries=polyline",
        "alternatives=2&steps=true&language=it&banner_instructions=true",
        "skip_waypoints=true",
        "",
    ]

    static func parameters(_ query: String, count: Int) throws -> RouteEndpoint.Parameters {
        let pairs = query.split(separator: "&").map { item -> (name: String, value: String) in
            let parts = item.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        let options = try QueryOptions(pairs, allowed: RouteEndpoint.options, service: "route")
        return try RouteEndpoint.Parameters(options, coordinateCount: count, maximumAlternatives: 3)
    }

    @Test func streamedBodiesAreTheTreesBytes() throws {
        let graph = try Fixtures.graph("monaco")
        let router = Router(graph: graph)
        let points = randomRoadPoints(graph, count: 60, seed: 41)
        var rng = SystemRandomNumberGenerator()
        var compared = 0, bytes = 0
        for index in stride(from: 0, to: points.count - 2, by: 3) {
            let three = Array(points[index..<index + 3])
            for (n, query) in Self.options.enumerated() {
                let coordinates = n % 2 == 0 ? three : Array(three.prefix(2))
                var full = query.isEmpty ? "" : query
                if coordinates.count == 3 && n % 4 == 0 { full += (full.isEmpty ? "" : "&") + "waypoints=0;2" }
                let parameters = try Self.parameters(full, count: coordinates.count)
                let url = OSRMURL(service: "route", profile: "driving", profileID: .car, coordinates: coordinates)
                guard let (response, _) = try? RouteEndpoint.routeWithPaths(url, parameters, router: router, traffic: nil) else { continue }
                var shape = RouteEndpoint.shape(parameters)
                if Bool.random(using: &rng) {
                    shape.closures = Bool.random(using: &rng)
                    shape.trafficTendency = Bool.random(using: &rng)
                    shape.refreshTTL = Bool.random(using: &rng) ? 3600 : nil
                    shape.waypoints = response.waypoints.reversed().map { w in
                        var named = w
                        named.roadName = "\"Quoted\" \\ name\n"
                        return named
                    }
                }
                let streamed = RouteEndpoint.bytes(response, parameters, uuid: "fixed", shape: shape).data
                let tree = RouteEndpoint.body(response, parameters, uuid: "fixed", shape: shape)
                #expect(streamed == ReferenceJSON.data(tree, pretty: false), "\(full)")
                #expect(DirectionsResponse.make(response, RouteEndpoint.output(parameters, uuid: "fixed"))
                        == ReferenceJSON.data(DirectionsResponse.json(response, RouteEndpoint.output(parameters, uuid: "fixed")), pretty: false))
                compared += 1
                bytes += streamed.count
            }
        }
        #expect(compared > 80)
        #expect(bytes > 1_000_000)
    }

    /// Voice and banner instructions have one writer; what it writes decodes to their fields under the Mapbox
    /// Directions v5 names, on real routes in five languages and for a banner with every optional member.
    @Test func narrationJSONHoldsEveryField() throws {
        let graph = try Fixtures.graph("monaco")
        let router = Router(graph: graph)
        let points = randomRoadPoints(graph, count: 30, seed: 7)
        var checked = 0
        func decoded(_ data: Data) throws -> NSDictionary { try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary) }
        func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
        for locale in ["en", "de", "fr", "it", "es"] {
            let narrator = try PhrasebookNarrator(locale: locale, units: locale == "en" ? .imperial : .metric)
            for index in stride(from: 0, to: points.count - 1, by: 2) {
                guard var response = try? router.route([points[index], points[index + 1]], options: RouteOptions()) else { continue }
                router.addSteps(to: &response)
                let steps = response.routes[0].legs[0].steps
                for step in steps.indices {
                    for voice in narrator.voiceInstructions(steps: steps, index: step) {
                        let json = try decoded(voice.jsonData())
                        #expect(json == ["distanceAlongGeometry": rounded(voice.distanceAlongGeometry), "announcement": voice.announcement,
                                         "ssmlAnnouncement": voice.ssmlAnnouncement] as NSDictionary)
                        checked += 1
                    }
                    for banner in narrator.bannerInstructions(steps: steps, index: step) {
                        let json = try decoded(banner.jsonData())
                        #expect(json["distanceAlongGeometry"] as? Double == rounded(banner.distanceAlongGeometry))
                        let primary = try #require(json["primary"] as? NSDictionary)
                        #expect(primary["text"] as? String == banner.primary.text)
                        #expect((primary["components"] as? [Any])?.count == banner.primary.components.count)
                        #expect((json["secondary"] is NSNull) == (banner.secondary == nil))
                        #expect((json["sub"] == nil) == (banner.sub == nil))
                        checked += 1
                    }
                }
            }
        }
        // Every optional member at once, against the literal document.
        let lane = BannerComponent(type: "lane", text: "", abbreviation: "L", abbreviationPriority: 2, directions: ["left", "straight"],
                                   active: true, activeDirection: "left")
        let content = BannerContent(text: "Exit \"2\"", type: "roundabout", modifier: "right", degrees: 184.6, drivingSide: "left",
                                    components: [lane, BannerComponent(type: "text", text: "Via\tRoma")])
        let contentJSON: NSDictionary = [
            "text": "Exit \"2\"", "type": "roundabout", "modifier": "right", "degrees": 185, "driving_side": "left",
            "components": [["type": "lane", "text": "", "abbr": "L", "abbr_priority": 2, "directions": ["left", "straight"],
                            "active": true, "active_direction": "left"],
                           ["type": "text", "text": "Via\tRoma"]],
        ]
        let full = BannerInstruction(distanceAlongGeometry: 120.04, primary: content, secondary: content, sub: content)
        #expect(try decoded(full.jsonData()) == ["distanceAlongGeometry": 120.0, "primary": contentJSON, "secondary": contentJSON,
                                                  "sub": contentJSON] as NSDictionary)
        let bare = BannerInstruction(distanceAlongGeometry: 0, primary: BannerContent(text: "", type: nil, modifier: nil, components: []))
        #expect(try decoded(bare.jsonData()) == ["distanceAlongGeometry": 0, "primary": ["text": "", "components": []],
                                                  "secondary": NSNull()] as NSDictionary)
        #expect(checked > 200)
    }

    /// The in-process document is the server's `/route` body byte for byte (the random uuid aside).
    @Test func inProcessDocumentIsTheServersBody() throws {
        let graph = try Fixtures.graph("monaco")
        let offline = OSRMService(engine: RoutingEngine(graph: graph))
        let server = RoutingService(engine: RoutingEngine(graph: graph))
        let points = randomRoadPoints(graph, count: 16, seed: 9).map { point in
            Coordinate(lat: (point.lat * 1e7).rounded() / 1e7, lon: (point.lon * 1e7).rounded() / 1e7)
        }
        let uuid = try NSRegularExpression(pattern: #""uuid":"[0-9a-f-]{36}""#)
        func masked(_ data: Data) -> String {
            let text = String(decoding: data, as: UTF8.self)
            return uuid.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: #""uuid":"-""#)
        }
        var compared = 0
        for pair in 0..<8 {
            let a = points[2 * pair], b = points[2 * pair + 1]
            for query in Self.options {
                let options = Dictionary(uniqueKeysWithValues: query.split(separator: "&").map { item -> (String, String) in
                    let parts = item.split(separator: "=", maxSplits: 1)
                    return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
                })
                guard let document = try? offline.directions(DirectionsQuery(coordinates: [a, b], options: options)) else { continue }
                let sorted = options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
                let target = String(format: "/route/v1/driving/%.7f,%.7f;%.7f,%.7f", a.lon, a.lat, b.lon, b.lat) + (sorted.isEmpty ? "" : "?" + sorted)
                let response = server.handle(HTTPRequest(method: "GET", target: target))
                #expect(response.status == 200)
                #expect(masked(document.json) == masked(response.body), "\(target)")
                compared += 1
            }
        }
        #expect(compared > 40)
    }
}
