import Foundation
@testable import NavGraphCore
@testable import NavGraphServer
import Testing

/// The in-process directions API of NavGraphCore (`OSRMService.directions`), which an app calls on the device:
/// on the monaco extract its document equals what `navgraph serve` answers on `/route/v1` for the same options,
/// pair by pair, and bad input is an `OSRMError` naming the value.
@Suite struct OfflineDirectionsTests {
    static let optionSets: [[String: String]] = [
        [:],
        ["steps": "true", "overview": "full", "geometries": "polyline6", "alternatives": "true"],
        ["steps": "true", "language": "de", "voice_instructions": "true", "banner_instructions": "true", "exclude": "toll",
         "annotations": "distance,duration,speed,congestion,maxspeed"],
    ]

    static func routes(_ data: Data) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["code"] as? String == "Ok")
        return String(decoding: try JSONSerialization.data(withJSONObject: object["routes"] ?? [], options: [.sortedKeys]), as: UTF8.self)
    }

    @Test func documentEqualsTheServersRoute() throws {
        let graph = try Fixtures.graph("monaco")
        let offline = OSRMService(engine: RoutingEngine(graph: graph))
        let server = RoutingService(engine: RoutingEngine(graph: graph))
        // Rounded as the URL writes them, so that both sides route from the very same coordinates.
        let points = randomRoadPoints(graph, count: 24, seed: 44).map { point in
            Coordinate(lat: (point.lat * 1e7).rounded() / 1e7, lon: (point.lon * 1e7).rounded() / 1e7)
        }
        var compared = 0
        for pair in 0..<12 {
            let a = points[2 * pair], b = points[2 * pair + 1]
            for options in Self.optionSets {
                let document = try offline.directions(DirectionsQuery(profile: "driving", coordinates: [a, b], options: options))
                let query = options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
                let target = String(format: "/route/v1/driving/%.7f,%.7f;%.7f,%.7f", a.lon, a.lat, b.lon, b.lat) + (query.isEmpty ? "" : "?" + query)
                let response = server.handle(HTTPRequest(method: "GET", target: target))
                #expect(response.status == 200)
                #expect(try Self.routes(document.json) == Self.routes(response.body), "\(target)")
                #expect(!document.routes.isEmpty && document.routes[0].duration > 0)
                compared += 1
            }
        }
        #expect(compared == 36)
    }

    @Test func badInputNamesTheValue() throws {
        let offline = try OSRMService(graphPath: Fixtures.graph("monaco").file.path)
        let point = Coordinate(lat: 43.7384, lon: 7.4246)
        do {
            _ = try offline.directions(DirectionsQuery(profile: "hovercraft", coordinates: [point, point]))
            Issue.record("an unknown profile was accepted")
        } catch let error as OSRMError {
            #expect(error.code == .invalidValue && error.message.contains("hovercraft"))
        }
        do {
            _ = try offline.directions(DirectionsQuery(coordinates: [point, Coordinate(lat: .nan, lon: 7.42)]))
            Issue.record("a NaN coordinate was accepted")
        } catch let error as OSRMError {
            #expect(error.code == .invalidValue && error.message.contains("coordinate 1"))
        }
        do {
            _ = try offline.directions(DirectionsQuery(coordinates: [point, point], options: ["steps": "maybe"]))
            Issue.record("steps=maybe was accepted")
        } catch let error as OSRMError {
            #expect(error.message.contains("maybe"))
        }
    }
}
