import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Avoiding toll, ferry and highway in every combination, exactly as filtered Dijkstra says.
@Suite struct AvoidanceTests {
    static let combinations: [AvoidSet] = (0..<8).map { bits in
        var set: AvoidSet = []
        if bits & 1 != 0 { set.insert(.toll) }
        if bits & 2 != 0 { set.insert(.ferry) }
        if bits & 4 != 0 { set.insert(.highway) }
        return set
    }

    @Test(arguments: ["porto", "baltimore", "monaco", "milan", "malta", "isle-of-man"])
    func realEveryCombinationMatchesFilteredDijkstra(extract: String) throws {
        let graph = try Fixtures.graph(extract)
        let router = Router(graph: graph)
        let points = randomRoadPoints(graph, count: 1600, seed: 7)
        var avoidedEdgesUsedByUnrestricted = 0
        for (combinationIndex, avoid) in Self.combinations.enumerated() {
            var options = RouteOptions()
            options.avoid = avoid
            options.radius = 2000
            let metric = router.metric(avoid: avoid, mode: .strict, traffic: nil)
            for pair in 0..<100 {
                let index = combinationIndex * 200 + 2 * pair
                guard let source = try? router.snap(points[index], index: 0, options: options, metric: metric),
                      let target = try? router.snap(points[index + 1], index: 1, options: options, metric: metric) else { continue }
                let fast = router.legPath(from: source, to: target, metric: metric, algorithm: .hierarchy)
                let reference = router.legPath(from: source, to: target, metric: metric, algorithm: .dijkstra)
                #expect(fast?.cost == reference?.cost, "\(extract) avoid \(avoid.listed) pair \(pair)")
                guard let fast else { continue }
                let usable = fast.nodes.allSatisfy { metric.nodeWeight[$0] < CCHMetric.infinity }
                #expect(usable, "\(extract) avoid \(avoid.listed): path uses an avoided edge")
                for node in fast.nodes {
                    let edge = Int(graph.routingEdge[node] >> 1)
                    #expect(avoid.matches(roadClass: graph.roadClass(edge: edge), flags: graph.flags(edge: edge)).isEmpty)
                }
                if avoid.isEmpty {
                    let all = AvoidSet([.toll, .ferry, .highway])
                    if fast.nodes.contains(where: { !all.matches(roadClass: graph.roadClass(edge: Int(graph.routingEdge[$0] >> 1)),
                                                                  flags: graph.flags(edge: Int(graph.routingEdge[$0] >> 1))).isEmpty }) {
                        avoidedEdgesUsedByUnrestricted += 1
                    }
                }
            }
        }
        // The comparison means something only if unrestricted routes do use such roads.
        if extract != "malta" && extract != "isle-of-man" { #expect(avoidedEdgesUsedByUnrestricted > 0, "\(extract): no route used toll/ferry/highway") }
    }

    /// A primary road A-B, a ferry B-C (`ferryTags`) and a primary road C-D on the island, one column 0.01° of
    /// longitude (about 786 m) east of A at 45.0 N, 7.0 E.
    static func ferryIsland(named name: String, ferryTags: [String: String]) throws -> DrawnMap {
        let origin = Coordinate(lat: 45.0, lon: 7.0)
        return try MapDrawing("AB~~~CD", gridMetres: 0.01 * MapDrawing.metresPerDegree * cos(origin.lat * .pi / 180), origin: origin,
                              ways: [("AB", ["highway": "primary"]), ("BC", ferryTags), ("CD", ["highway": "primary"])])
            .importGraph(named: name)
    }

    @Test func craftedFerryOnlyDestination() throws {
        let map = try Self.ferryIsland(named: "ferry-island", ferryTags: ["route": "ferry", "duration": "00:20"])
        let graph = map.graph
        let router = Router(graph: graph)
        // Midway along each road: 0.005° of longitude from A and from D.
        let points = [map.point("A", east: 0.005 * 78_700), map.point("D", east: -0.005 * 78_700)]
        let open = try router.route(points)
        #expect(abs(open.routes[0].legs[0].duration - (20 * 60 + 2 * 0.005 * 78_700 / (65 / 3.6))) < 30)
        var options = RouteOptions()
        options.avoid = [.ferry, .toll]
        let error = #expect(throws: NavGraphError.self) { try router.route(points, options: options) }
        #expect(error?.message == "no route from waypoint 1 to 2 avoids toll, ferry; the destination is only reachable using ferry")
        options.avoidMode = .prefer
        let preferred = try router.route(points, options: options)
        #expect(preferred.routes[0].usedAvoidedClasses == ["ferry"])
    }

    /// Snapping skips avoided edges unless nothing else lies within the radius.
    @Test func snappingPrefersEdgesThatAreNotAvoided() throws {
        let map = try Self.ferryIsland(named: "ferry-snap", ferryTags: ["route": "ferry"])
        let graph = map.graph
        let router = Router(graph: graph)
        let nearFerry = map.point("B", east: 786, north: 56)   // 56 m from the ferry, 787 m from the road
        var options = RouteOptions()
        options.avoid = .ferry
        let metric = router.metric(avoid: .ferry, mode: .strict, traffic: nil)
        let wide = try router.snap(nearFerry, index: 0, options: options, metric: metric)
        #expect(!graph.flags(edge: wide.edge).contains(.ferry))
        #expect(wide.distance > 700)
        options.radius = 500
        let narrow = try router.snap(nearFerry, index: 0, options: options, metric: metric)
        #expect(graph.flags(edge: narrow.edge).contains(.ferry))
        #expect(narrow.distance < 60)
    }

    /// Isle of Man's ferries reach places no road reaches; avoiding ferries makes them unreachable, with that reason.
    @Test func realFerryOnlyDestination() throws {
        let graph = try Fixtures.graph("isle-of-man")
        let router = Router(graph: graph)
        var options = RouteOptions()
        options.avoid = .ferry
        options.radius = 5000
        let ferryMetric = router.metric(avoid: .ferry, mode: .strict, traffic: nil)
        let openMetric = router.metric(avoid: [], mode: .strict, traffic: nil)
        var found = 0
        let douglas = Coordinate(lat: 54.1523, lon: -4.4861)
        for edge in 0..<graph.edgeCount where graph.flags(edge: edge).contains(.ferry) {
            for end in [Int(graph.edgeShapeFirst[edge]), Int(graph.edgeShapeFirst[edge + 1]) - 1] {
                let point = graph.coordinate(shapePoint: end)
                guard let source = try? router.snap(douglas, index: 0, options: options, metric: openMetric),
                      let target = try? router.snap(point, index: 1, options: RouteOptions(), metric: openMetric),
                      router.legPath(from: source, to: target, metric: openMetric, algorithm: .hierarchy) != nil,
                      let avoidTarget = try? router.snap(point, index: 1, options: options, metric: ferryMetric),
                      router.legPath(from: source, to: avoidTarget, metric: ferryMetric, algorithm: .hierarchy) == nil else { continue }
                let error = #expect(throws: NavGraphError.self) { try router.route([douglas, point], options: options) }
                #expect(error?.message.contains("only reachable using ferry") == true, "\(error?.message ?? "")")
                found += 1
            }
        }
        #expect(found >= 1, "no ferry-only destination found on the Isle of Man")
    }
}
