import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Alternatives must be admissible: checked here independently of the implementation, with plain Dijkstra.
@Suite struct AlternativeRoutesTests {
    /// γ, α, ε as documented on AlternativeOptions; ε may grow by 1.2 for short trips and never grows for long ones.
    static let sharing = 0.75, optimality = 0.25, stretch = 0.25

    @Test(arguments: ["milan", "monaco", "porto", "andorra"])
    func alternativesAreAdmissible(extract: String) throws {
        let graph = try Fixtures.graph(extract)
        let router = Router(graph: graph)
        let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
        var options = RouteOptions()
        options.radius = 2000
        options.alternatives = 3
        let checker = AdmissibilityChecker(graph: graph, router: router, metric: metric)
        let points = randomRoadPoints(graph, count: 300, seed: 7)
        var routed = 0, withOne = 0, withTwo = 0
        for pair in 0..<150 {
            let waypoints = [points[2 * pair], points[2 * pair + 1]]
            guard let response = try? router.route(waypoints, options: options) else { continue }
            routed += 1
            let alternatives = Array(response.routes.dropFirst())
            if alternatives.count >= 1 { withOne += 1 }
            if alternatives.count >= 2 { withTwo += 1 }
            try checker.check(response, waypoints: waypoints, options: options, context: "\(extract) pair \(pair)")
        }
        let share = Double(withOne) / Double(max(1, routed))
        print(String(format: "alternatives on %@: >=1 for %.1f%%, >=2 for %.1f%% of %d routed pairs", extract,
                     100 * share, 100 * Double(withTwo) / Double(max(1, routed)), routed))
        #expect(routed >= 100)
        if extract == "milan" { #expect(share >= 0.6, "only \(share) of milan queries got an alternative") }
    }

    @Test func alternativesRespectAvoidance() throws {
        for (extract, avoid) in [("milan", AvoidSet([.highway, .trunk])), ("porto", AvoidSet([.toll, .highway]))] {
            let graph = try Fixtures.graph(extract)
            let router = Router(graph: graph)
            var options = RouteOptions()
            options.radius = 2000
            options.alternatives = 2
            options.avoid = avoid
            let metric = router.metric(avoid: avoid, mode: .strict, traffic: nil)
            let checker = AdmissibilityChecker(graph: graph, router: router, metric: metric)
            let points = randomRoadPoints(graph, count: 80, seed: 11)
            var alternatives = 0
            for pair in 0..<40 {
                let waypoints = [points[2 * pair], points[2 * pair + 1]]
                guard let response = try? router.route(waypoints, options: options) else { continue }
                for route in response.routes.dropFirst() {
                    alternatives += 1
                    for d in route.legs.flatMap(\.directedEdges) {
                        let hit = avoid.matches(roadClass: graph.roadClass(edge: d >> 1), flags: graph.flags(edge: d >> 1))
                        #expect(hit.isEmpty, "\(extract) pair \(pair): alternative uses avoided \(hit.listed)")
                    }
                }
                try checker.check(response, waypoints: waypoints, options: options, context: "\(extract) avoid pair \(pair)")
            }
            #expect(alternatives > 0, "no alternatives at all on \(extract) with avoidance")
        }
    }

    @Test func alternativesUseTraffic() throws {
        let graph = try Fixtures.graph("milan")
        let router = Router(graph: graph)
        var options = RouteOptions()
        options.radius = 2000
        options.alternatives = 2
        let points = randomRoadPoints(graph, count: 60, seed: 13)
        // Slow down every third segment of the graph threefold, in both directions.
        let traffic = TrafficOverlay(label: "test")
        for edge in stride(from: 0, to: graph.edgeCount, by: 3) {
            for segment in Int(graph.edgeShapeFirst[edge])..<(Int(graph.edgeShapeFirst[edge + 1]) - 1) {
                for direction in 0..<2 { traffic.set(segment: segment, direction: direction, timeFactor: 3, congestion: 70) }
            }
        }
        options.traffic = traffic
        let metric = router.metric(avoid: [], mode: .strict, traffic: traffic)
        let checker = AdmissibilityChecker(graph: graph, router: router, metric: metric)
        var alternatives = 0
        for pair in 0..<30 {
            let waypoints = [points[2 * pair], points[2 * pair + 1]]
            guard let response = try? router.route(waypoints, options: options) else { continue }
            for route in response.routes.dropFirst() {
                alternatives += 1
                // Durations come from the traffic metric: they exceed free flow wherever the route meets slowed roads.
                // The weight may also hold restricted-entry penalties (a route ending on a destination-only road), which
                // are not time.
                let weight = route.weight.truncatingRemainder(dividingBy: Double(TurnCosts.restrictedEntryMilliseconds) / 1000)
                #expect(abs(route.duration - weight) <= 0.01 * max(1, weight), "duration \(route.duration) vs weight \(route.weight)")
                #expect(route.durationTypical <= route.duration + 1e-6)
            }
            try checker.check(response, waypoints: waypoints, options: options, context: "milan traffic pair \(pair)")
        }
        #expect(alternatives > 0)
    }

    @Test func multiWaypointAlternatives() throws {
        let graph = try Fixtures.graph("milan")
        let router = Router(graph: graph)
        var options = RouteOptions()
        options.radius = 2000
        options.alternatives = 2
        let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
        let checker = AdmissibilityChecker(graph: graph, router: router, metric: metric)
        let points = randomRoadPoints(graph, count: 60, seed: 17)
        var alternatives = 0
        for trip in 0..<20 {
            let waypoints = Array(points[(3 * trip)..<(3 * trip + 3)])
            guard let response = try? router.route(waypoints, options: options) else { continue }
            alternatives += response.routes.count - 1
            try checker.check(response, waypoints: waypoints, options: options, context: "milan trip \(trip)")
        }
        #expect(alternatives > 0)
    }
}

/// Checks responses leg by leg: chains of allowed turns, stretch, sharing by directed-edge overlap, and local
/// optimality by Dijkstra on sliding windows of the unpacked path; plus leg continuity and ordering.
struct AdmissibilityChecker {
    let graph: RoutingGraph
    let router: Router
    let metric: RoutingMetric
    let dijkstra: DijkstraSearch

