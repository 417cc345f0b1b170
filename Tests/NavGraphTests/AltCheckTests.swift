import AltCheck
import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// The peer-alternatives checker behind `navgraph-altcheck`: geometry matching and the admissibility judge, on monaco.
@Suite struct AltCheckTests {
    struct Setup {
        let graph: RoutingGraph, router: Router, matcher: GeometryMatcher, judge: AdmissibilityJudge, options: RouteOptions

        init() throws {
            graph = try Fixtures.graph("monaco")
            router = Router(graph: graph)
            let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
            matcher = GeometryMatcher(graph: graph, metric: metric)
            judge = AdmissibilityJudge(graph: graph, metric: metric)
            var options = RouteOptions()
            options.radius = 2000
            options.alternatives = 3
            self.options = options
        }

        /// Routes of random pairs that have at least one alternative.
        func responses(count: Int, seed: UInt64) -> [RouteResponse] {
            let points = randomRoadPoints(graph, count: 2 * count, seed: seed)
            return (0..<count).compactMap { try? router.route([points[2 * $0], points[2 * $0 + 1]], options: options) }
                .filter { $0.routes.count > 1 }
        }
    }

    /// Geometry as the peers print it: six decimals.
    static func printed(_ route: Route) -> [Coordinate] {
        route.coordinates.map { Coordinate(lat: ($0.lat * 1e6).rounded() / 1e6, lon: ($0.lon * 1e6).rounded() / 1e6) }
    }

    @Test func navgraphRoutesMatchBackAndPass() throws {
        let setup = try Setup()
        let responses = setup.responses(count: 80, seed: 23)
        #expect(responses.count >= 20)
        for (number, response) in responses.enumerated() {
            let matched = response.routes.map { setup.matcher.match(Self.printed($0)) }
            for (route, result) in zip(response.routes, matched) {
                let path = try #require(try? result.get(), "response \(number): \(result)")
                let nodes = route.legs.flatMap(\.directedEdges)
                let matchedEdges = path.nodes.map { Int(setup.graph.routingEdge[$0]) }
                // An end edge driven for zero metres leaves no trace in the geometry; otherwise the edges are navgraph's.
                #expect([nodes, Array(nodes.dropFirst()), Array(nodes.dropLast()), Array(nodes.dropFirst().dropLast())].contains(matchedEdges),
                        "response \(number): matched \(path.nodes), routed \(nodes)")
                let weight = route.weight * 1000
                #expect(abs(Double(path.cost) - weight) <= 0.002 * weight + 2, "response \(number): cost \(path.cost), weight \(weight)")
            }
            let verdicts = setup.judge.verdicts(matched, optimum: Int((response.routes[0].weight * 1000).rounded()))
            let failing = verdicts.dropFirst().filter { !$0.passes }
            #expect(failing.isEmpty, "response \(number): \(verdicts)")
        }
    }

    @Test func judgeRejectsCopiesDetoursAndOffRoadPoints() throws {
        let setup = try Setup()
        var detours = 0
        for response in setup.responses(count: 40, seed: 29) {
            let primary = setup.matcher.match(Self.printed(response.routes[0]))
            let optimum = Int((response.routes[0].weight * 1000).rounded())
            let path = try primary.get()
            // The primary offered again shares everything with itself.
            let copy = setup.judge.verdicts([primary, primary], optimum: optimum)
            #expect(copy[1].failsSharing && !copy[1].failsLocalOptimality && !copy[1].failsStretch)
            // An alternative between the same routing nodes that costs more is no shortest path as a whole.
            for alternative in response.routes.dropFirst() {
                let other = try setup.matcher.match(Self.printed(alternative)).get()
                guard other.nodes.first == path.nodes.first, other.nodes.last == path.nodes.last, other.cost > path.cost else { continue }
                detours += 1
                #expect(!setup.judge.isLocallyOptimal(other.nodes, threshold: Int.max / 2))
                #expect(setup.judge.isLocallyOptimal(path.nodes, threshold: Int.max / 2))
            }
            // A point 50 m off the road is no segment of the graph.
            var points = Self.printed(response.routes[0])
            guard points.count > 4 else { continue }
            points[points.count / 2].lat += 0.00045
            #expect(setup.matcher.match(points) == .failure(.road))
        }
        #expect(detours > 5)
    }
}
