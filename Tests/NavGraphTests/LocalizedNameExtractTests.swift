import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Localized street names on a real extract: Malta's streets carry Maltese `name`s and many English `name:en`s.
@Suite struct LocalizedNameExtractTests {
    /// The import keeps, for every routable way, exactly the `name:XX` the OSM data has where it differs from `name`.
    @Test func importKeepsEveryDifferingNameOfTheRoutableWays() throws {
        let graph = try Fixtures.graph("malta")
        let source = try OSMSource(path: Fixtures.pbf("malta"))
        let routable = Set(graph.edgeWay)
        var expected: [String: [Int64: String]] = [:]
        for way in 0..<source.wayCount where routable.contains(source.wayID(way)) {
            let tags = source.wayTags(way)
            for (key, value) in tags where key.hasPrefix("name:") {
                let language = String(key.dropFirst("name:".count))
                let trimmed = value.trimmingCharacters(in: .whitespaces)
                if graph.nameLanguages.contains(language), !trimmed.isEmpty, trimmed != tags["name"] ?? "" {
                    expected[language, default: [:]][source.wayID(way)] = trimmed
                }
            }
        }
        var kept: [String: [Int64: String]] = [:]
        for (row, way) in graph.nameWay.enumerated() {
            for (column, language) in graph.nameLanguages.enumerated() where graph.nameLocal[row * graph.nameLanguages.count + column] != 0 {
                kept[language, default: [:]][way] = graph.string(graph.nameLocal[row * graph.nameLanguages.count + column])
            }
        }
        #expect((expected["en"]?.count ?? 0) > 300, "malta: \(expected["en"]?.count ?? 0) ways with name:en")
        #expect(kept == expected)
        let summary = GraphSummary(graph: graph)
        #expect(summary.localizedNameWays["en"] == expected["en"]?.count)
    }

    /// Routes that start on a way with an English name of its own: in English the first step, the waypoint and
    /// (when the way is among the leg's main roads) the summary give that name; without a language the Maltese one.
    @Test func routesOverLocalizedWaysGiveTheEnglishName() throws {
        let graph = try Fixtures.graph("malta")
        let router = Router(graph: graph)
        let english = try #require(graph.nameLanguage(for: "en-GB"))
        let localized = (0..<graph.edgeCount).filter { edge in
            graph.edgeLength[edge] > 80 && graph.routingNodeOfEdge[2 * edge] >= 0 && graph.routingNodeOfEdge[2 * edge + 1] >= 0
                && graph.name(edge: edge, in: english) != graph.edgeName[edge]
        }
        try #require(localized.count >= 40, "malta: only \(localized.count) two-way edges with an English name")
        var checked = 0, matched = 0
        for index in stride(from: 0, to: localized.count, by: localized.count / 20) {
            let edge = localized[index], target = localized[(index + localized.count / 2) % localized.count]
            let points = [Fixtures.midpoint(of: edge, in: graph), Fixtures.midpoint(of: target, in: graph)]
            var options = RouteOptions()
            options.nameLanguage = "en-GB"
            guard var inEnglish = try? router.route(points, options: options), var inMaltese = try? router.route(points) else { continue }
            guard inEnglish.snaps.first?.edge == edge else { continue }
            router.addSteps(to: &inEnglish)
            router.addSteps(to: &inMaltese)
            checked += 1
            let englishName = graph.string(graph.name(edge: edge, in: english)), malteseName = graph.string(graph.edgeName[edge])
            let first = inEnglish.routes[0].legs[0].steps.first, plain = inMaltese.routes[0].legs[0].steps.first
            if first?.name == englishName && inEnglish.waypoints[0].roadName == englishName && plain?.name == malteseName
                && !(inEnglish.routes[0].legs[0].summary.contains(malteseName) && !englishName.contains(malteseName)) {
                matched += 1
            }
        }
        #expect(checked >= 15, "only \(checked) routes started on their localized edge")
        #expect(matched == checked, "\(matched) of \(checked) routes named their first road in English")
    }

    /// `/nearest` and `/table` name their waypoints in `language` too (a navgraph extension; OSRM's are local only):
    /// a point on a way with an English name gets it with `language=en`, and the Maltese name without.
    @Test func nearestAndTableWaypointsFollowTheLanguage() throws {
        let graph = try Fixtures.graph("malta")
        let english = try #require(graph.nameLanguage(for: "en"))
        let service = RoutingService(engine: RoutingEngine(graph: graph))
        let localized = (0..<graph.edgeCount).filter { edge in
            graph.edgeLength[edge] > 80 && graph.routingNodeOfEdge[2 * edge] >= 0 && graph.name(edge: edge, in: english) != graph.edgeName[edge]
        }
        try #require(localized.count >= 40)
        func names(_ target: String, key: String) throws -> [String] {
            let response = service.handle(HTTPRequest(method: "GET", target: target))
            #expect(response.status == 200, "\(target): \(String(decoding: response.body, as: UTF8.self))")
            let body = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            let waypoints = try #require(body[key] as? [[String: Any]])
            return waypoints.compactMap { $0["name"] as? String }
        }
        var checked = 0, matched = 0
        for index in stride(from: 0, to: localized.count, by: localized.count / 20) {
            let edge = localized[index]
            let point = Fixtures.midpoint(of: edge, in: graph)
            let at = String(format: "%.7f,%.7f", point.lon, point.lat)
            let englishName = graph.string(graph.name(edge: edge, in: english)), malteseName = graph.string(graph.edgeName[edge])
            let nearest = try names("/nearest/v1/driving/\(at)?language=en", key: "waypoints")
            // Only points whose nearest road is the localized edge itself say something about the name.
            guard nearest.first == englishName || nearest.first == malteseName else { continue }
            checked += 1
            let local = try names("/nearest/v1/driving/\(at)", key: "waypoints")
            let table = try names("/table/v1/driving/\(at);\(at)?language=en-GB", key: "sources")
            if nearest.first == englishName && local.first == malteseName && table.first == englishName { matched += 1 }
        }
        #expect(checked >= 15, "only \(checked) points snapped to their localized edge")
        #expect(matched == checked, "\(matched) of \(checked) waypoints named in English")
        let bad = service.handle(HTTPRequest(method: "GET", target: "/nearest/v1/driving/14.5,35.9?language=e%20n"))
        #expect(bad.status == 400 && String(decoding: bad.body, as: UTF8.self).contains("InvalidValue"))
    }
}
