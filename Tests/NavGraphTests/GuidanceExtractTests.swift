import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Guidance on random routes of every shared extract: steps frame the leg and add up to it exactly.
@Suite struct GuidanceExtractTests {
    @Test(arguments: Fixtures.extracts)
    func stepsCoverTheLegExactly(extract: String) throws {
        let graph = try Fixtures.graph(extract)
        let router = Router(graph: graph)
        let points = randomRoadPoints(graph, count: 60, seed: 0x5EED_6D1D)
        var routed = 0
        for pair in stride(from: 0, to: points.count - 1, by: 2) {
            guard var response = try? router.route([points[pair], points[pair + 1]]) else { continue }
            router.addSteps(to: &response)
            for leg in response.routes[0].legs {
                routed += 1
                let steps = leg.steps
                try #require(steps.count >= 2)
                #expect(steps.first?.maneuver.type == .depart)
                #expect(steps.last?.maneuver.type == .arrive)
                #expect(steps.dropFirst().dropLast().allSatisfy { $0.maneuver.type != .depart && $0.maneuver.type != .arrive })
                // Geometry: each step starts where the previous ended; together they are the leg's coordinates.
                #expect(steps.first?.geometryRange.lowerBound == 0)
                #expect(steps.last?.geometryRange == (leg.coordinates.count - 1)...(leg.coordinates.count - 1))
                var joined: [Coordinate] = []
                for (index, step) in steps.enumerated() {
                    if index > 0 { #expect(step.geometryRange.lowerBound == steps[index - 1].geometryRange.upperBound) }
                    let piece = leg.coordinates[step.geometryRange]
                    joined += joined.isEmpty ? Array(piece) : Array(piece.dropFirst())
                    #expect(step.maneuver.location == leg.coordinates[step.geometryRange.lowerBound])
                    #expect(step.distance >= -1e-9 && step.duration >= -1e-9)
                    for intersection in step.intersections {
                        #expect(intersection.bearings.count == intersection.entry.count)
                        #expect(intersection.geometryIndex >= step.geometryRange.lowerBound && intersection.geometryIndex <= step.geometryRange.upperBound)
                        if let out = intersection.outIndex { #expect(intersection.entry.indices.contains(out) && intersection.entry[out]) }
                        if let inIndex = intersection.inIndex { #expect(intersection.bearings.indices.contains(inIndex)) }
                    }
                }
                if steps.count == 2 { joined.append(leg.coordinates[leg.coordinates.count - 1]) }
                #expect(joined == leg.coordinates || (steps.count == 2 && Array(joined.dropLast()) == leg.coordinates))
                let distance = steps.reduce(0) { $0 + $1.distance }, duration = steps.reduce(0) { $0 + $1.duration }
                let weight = steps.reduce(0) { $0 + $1.weight }
                #expect(abs(distance - leg.distance) <= 1e-6 * max(1, leg.distance))
                #expect(abs(duration - leg.duration) <= 1e-6 * max(1, leg.duration))
                #expect(abs(weight - leg.weight) <= 1e-6 * max(1, leg.weight))
                // Exit numbers on leaving a ring, and on entering one the leg also leaves (a leg may end inside it).
                for (index, step) in steps.enumerated() where [.exitRoundabout, .exitRotary].contains(step.maneuver.type) {
                    #expect((step.maneuver.exit ?? 0) >= 1)
                    if index > 0, [.roundabout, .rotary].contains(steps[index - 1].maneuver.type) {
                        #expect(steps[index - 1].maneuver.exit == step.maneuver.exit)
                    }
                }
            }
        }
        // Helgoland has few car roads: most random points there lie on islands of the road network.
        #expect(routed >= (extract == "helgoland" ? 1 : 10), "only \(routed) of 30 random pairs routed on \(extract)")
    }

    /// The step builder's caches (junction slots, edge heads, the turn memo, the intersection memo) change nothing: a
    /// router that has built steps for other routes through the same junctions, and for these ones before, gives the
    /// same steps (intersections included) as a fresh one.
    @Test(arguments: ["malta", "porto", "milan"])
    func warmCachesGiveTheSameSteps(extract: String) throws {
        let graph = try Fixtures.graph(extract)
        let warm = Router(graph: graph)
        let points = randomRoadPoints(graph, count: 80, seed: 0x7E44_0C0D)
        let pairs = stride(from: 0, to: points.count - 1, by: 2).map { (points[$0], points[$0 + 1]) }
        // Fill the warm router's caches with crossing routes (each source to another pair's target) and the routes themselves.
        for (index, pair) in pairs.enumerated() {
            for target in [pairs[(index + 7) % pairs.count].1, pair.1] {
                guard var response = try? warm.route([pair.0, target]) else { continue }
                warm.addSteps(to: &response)
            }
        }
        var compared = 0, steps = 0
        for pair in pairs {
            guard var cold = try? Router(graph: graph).route([pair.0, pair.1]), var again = try? warm.route([pair.0, pair.1]) else { continue }
            Router(graph: graph).addSteps(to: &cold)
            warm.addSteps(to: &again)
            #expect(cold.routes[0].legs[0].steps == again.routes[0].legs[0].steps)
            compared += 1
            steps += again.routes[0].legs[0].steps.count
        }
        #expect(compared >= 30)
        #expect(steps >= 5 * compared)
    }

    /// Malta and the Isle of Man drive on the left; Monaco and Milan on the right.
    @Test func drivingSideByLocation() throws {
        for (extract, side) in [("malta", "left"), ("isle-of-man", "left"), ("monaco", "right"), ("milan", "right")] {
            let graph = try Fixtures.graph(extract)
            let router = Router(graph: graph)
            let points = randomRoadPoints(graph, count: 2, seed: 7)
            guard var response = try? router.route(points) else { continue }
            router.addSteps(to: &response)
            #expect(response.routes[0].legs[0].steps.allSatisfy { $0.drivingSide == side }, "\(extract)")
        }
    }

    /// A file of the previous format version is refused with a message naming the file, both versions and the fix.
    @Test func previousFormatVersionAsksForReimport() throws {
        let source = try Fixtures.graph("monaco").file.path
        let path = Fixtures.workDirectory.appendingPathComponent("old-format.navgraph").path
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: source, toPath: path)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 8)
        try handle.write(contentsOf: Data([UInt8(GraphFileFormat.version - 1), 0, 0, 0]))
        try handle.close()
        let error = #expect(throws: NavGraphError.self) { try RoutingGraph(path: path) }
        #expect(error?.message.contains(path) == true)
        #expect(error?.message.contains("version \(GraphFileFormat.version - 1)") == true)
        #expect(error?.message.contains("version \(GraphFileFormat.version)") == true)
        #expect(error?.message.contains("re-import") == true)
        #expect(error?.code == .badFile)
    }
}
