import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Many-to-many matrices: every cell against the pairwise leg, the routed leg's distance and duration, and Dijkstra.
@Suite struct MatrixTests {
    /// A metric variant a matrix is checked under.
    struct Variant {
        var name: String
        var avoid: AvoidSet = []
        var mode: AvoidMode = .strict
        var traffic: TrafficOverlay?
    }

    /// Random slowdowns (×1–3) on a third of the segments in each direction and a few closed ones.
    static func randomTraffic(_ graph: RoutingGraph, seed: UInt64) -> TrafficOverlay {
        var generator = SeededGenerator(seed: seed)
        let overlay = TrafficOverlay(label: "random")
        for point in 0..<graph.shapeLatE7.count {
            for direction in 0..<2 where Int.random(in: 0..<3, using: &generator) == 0 {
                let closed = Int.random(in: 0..<200, using: &generator) == 0
                overlay.set(segment: point, direction: direction, timeFactor: closed ? .infinity : Double.random(in: 1...3, using: &generator),
                            congestion: nil)
            }
        }
        return overlay
    }

    /// Points of small strongly connected components (islands), at edge midpoints, that snap onto their island.
    static func islandPoints(_ graph: RoutingGraph, router: Router, count: Int) -> [Coordinate] {
        var sizes: [UInt32: Int] = [:]
        for node in 0..<graph.routingNodeCount { sizes[graph.routingComponent[node], default: 0] += 1 }
        let main = sizes.max { $0.value < $1.value }?.key
        let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
        var points: [Coordinate] = []
        for node in 0..<graph.routingNodeCount where graph.routingComponent[node] != main {
            let point = Fixtures.midpoint(of: Int(graph.routingEdge[node]) >> 1, in: graph)
            guard let snap = try? router.snap(point, index: 0, options: RouteOptions(), metric: metric) else { continue }
            let nodes = [graph.routingNodeOfEdge[2 * snap.edge], graph.routingNodeOfEdge[2 * snap.edge + 1]].filter { $0 >= 0 }
            guard !nodes.isEmpty, nodes.allSatisfy({ graph.routingComponent[Int($0)] != main }) else { continue }
            points.append(point)
            if points.count == count { break }
        }
        return points
    }

    struct Tally { var cells = 0, unreachable = 0, compared = 0, dijkstra = 0 }