    init(graph: RoutingGraph, router: Router, metric: RoutingMetric) {
        self.graph = graph
        self.router = router
        self.metric = metric
        dijkstra = DijkstraSearch(graph: graph)
    }

    func check(_ response: RouteResponse, waypoints: [Coordinate], options: RouteOptions, context: String) throws {
        guard let primary = response.routes.first else { return }
        let alternatives = Array(response.routes.dropFirst())
        #expect(alternatives.count <= options.alternatives)
        #expect(!primary.isAlternate)
        let durations = alternatives.map(\.duration)
        #expect(durations == durations.sorted(), "\(context): alternatives not ranked by duration")
        let edgeLists = response.routes.map { $0.legs.map(\.directedEdges) }
        #expect(Set(edgeLists.map { $0.description }).count == edgeLists.count, "\(context): duplicate routes")
        let snaps = response.snaps
        #expect(snaps.count == waypoints.count)
        for route in alternatives {
            #expect(route.isAlternate)
            #expect(route.legs.count == primary.legs.count)
            #expect(route.divergeCoordinate != nil && route.mergeCoordinate != nil, "\(context): no diverge/merge point")
            for (leg, next) in zip(route.legs, route.legs.dropFirst()) {
                #expect(leg.coordinates.last == next.coordinates.first, "\(context): legs not continuous")
            }
        }
        var generator = SeededGenerator(seed: context.utf8.reduce(UInt64(5381)) { $0 &* 33 &+ UInt64($1) })
        for index in primary.legs.indices {
            guard let reference = router.legPath(from: snaps[index], to: snaps[index + 1], metric: metric, algorithm: .dijkstra) else {
                Issue.record("\(context): leg \(index) unreachable for Dijkstra")
                continue
            }
            let optimum = reference.cost
            #expect(Int((primary.legs[index].weight * 1000).rounded()) == optimum, "\(context): primary leg \(index) is not shortest")
            var seen: [[Int]] = [primary.legs[index].directedEdges]
            for route in alternatives where route.legs[index].directedEdges != primary.legs[index].directedEdges {
                let leg = route.legs[index]
                let label = "\(context) leg \(index)"
                if seen.contains(leg.directedEdges) { continue }
                let nodes = leg.routingNodes
                let cost = Int((leg.weight * 1000).rounded())
                try checkPath(Router.LegPath(cost: cost, nodes: nodes, source: snaps[index], target: snaps[index + 1]),
                              graph: graph, metric: metric, router: router)
                // Bounded stretch.
                let allowed = (1 + AlternativesTestLimits.stretch(seconds: Double(optimum) / 1000)) * Double(optimum)
                #expect(Double(cost) <= allowed + 1, "\(label): cost \(cost) exceeds stretch bound \(allowed) (optimum \(optimum))")
                // Limited sharing with the primary and every other alternative of this leg.
                for other in seen {
                    let shared = sharedWeight(leg.directedEdges, other)
                    #expect(Double(shared) <= AlternativeRoutesTests.sharing * Double(optimum) + 1,
                            "\(label): shares \(shared) ms of \(optimum) with an earlier route")
                }
                // Local optimality on sampled sliding windows.
                checkLocalOptimality(nodes, threshold: AlternativeRoutesTests.optimality * Double(optimum), samples: 24,
                                     generator: &generator, label: label)
                seen.append(leg.directedEdges)
            }
        }
    }

