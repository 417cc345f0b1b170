import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// The hierarchy must agree exactly with plain Dijkstra on real extracts.
@Suite struct RoutingOracleTests {
    @Test(arguments: Fixtures.extracts)
    func hierarchyEqualsDijkstra(extract: String) throws {
        let graph = try Fixtures.graph(extract)
        let router = Router(graph: graph)
        let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
        let points = randomRoadPoints(graph, count: 4000, seed: 42)
        var options = RouteOptions()
        options.radius = 2000
        let (compared, reachable) = try compareHierarchyWithDijkstra(router: router, metric: metric, points: points, options: options,
                                                                     label: extract)
        #expect(compared >= 1900, "only \(compared) pairs snapped on \(extract)")
        // Helgoland is car-free: its few car roads are scattered pieces, so most random pairs have no car route.
        #expect(reachable >= (extract == "helgoland" ? 50 : compared / 2), "only \(reachable) of \(compared) pairs reachable on \(extract)")
    }

    /// Whole routes (snapping with the small-component rule, island fallbacks, two- and three-waypoint legs) agree
    /// between the hierarchy and Dijkstra: same snaps, same weights. Points lie up to ~250 m off the roads so that
    /// the nearest road and the preferred one differ.
    @Test(arguments: ["helgoland", "kotka", "monaco", "malta"])
    func routesWithSmallComponentRuleEqualDijkstra(extract: String) throws {
        let graph = try Fixtures.graph(extract)
        let router = Router(graph: graph)
        var generator = SeededGenerator(seed: 7)
        let points = randomRoadPoints(graph, count: 900, seed: 43).map {
            Coordinate(lat: $0.lat + Double.random(in: -0.002...0.002, using: &generator), lon: $0.lon + Double.random(in: -0.003...0.003, using: &generator))
        }
        var routed = 0, inSmallComponent = 0
        for index in 0..<300 {
            let waypoints = index % 3 == 0 ? Array(points[(3 * index)..<(3 * index + 3)]) : [points[3 * index], points[3 * index + 1]]
            var options = RouteOptions()
            options.algorithm = .hierarchy
            let fast = try? router.route(waypoints, options: options)
            options.algorithm = .dijkstra
            let reference = try? router.route(waypoints, options: options)
            #expect((fast == nil) == (reference == nil), "\(extract) route \(index): routed by one search only")
            guard let fast, let reference else { continue }
            routed += 1
            #expect(fast.snaps.map(\.edge) == reference.snaps.map(\.edge) && fast.snaps.map(\.offset) == reference.snaps.map(\.offset),
                    "\(extract) route \(index): different snaps")
            #expect(fast.routes[0].weight == reference.routes[0].weight,
                    "\(extract) route \(index): hierarchy \(fast.routes[0].weight) vs Dijkstra \(reference.routes[0].weight)")
            let components = fast.snaps.map { router.snapper.smallComponent(edge: $0.edge) }
            if let first = components.first ?? nil, components.allSatisfy({ $0 == first }) { inSmallComponent += 1 }
        }
        #expect(routed >= 30, "only \(routed) of 300 routes on \(extract)")
        // Helgoland has no big component: routes there lie in small ones.
        if extract == "helgoland" { #expect(inSmallComponent > 0, "no route in a small component on helgoland") }
    }
}
