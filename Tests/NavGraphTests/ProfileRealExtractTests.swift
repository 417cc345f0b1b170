import Foundation
import NavGraph
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
            var compared = 0, reachable = 0
            for pair in 0..<300 {
                guard let source = try? router.snap(points[2 * pair], index: 0, options: options, metric: metric),
                      let target = try? router.snap(points[2 * pair + 1], index: 1, options: options, metric: metric) else { continue }
                let fast = router.legPath(from: source, to: target, metric: metric, algorithm: .hierarchy)
                let reference = router.legPath(from: source, to: target, metric: metric, algorithm: .dijkstra)
                compared += 1
                #expect(fast?.cost == reference?.cost, "\(profile) pair \(pair) on \(extract) avoiding \(avoid.listed): hierarchy \(String(describing: fast?.cost)) vs Dijkstra \(String(describing: reference?.cost))")
                guard let fast else { continue }
                reachable += 1
                try checkPath(fast, graph: graph, metric: metric, router: router)
            }
            #expect(compared >= 250, "only \(compared) pairs snapped for \(profile) on \(extract)")
            #expect(reachable >= compared / 2, "only \(reachable) of \(compared) pairs reachable for \(profile) on \(extract)")
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