    /// Weight (ms) of the directed edges of `path` that `other` also drives.
    func sharedWeight(_ path: [Int], _ other: [Int]) -> Int {
        let reference = Set(other)
        return path.filter(reference.contains).reduce(0) { $0 + Int(metric.nodeWeight[Int(graph.routingNodeOfEdge[$1])]) }
    }

    /// From every start position of a short path, or from sampled ones of a long path, the longest window costing
    /// at most `threshold` must cost exactly the Dijkstra distance between its ends.
    func checkLocalOptimality(_ nodes: [Int], threshold: Double, samples: Int, generator: inout SeededGenerator, label: String) {
        guard nodes.count > 2 else { return }
        var starts = Set<Int>()
        if nodes.count <= samples {
            starts = Set(0..<(nodes.count - 1))
        } else {
            for _ in 0..<samples { starts.insert(Int.random(in: 0..<(nodes.count - 1), using: &generator)) }
        }
        for start in starts.sorted() {
            var end = start, cost = 0
            func step(_ index: Int) -> Int {
                Int(metric.nodeWeight[nodes[index]]) + Int(metric.turnCost(graph, from: nodes[index - 1], to: nodes[index]) ?? 0)
            }
            while end + 1 < nodes.count, Double(cost + step(end + 1)) <= threshold {
                end += 1
                cost += step(end)
            }
            guard end > start else { continue }
            let found = dijkstra.search(sources: [Endpoint(node: nodes[start], cost: 0)], targets: [Endpoint(node: nodes[end], cost: 0)], metric: metric)
            #expect(found?.cost == cost, "\(label): window \(start)...\(end) costs \(cost) ms, shortest \(String(describing: found?.cost))")
        }
    }
}

/// The stretch allowance the documentation promises: ε × 1.2 at most (short trips), ε beyond 30 minutes.
enum AlternativesTestLimits {
    static func stretch(seconds: Double) -> Double {
        seconds < 1800 ? AlternativeRoutesTests.stretch * 1.2 : AlternativeRoutesTests.stretch
    }
}
