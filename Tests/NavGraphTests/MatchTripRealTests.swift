import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Map matching and trips on the real extracts: noisy traces sampled from real routes match back onto them, the trip
/// programme equals brute force, and the heuristic stays near the optimum.
@Suite struct MatchTripRealTests {
    /// Points every `step` metres along a line.
    static func resample(_ line: [Coordinate], step: Double) -> [Coordinate] {
        guard var previous = line.first else { return [] }
        var points = [previous], carried = 0.0
        for next in line.dropFirst() {
            let length = Geo.haversine(previous, next)
            var at = step - carried
            while at <= length {
                let t = at / length
                points.append(Coordinate(lat: previous.lat + (next.lat - previous.lat) * t, lon: previous.lon + (next.lon - previous.lon) * t))
                at += step
            }
            carried = length - (at - step)
            previous = next
        }
        return points
    }

    /// Metres from a point to a polyline.
    static func distance(_ point: Coordinate, to line: [Coordinate]) -> Double {
        let scale = cos(point.lat * .pi / 180)
        var best = Double.infinity
        for (a, b) in zip(line, line.dropFirst()) {
            best = min(best, Geo.project(point, ontoSegmentFrom: a, to: b, longitudeScale: scale).distance)
        }
        return best
    }

    @Test(arguments: ["monaco", "andorra"])
    func realNoisyTracesMatchBackWithHighRecall(extract: String) throws {
        let graph = try Fixtures.graph(extract)
        let router = Router(graph: graph)
        let ends = randomRoadPoints(graph, count: 100, seed: 11)
        var random = SeededGenerator(seed: 5)
        var recalls: [Double] = []
        for pair in stride(from: 0, to: ends.count - 1, by: 2) {
            guard let route = try? router.route([ends[pair], ends[pair + 1]]), let primary = route.routes.first,
                  primary.distance > 500, primary.distance < 15_000 else { continue }
            let truth = primary.coordinates
            let samples = Self.resample(truth, step: 40)
            let trace = samples.map { TracePoint(coordinate: CraftedMatchTests.noisy($0, sigma: 5, &random), sigma: 5) }
            let result = MapMatcher(router: router).match(trace)
            let lines = result.matchings.map { matching in
                matching.paths.flatMap { router.buildLeg($0, metric: result.metric, names: nil).coordinates }
            }
            let checks = Self.resample(truth, step: 5)
            let near = checks.filter { point in lines.contains { Self.distance(point, to: $0) <= 15 } }.count
            recalls.append(Double(near) / Double(max(1, checks.count)))
        }
        #expect(recalls.count >= 10)
        let median = recalls.sorted()[recalls.count / 2]
        #expect(median >= 0.95, "median recall \(median) over \(recalls.count) traces on \(extract)")
    }

    /// The duration matrix between random road points, in seconds.
    static func matrix(_ router: Router, _ points: [Coordinate]) throws -> [Double] {
        let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
        var options = RouteOptions()
        options.radius = 5_000
        let snaps = try points.indices.map { try router.snap(points[$0], index: $0, options: options, metric: metric) }
        let table = BucketManyToMany(router: router, metric: metric, attributes: []).compute(sources: snaps, destinations: snaps)
        return (0..<(points.count * points.count)).map { table.cost[$0] == TravelMatrix.unreachable ? TripSolver.unreachable : Double(table.cost[$0]) / 1000 }
    }

    @Test func realTripProgrammeEqualsBruteForceAndHeuristicIsClose() throws {
        let graph = try Fixtures.graph("monaco")
        let router = Router(graph: graph)
        var seed: UInt64 = 100
        for n in [4, 6, 8, 10, 11, 12] {
            for roundtrip in [true, false] {
                seed += 1
                let cost = try Self.matrix(router, randomRoadPoints(graph, count: n, seed: seed))
                let solver = TripSolver(count: n, cost: cost, roundtrip: roundtrip)
                let exact = solver.tourCost(solver.exact())
                if n <= 8 {
                    #expect(abs(exact - CraftedMatchTests.bruteForce(solver)) < 1e-6, "n=\(n) roundtrip=\(roundtrip)")
                } else {
                    let heuristic = solver.tourCost(solver.heuristic())
                    #expect(heuristic >= exact - 1e-6)
                    #expect(heuristic <= exact * 1.03, "n=\(n) roundtrip=\(roundtrip): heuristic \(heuristic) s, optimum \(exact) s")
                }
            }
        }
    }
}
