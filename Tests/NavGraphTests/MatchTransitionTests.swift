import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// The matcher's local transition search against the hierarchy's bounded bucket table on a real extract, and
/// candidates per pass of an edge on a drawn hairpin.
@Suite struct MatchTransitionTests {
    /// A hairpin: one way up from A to B, 16 m across to C and back down to D, 200 m each leg (one road edge).
    static func hairpin() throws -> DrawnMap {
        try MapDrawing("""
            B-C
            | |
            | |
            | |
            A D
            """, gridMetres: 8, lineMetres: 50, anchor: "A", ways: [("ABCD", ["highway": "residential", "name": "Hairpin Road"])])
            .importGraph(named: "match-hairpin")
    }

    /// A car drives up the west leg at 10 m/s; every third fix lies 9 m east of it, nearer the east leg (7 m) than
    /// its own. The edge is a candidate once per pass, so the whole climb is one matching on the west leg.
    @Test func hairpinLegsAreCandidatesOfTheirOwn() throws {
        let map = try Self.hairpin()
        let trace = (1...19).map { step in
            TracePoint(coordinate: map.point("A", east: step % 3 == 0 ? 9 : 1, north: Double(step) * 10),
                       timestamp: 1_700_000_000 + Double(step), sigma: 5)
        }
        let result = MapMatcher(router: Router(graph: map.graph)).match(trace)
        #expect(result.matchings.count == 1)
        let matching = try #require(result.matchings.first)
        #expect(matching.pointIndices.count == trace.count)
        for snap in matching.snaps {
            #expect(abs(snap.point.lon - map["A"].lon) < 1e-6, "matched on the west leg: \(snap.point)")
        }
        // Offsets grow: the car climbs, never jumps to the other leg and back.
        let offsets = matching.snaps.map(\.offset)
        #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// On monaco: for candidates around random points 20–200 m apart, every cell the bucket table finds within the
    /// limit has the same cost in the local search, no local cell is cheaper than the table's, and each local cell's
    /// route (`path`) is a chain of turns with that cost; all of it with and without the goal (the second point and
    /// its candidates' reach) that prunes the search.
    @Test func localSearchAgreesWithTheBoundedTable() throws {
        let graph = try Fixtures.graph("monaco")
        let router = Router(graph: graph)
        let metric = router.engine.metric(avoid: [], mode: .strict, traffic: nil, vehicle: nil)
        let table = BucketManyToMany(router: router, metric: metric, attributes: .distance)
        table.strategy = .buckets
        table.threads = 1
        let local = TransitionSearch(graph: graph, metric: metric)
        let finder = MatchCandidateFinder(graph: graph, snapper: router.snapper)
        let lengths = SegmentLengthCache(graph: graph)
        let planner = RoutePlanner(graph: graph, costs: router.costs)
        let model = MatchModel()
        var random = SeededGenerator(seed: 7)
        var compared = 0, within = 0
        var nearest: [Snap] = [], found: [Snap] = []
        for _ in 0..<60 {
            let edge = Int.random(in: 0..<graph.edgeCount, using: &random)
            let start = Fixtures.midpoint(of: edge, in: graph)
            let metres = Double.random(in: 20...200, using: &random), angle = Double.random(in: 0..<(2 * .pi), using: &random)
            let end = Coordinate(lat: start.lat + metres * cos(angle) / 111_195,
                                 lon: start.lon + metres * sin(angle) / (111_195 * cos(start.lat * .pi / 180)))
            finder.candidates(around: start, radius: 40, maximumEdges: 12, metric: metric, lengths: lengths, nearest: &nearest, into: &found)
            let sources: [MatrixPoint?] = found.map { table.point($0, planner: planner) }
            finder.candidates(around: end, radius: 40, maximumEdges: 12, metric: metric, lengths: lengths, nearest: &nearest, into: &found)
            let targets: [MatrixPoint?] = found.map { table.point($0, planner: planner) }
            guard !sources.isEmpty, !targets.isEmpty else { continue }
            let limit = 3 * metres + 60, bound = model.costBound(metres: limit)
            table.costBound = bound
            let bucket = table.compute(sourcePoints: sources, targetPoints: targets, planner: planner, loopMetres: limit)
            let reach = found.reduce(0) { max($0, $1.distance) }
            for goal in [nil, TransitionSearch.Goal(point: end, radius: reach)] {
                let mine = local.compute(sources: sources, targets: targets, costBound: bound, limitMetres: limit, allowLoops: true, goal: goal)
                for row in sources.indices {
                    for column in targets.indices {
                        let cell = row * targets.count + column
                        compared += 1
                        let tableCost = bucket.cost[cell], localCost = mine.cost[cell]
                        if tableCost != TravelMatrix.unreachable, let distance = bucket.distance?[cell], distance <= limit - 1 {
                            within += 1
                            #expect(localCost == tableCost, "cell \(row),\(column) around \(start): local \(localCost), table \(tableCost)")
                        }
                        guard localCost != TravelMatrix.unreachable else { continue }
                        #expect(tableCost != TravelMatrix.unreachable && localCost >= tableCost)
                        guard let source = sources[row], let target = targets[column],
                              let path = local.path(from: source, to: target, costBound: bound, limitMetres: limit, goal: goal) else {
                            Issue.record("no path for a reachable local cell \(row),\(column) around \(start)")
                            continue
                        }
                        #expect(path.cost == Int(localCost))
                        for (from, to) in zip(path.nodes, path.nodes.dropFirst()) {
                            let arcs = Int(graph.cch.turnFirstOut[from])..<Int(graph.cch.turnFirstOut[from + 1])
                            #expect(arcs.contains { Int(graph.cch.turnHead[$0]) == to }, "no turn from \(from) to \(to)")
                        }
                    }
                }
            }
        }
        #expect(within > 500, "only \(within) of \(compared) cells compared within the limit")
    }

    /// On monaco: a matrix point and an offset along an edge made with the cache's segment lengths are
    /// bit-identical to those measured by walking the edge (both directions, snaps anywhere on the edge, the cache
    /// asked again for edges it holds).
    @Test func segmentLengthCacheGivesTheWalksValues() throws {
        let graph = try Fixtures.graph("monaco")
        let router = Router(graph: graph)
        let metric = router.engine.metric(avoid: [], mode: .strict, traffic: nil, vehicle: nil)
        let table = BucketManyToMany(router: router, metric: metric, attributes: .distance)
        let planner = RoutePlanner(graph: graph, costs: router.costs)
        let lengths = SegmentLengthCache(graph: graph)
        var random = SeededGenerator(seed: 11)
        var compared = 0
        for _ in 0..<400 {
            let edge = Int.random(in: 0..<min(graph.edgeCount, 300), using: &random)
            let first = Int(graph.edgeShapeFirst[edge]), last = Int(graph.edgeShapeFirst[edge + 1]) - 1
            guard last > first else { continue }
            let segment = Int.random(in: first..<last, using: &random)
            var snap = Snap(edge: edge, offset: Double.random(in: 0...1, using: &random), segment: segment,
                            point: graph.coordinate(shapePoint: segment), distance: 3)
            let walked = router.snapper.offsetAlongEdge(snap)
            let cached = lengths.withLengths(ofEdge: edge) { router.snapper.offsetAlongEdge(snap, segmentLengths: $0) }
            #expect(walked.bitPattern == cached.bitPattern, "edge \(edge) segment \(segment): \(walked) walked, \(cached) cached")
            snap.offset = walked
            for direction in 0..<2 {
                snap.directions = .of(directedEdge: direction)
                let plain = table.point(snap, planner: planner)
                let fast = lengths.withLengths(ofEdge: edge) { table.point(snap, planner: planner, segmentLengths: $0) }
                #expect(plain.partial.map(\.cost) == fast.partial.map(\.cost))
                #expect(plain.sources.map(\.cost) == fast.sources.map(\.cost) && plain.targets.map(\.cost) == fast.targets.map(\.cost))
                #expect(plain.sources.map(\.values.0.bitPattern) == fast.sources.map(\.values.0.bitPattern))
                #expect(plain.targets.map(\.values.0.bitPattern) == fast.targets.map(\.values.0.bitPattern))
                compared += plain.sources.count
            }
        }
        #expect(compared > 300, "only \(compared) directed snaps compared")
    }
}
