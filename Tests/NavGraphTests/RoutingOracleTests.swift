import Foundation
import NavGraph
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
}
