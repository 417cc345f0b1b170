import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Every profile's customization of its road set's hierarchy agrees exactly with Dijkstra on real extracts,
/// with and without avoidance, and a truck's dimensions only ever lengthen its routes.
@Suite struct ProfileRealExtractTests {
    static let extracts = ["monaco", "andorra", "malta"]

    static var cases: [(String, ProfileID)] { extracts.flatMap { extract in ProfileID.allCases.map { (extract, $0) } } }

    @Test(arguments: cases)
    func hierarchyEqualsDijkstra(extract: String, profile: ProfileID) throws {
        let car = try Fixtures.graph(extract)
        let graph = profile == .car ? car : try RoutingGraph(file: car.file, profile: profile)
        let router = Router(graph: graph)
        let points = randomRoadPoints(graph, count: 600, seed: 7)
        var options = RouteOptions()
        options.radius = 2000
        let truck = VehicleDimensions(height: 4.0, width: 2.55, weight: 40, axleLoad: 11.5)
        var variants: [(avoid: AvoidSet, vehicle: VehicleDimensions?)] = [(AvoidSet(), nil), (AvoidSet([.ferry, .highway]), nil)]
        if profile == .truck { variants.append((AvoidSet(), truck)) }
        for (avoid, vehicle) in variants {
            let metric = router.engine.metric(avoid: avoid, mode: .strict, traffic: nil, vehicle: vehicle)
            let (compared, reachable) = try compareHierarchyWithDijkstra(router: router, metric: metric, points: Array(points.prefix(600)),
                                                                         options: options, label: "\(profile) on \(extract) avoiding \(avoid.listed)")
            #expect(compared >= 250, "only \(compared) pairs snapped for \(profile) on \(extract)")
            #expect(reachable >= compared / 2, "only \(reachable) of \(compared) pairs reachable for \(profile) on \(extract)")
        }
    }

    /// Random truck dimension sets, each over the limits of a few limited ways of the extract (and random other
    /// dimensions): the partial customization gives exactly the metric a full customization gives (weights and middle
    /// nodes), on its own and on top of an avoid set, and the hierarchy equals Dijkstra with the same limits.
    @Test(arguments: extracts)
    func randomDimensionSetsMatchFullCustomizationAndDijkstra(extract: String) throws {
        let graph = try RoutingGraph(file: try Fixtures.graph(extract).file, profile: .truck)
        try #require(graph.limitEdge.count > 0, "\(extract) has no truck limits")
        let router = Router(graph: graph)
        let points = randomRoadPoints(graph, count: 200, seed: 16)
        var options = RouteOptions()
        options.radius = 2000
        var random = SeededGenerator(seed: 1616)
        for round in 0..<6 {
            var vehicle = VehicleDimensions()
            // Just over one to three stored limits, so that the set closes some ways.
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let index = Int.random(in: 0..<graph.limitEdge.count, using: &random)
                for kind in 0..<VehicleLimits.count {
                    let limit = graph.limitValues[index * VehicleLimits.count + kind]
                    guard limit != 0 else { continue }
                    let over = Double(limit) / VehicleLimits.kinds[kind].scale + 0.1
                    switch kind {
                    case 0: vehicle.height = max(vehicle.height ?? 0, over)
                    case 1: vehicle.width = max(vehicle.width ?? 0, over)
                    case 2: vehicle.length = max(vehicle.length ?? 0, over)
                    case 3: vehicle.weight = max(vehicle.weight ?? 0, over)
                    case 4: vehicle.axleLoad = max(vehicle.axleLoad ?? 0, over)
                    default: vehicle.hazmat = true
                    }
                }
            }
            if Bool.random(using: &random) { vehicle.length = max(vehicle.length ?? 0, Double.random(in: 8...20, using: &random)) }
            let closed = VehicleLimitCheck(graph: graph).violatingEdges(vehicle)
            #expect(!closed.isEmpty, "round \(round): \(vehicle) closes nothing on \(extract)")
            let avoid: AvoidSet = round % 2 == 0 ? [] : [.toll, .ferry]
            let metric = router.engine.metric(avoid: avoid, mode: .strict, traffic: nil, vehicle: vehicle)
            // Only closed ways changed: the weights are the avoid set's metric's, with those ways' routing nodes unusable.
            let base = router.engine.metric(avoid: avoid, mode: .strict, traffic: nil)
            // Every routing node of a closed way, the copies that via-way restrictions add included.
            let closedEdges = Set(closed)
            let closedNodes = Set((0..<graph.routingNodeCount).filter { closedEdges.contains(Int(graph.routingEdge[$0] >> 1)) })
            for node in 0..<graph.routingNodeCount {
                let expected = closedNodes.contains(node) ? CCHMetric.infinity : base.nodeWeight[node]
                if metric.nodeWeight[node] != expected {
                    Issue.record("round \(round) on \(extract): node \(node) weighs \(metric.nodeWeight[node]), expected \(expected)")
                    break
                }
            }
            let full = RoutingMetric.customized(graph, nodeWeight: metric.nodeWeight).hierarchy
            #expect(Array(metric.hierarchy.forward) == Array(full.forward), "round \(round) on \(extract): forward weights")
            #expect(Array(metric.hierarchy.backward) == Array(full.backward), "round \(round) on \(extract): backward weights")
            let usableBefore = closedNodes.contains { base.nodeWeight[$0] < CCHMetric.infinity }
            #expect(!usableBefore || Array(metric.hierarchy.forward) != Array(base.hierarchy.forward) || Array(metric.hierarchy.backward) != Array(base.hierarchy.backward),
                    "round \(round) on \(extract): closing \(closed.count) ways changed no hierarchy weight")
            let (compared, reachable) = try compareHierarchyWithDijkstra(router: router, metric: metric, points: points, options: options,
                                                                         label: "truck \(vehicle) on \(extract)")
            #expect(compared >= 80 && reachable >= compared / 2, "round \(round) on \(extract): \(reachable) of \(compared) pairs routed")
        }
    }

    /// Usable kilometres per profile: cars, trucks and motorcycles drive a subset of the motor road set; pedestrians
    /// walk more kilometres than cars drive.
    @Test(arguments: extracts)
    func profilesShareOneFile(extract: String) throws {
        let car = try Fixtures.graph(extract)
        let usable = try Dictionary(uniqueKeysWithValues: ProfileID.allCases.map { profile in
            (profile, ProfileUsage.kilometres(profile == .car ? car : try RoutingGraph(file: car.file, profile: profile)))
        })
        for profile in ProfileID.allCases { #expect((usable[profile] ?? 0) > 0, "\(profile) on \(extract)") }
        #expect((usable[.truck] ?? 0) <= (usable[.car] ?? 0) * 1.05)
        #expect((usable[.foot] ?? 0) > (usable[.car] ?? 0))
    }
}