    /// Computes the matrix and checks every cell; returns counts.
    func check(_ graph: RoutingGraph, router: Router, variant: Variant, sources points: [Coordinate], destinations: [Coordinate],
               dijkstraRows: Int) throws -> Tally {
        var options = RouteOptions()
        options.avoid = variant.avoid; options.avoidMode = variant.mode; options.traffic = variant.traffic
        let metric = router.metric(avoid: variant.avoid, mode: variant.mode, traffic: variant.traffic)
        let sources = points.enumerated().map { try? router.snap($0.element, index: $0.offset, options: options, metric: metric) }
        let targets = destinations.enumerated().map { try? router.snap($0.element, index: $0.offset, options: options, metric: metric) }
        let full = BucketManyToMany(router: router, metric: metric, attributes: [.distance, .duration]).compute(sources: sources, destinations: targets)
        let plain = BucketManyToMany(router: router, metric: metric, attributes: []).compute(sources: sources, destinations: targets)
        let small = BucketManyToMany(router: router, metric: metric, attributes: [.distance])
        small.chunkSize = 4   // several bucket passes
        let chunked = small.compute(sources: sources, destinations: targets)
        let sweeping = BucketManyToMany(router: router, metric: metric, attributes: [])
        sweeping.strategy = .sweep
        let swept = sweeping.compute(sources: sources, destinations: targets)
        #expect(swept.algorithm.hasPrefix("RPHAST"), "\(variant.name): sweep not used (\(swept.algorithm))")
        let bucketing = BucketManyToMany(router: router, metric: metric, attributes: [])
        bucketing.strategy = .buckets
        let bucketed = bucketing.compute(sources: sources, destinations: targets)
        #expect(bucketed.algorithm.hasPrefix("CCH buckets"), "\(variant.name): buckets not used (\(bucketed.algorithm))")
        #expect(full.cost == plain.cost && full.cost == chunked.cost, "\(variant.name): costs depend on what is carried or on chunking")
        #expect(swept.cost == full.cost && bucketed.cost == full.cost, "\(variant.name): sweep and bucket costs differ")
        var tally = Tally()
        for (row, source) in sources.enumerated() {
            for (column, target) in targets.enumerated() {
                tally.cells += 1
                let cost = full.cost[row * targets.count + column]
                guard let source, let target else {
                    #expect(cost == TravelMatrix.unreachable)
                    continue
                }
                let leg = router.legPath(from: source, to: target, metric: metric, algorithm: .hierarchy)
                #expect(leg.map { UInt32($0.cost) } ?? TravelMatrix.unreachable == cost,
                        "\(variant.name) cell \(row),\(column): matrix \(cost) ms, leg \(leg?.cost ?? -1) ms")
                if row < dijkstraRows {
                    let reference = router.legPath(from: source, to: target, metric: metric, algorithm: .dijkstra)
                    #expect(reference.map { UInt32($0.cost) } ?? TravelMatrix.unreachable == cost,
                            "\(variant.name) cell \(row),\(column): matrix \(cost) ms, Dijkstra \(reference?.cost ?? -1) ms")
                    tally.dijkstra += 1
                }
                guard cost != TravelMatrix.unreachable else { tally.unreachable += 1; continue }
                // The routed leg (same snaps unless the router fell back from an island): its distance and duration.
                guard let response = try? router.route([points[row], destinations[column]], options: options),
                      response.snaps.count == 2, response.snaps[0].edge == source.edge, response.snaps[0].offset == source.offset,
                      response.snaps[1].edge == target.edge, response.snaps[1].offset == target.offset else { continue }
                let routed = response.routes[0].legs[0]
                let metres = full.metres(row, column) ?? -1, seconds = full.duration(row, column) ?? -1
                #expect(abs(metres - routed.distance) <= 1e-6 * max(1, routed.distance),
                        "\(variant.name) cell \(row),\(column): matrix \(metres) m, route \(routed.distance) m")
                #expect(abs(seconds - routed.duration) <= 1e-6 * max(1, routed.duration),
                        "\(variant.name) cell \(row),\(column): matrix \(seconds) s, route \(routed.duration) s")
                #expect(abs(Double(cost) / 1000 - routed.weight) < 1e-9)
                // Without the exact duration carried, durations are the cost: within the metric's ms rounding
                // (1 ms per partial edge, 0.5 ms per edge under traffic).
                let rounding = 0.002 + (variant.traffic == nil ? 0 : 0.0005 * Double(routed.directedEdges.count))
                if variant.mode == .strict || variant.avoid.isEmpty {
                    #expect(abs((plain.duration(row, column) ?? -1) - routed.duration) <= rounding)
                }
                tally.compared += 1
            }
        }
        return tally
    }

    @Test(arguments: Fixtures.extracts)
    func matricesEqualLegsAndDijkstra(extract: String) throws {
        let graph = try Fixtures.graph(extract)
        let router = Router(graph: graph)
        let points = randomRoadPoints(graph, count: 35, seed: 1500 + UInt64(extract.count))
        let islands = Self.islandPoints(graph, router: router, count: 2)
        var sources = Array(points[0..<20]) + islands
        var destinations = Array(points[20..<35])
        destinations += [sources[0], sources[3], sources[7]]   // sources equal to destinations
        sources[5] = destinations[2]
        let traffic = Self.randomTraffic(graph, seed: 77)
        let variants = [
            Variant(name: "free flow"),
            Variant(name: "avoid toll+highway", avoid: [.toll, .highway]),
            Variant(name: "avoid ferry+highway+trunk prefer", avoid: [.ferry, .highway, .trunk], mode: .prefer),
            Variant(name: "traffic", traffic: traffic),
            Variant(name: "traffic avoid highway", avoid: [.highway], traffic: traffic),
        ]
        var total = Tally()
        for (index, variant) in variants.enumerated() {
            let tally = try check(graph, router: router, variant: variant, sources: sources, destinations: destinations,
                                  dijkstraRows: index == 0 ? sources.count : 4)
            total.cells += tally.cells; total.unreachable += tally.unreachable; total.compared += tally.compared; total.dijkstra += tally.dijkstra
        }
        // Reachable cells not compared are those where the router replaced an island snap by a main-network one.
        let reachable = total.cells - total.unreachable
        #expect(total.compared * 10 >= reachable * 9, "\(extract): only \(total.compared) of \(reachable) reachable cells compared with routed legs")
        print("matrix \(extract): \(total.cells) cells, \(total.compared) vs routed legs, \(total.dijkstra) vs Dijkstra, \(total.unreachable) unreachable, \(islands.count) island points")
    }

    /// A bounded table (map matching's steps) has every cell of cost up to its bound exactly as the full table has
    /// it, same-edge cells included, and leaves every dearer cell unreachable; its metres are a cheapest path's.
    @Test(arguments: ["monaco", "andorra"])
    func boundedTablesEqualFullTablesWithinTheirBound(extract: String) throws {
        let graph = try Fixtures.graph(extract)
        let router = Router(graph: graph)
        let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
        var points = randomRoadPoints(graph, count: 30, seed: 4200 + UInt64(extract.count))
        // Pairs of points a few metres apart on one road, both ways: the cells that lie on one edge.
        for index in 0..<6 { points.append(Coordinate(lat: points[index].lat + 0.00004, lon: points[index].lon + 0.00003)) }
        let snaps = points.enumerated().map { try? router.snap($0.element, index: $0.offset, options: RouteOptions(), metric: metric) }
        let full = BucketManyToMany(router: router, metric: metric, attributes: [.distance]).compute(sources: snaps, destinations: snaps)
        let finite = full.cost.filter { $0 != TravelMatrix.unreachable }.sorted()
        try #require(finite.count > 100)
        var compared = 0, sameMetres = 0
        for bound in [finite[finite.count / 20], finite[finite.count / 4], finite[finite.count / 2]] {
            let table = BucketManyToMany(router: router, metric: metric, attributes: [.distance])
            table.threads = 1
            table.costBound = bound
            let bounded = table.compute(sources: snaps, destinations: snaps)
            for cell in 0..<full.cost.count {
                if full.cost[cell] <= bound {
                    #expect(bounded.cost[cell] == full.cost[cell], "\(extract) bound \(bound) cell \(cell): bounded \(bounded.cost[cell]) ms, full \(full.cost[cell]) ms")
                    compared += 1
                    if abs((bounded.metres(cell / snaps.count, cell % snaps.count) ?? -1) - (full.metres(cell / snaps.count, cell % snaps.count) ?? -2)) < 1e-6 {
                        sameMetres += 1
                    }
                } else {
                    #expect(bounded.cost[cell] == TravelMatrix.unreachable, "\(extract) bound \(bound) cell \(cell): \(bounded.cost[cell]) ms above the bound")
                }
            }
        }
        // Metres may differ only where two paths cost the same (the bounded table keeps no tie order).
        #expect(sameMetres * 100 >= compared * 99, "\(extract): metres equal on only \(sameMetres) of \(compared) cells")
        print("bounded tables \(extract): \(compared) cells within their bounds, \(sameMetres) with the same metres")
    }

    /// A source equal to a destination costs 0; a diagonal of sources × sources is all zeros.
    @Test func diagonalIsZero() throws {
        let graph = try Fixtures.graph("monaco")
        let router = Router(graph: graph)
        let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
        let snaps = randomRoadPoints(graph, count: 30, seed: 3).enumerated().map {
            try? router.snap($0.element, index: $0.offset, options: RouteOptions(), metric: metric)
        }
        let matrix = BucketManyToMany(router: router, metric: metric, attributes: [.distance]).compute(sources: snaps, destinations: snaps)
        for index in snaps.indices where snaps[index] != nil {
            #expect(matrix.duration(index, index) == 0 && matrix.metres(index, index) == 0)
        }
    }

    /// Unreachable cells: an island point neither reaches nor is reached from the main network.
    @Test func islandsAreUnreachable() throws {
        var found = 0
        for extract in ["porto", "malta", "milan"] {
            let graph = try Fixtures.graph(extract)
            let router = Router(graph: graph)
            let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
            let main = randomRoadPoints(graph, count: 5, seed: 9)
            for island in Self.islandPoints(graph, router: router, count: 5) {
                guard let snap = try? router.snap(island, index: 0, options: RouteOptions(), metric: metric) else { continue }
                let mainSnaps = main.enumerated().map { try? router.snap($0.element, index: $0.offset, options: RouteOptions(), metric: metric) }
                let matrix = BucketManyToMany(router: router, metric: metric, attributes: [.distance]).compute(sources: [snap] + mainSnaps, destinations: mainSnaps + [snap])
                for (index, main) in mainSnaps.enumerated() {
                    guard let main else { continue }
                    // Island -> main (row 0) and main -> island (last column): a strongly connected island lacks one.
                    let out = router.legPath(from: snap, to: main, metric: metric, algorithm: .dijkstra)
                    let back = router.legPath(from: main, to: snap, metric: metric, algorithm: .dijkstra)
                    #expect((matrix.duration(0, index) == nil) == (out == nil))
                    #expect((matrix.duration(index + 1, mainSnaps.count) == nil) == (back == nil))
                    found += (out == nil ? 1 : 0) + (back == nil ? 1 : 0)
                }
            }
        }
        #expect(found > 0, "no island point was unreachable")
    }
}