/// An import of some profiles only (`navgraph import --profiles`): the file holds those (with each road set's first),
/// a profile left out is refused by code, and the car's hierarchy still equals Dijkstra on the car's own network.
@Suite struct ProfileSelectionTests {
    @Test func carAndFootOnlyHoldTheirRoadSetsAndRouteExactly() throws {
        let directory = Fixtures.workDirectory.appendingPathComponent("profile-selection")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("malta-car-foot.navgraph").path
        let metadata = try Importer.run(input: Fixtures.pbf("malta"), output: path, log: ProgressLog(quiet: true),
                                        profiles: [.car, .foot])
        #expect(metadata.profiles == ["car"])
        let car = try RoutingGraph(path: path)
        let foot = try RoutingGraph(file: car.file, profile: .foot)
        #expect(foot.metadata.profiles == ["bicycle", "foot"])
        for missing in [ProfileID.truck, .motorcycle, .escooter] {
            #expect(throws: NavGraphError.self) { try RoutingGraph(file: car.file, profile: missing) }
            do { _ = try RoutingGraph(file: car.file, profile: missing) } catch let error as NavGraphError { #expect(error.code == .noRoute) }
        }
        // The car's network without the truck's and motorcycle's ways: the same roads for the car, cut at fewer junctions.
        let full = try Fixtures.graph("malta")
        let selected = ProfileUsage.kilometres(car), all = ProfileUsage.kilometres(full)
        #expect(abs(selected - all) <= all * 1e-9, "car km \(selected) in the car-only file, \(all) in the full one")
        #expect(car.edgeCount <= full.edgeCount)
        let router = Router(graph: car)
        var options = RouteOptions()
        options.radius = 2000
        let metric = router.engine.metric(avoid: AvoidSet(), mode: .strict, traffic: nil, vehicle: nil)
        let (compared, reachable) = try compareHierarchyWithDijkstra(router: router, metric: metric, points: randomRoadPoints(car, count: 400, seed: 11),
                                                                     options: options, label: "car-only malta")
        #expect(compared >= 150 && reachable >= compared / 2, "\(compared) pairs compared, \(reachable) reachable")
    }
}
