import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// OSRM's small-component rule: a route whose waypoints all lie nearest to one small component is routed inside it.
@Suite struct SmallComponentTests {
    /// A closed loop (Loop Lane) north of Main Street, connected to nothing; Main Street runs on into a grid of
    /// two-way streets (18 × 18 junctions, drawn only as `#`) so that the main component is big (≥ 1000 routing nodes).
    ///
    ///     lat 45.0010    L1--------------L2                 Loop Lane: L1-L2-L3-L4-L1, residential
    ///                    |   p        q   |
    ///     lat 45.0006    L4--------------L3
    ///                          r
    ///     lat 45.0000  A=================B=====> grid ####   Main Street: A-B, then B to the grid's north-west corner
    ///                lon 7.000          7.004
    ///
    /// p (45.00085, 7.0005) and q (45.00085, 7.0035) lie 17 m from the loop's north side and 95 m from Main Street;
    /// r (45.0001, 7.002) lies 11 m from Main Street and 56 m from the loop.
    static func loopTown() -> CraftedOSM {
        var osm = CraftedOSM()
        osm.nodes = [(1, 45.0010, 7.0000), (2, 45.0010, 7.0040), (3, 45.0006, 7.0040), (4, 45.0006, 7.0000),
                     (10, 45.0000, 6.9995), (11, 45.0000, 7.0045)]
        osm.ways = [(100, [1, 2, 3, 4, 1], ["highway": "residential", "name": "Loop Lane"]),
                    (101, [10, 11, gridNode(0, 0)], ["highway": "residential", "name": "Main Street"])]
        let size = 18
        for row in 0..<size {
            for column in 0..<size {
                osm.nodes.append((gridNode(row, column), 44.9990 - 0.001 * Double(row), 7.0050 + 0.001 * Double(column)))
            }
        }
        for index in 0..<size {
            osm.ways.append((Int64(200 + index), (0..<size).map { gridNode(index, $0) }, ["highway": "residential", "name": "Row \(index)"]))
            osm.ways.append((Int64(300 + index), (0..<size).map { gridNode($0, index) }, ["highway": "residential", "name": "Column \(index)"]))
        }
        return osm
    }

    static func gridNode(_ row: Int, _ column: Int) -> Int64 { Int64(1000 + 100 * row + column) }

    static let p = Coordinate(lat: 45.00085, lon: 7.0005), q = Coordinate(lat: 45.00085, lon: 7.0035)
    static let r = Coordinate(lat: 45.0001, lon: 7.0020)

    @Test func loopIsUsedOnlyWhenBothEndsAreNearestToIt() throws {
        let graph = try Self.loopTown().importGraph(named: "loop-town")
        #expect(graph.metadata.componentSizes.first ?? 0 >= Snapper.smallComponentSize, "the grid should make the main component big")
        let router = Router(graph: graph)
        for algorithm in SearchAlgorithm.allCases {
            var options = RouteOptions()
            options.algorithm = algorithm
            // Alone, p snaps to Main Street (the loop is not 3× and 100 m closer).
            let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
            let alone = try router.snap(Self.p, index: 0, options: options, metric: metric)
            #expect(graph.string(graph.edgeName[alone.edge]) == "Main Street")
            // Both ends nearest to the loop: the route stays on it, along its north side from p to q.
            let inside = try router.route([Self.p, Self.q], options: options)
            #expect(inside.waypoints.map(\.roadName) == ["Loop Lane", "Loop Lane"], "\(algorithm)")
            let northSide = Geo.haversine(Coordinate(lat: 45.0010, lon: 7.0005), Coordinate(lat: 45.0010, lon: 7.0035))
            #expect(abs(inside.routes[0].distance - northSide) < 1, "\(algorithm): \(inside.routes[0].distance) m")
            #expect(inside.waypoints.allSatisfy { abs($0.snapDistance - 16.7) < 0.5 })
            // Three waypoints all nearest to the loop: every leg on it.
            let looped = try router.route([Self.p, Self.q, Self.p], options: options)
            #expect(looped.waypoints.allSatisfy { $0.roadName == "Loop Lane" })
            #expect(looped.routes[0].legs.count == 2)
            // One end nearest to Main Street: both ends on Main Street, as before.
            let mixed = try router.route([Self.p, Self.r], options: options)
            #expect(mixed.waypoints.map(\.roadName) == ["Main Street", "Main Street"], "\(algorithm)")
            #expect(abs(mixed.routes[0].distance - Geo.haversine(Coordinate(lat: 45, lon: 7.0005), Coordinate(lat: 45, lon: 7.002))) < 1)
            let reversed = try router.route([Self.r, Self.q], options: options)
            #expect(reversed.waypoints.map(\.roadName) == ["Main Street", "Main Street"])
            // Alternatives start from the same snaps.
            options.alternatives = 1
            let withAlternatives = try router.route([Self.p, Self.q], options: options)
            #expect(withAlternatives.waypoints.map(\.roadName) == ["Loop Lane", "Loop Lane"])
        }
    }

    @Test func matrixPointsAllNearestToTheLoopStayOnIt() throws {
        let graph = try Self.loopTown().importGraph(named: "loop-town-matrix")
        let router = Router(graph: graph)
        let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
        let candidates = try [Self.p, Self.q].enumerated().map {
            try router.snapCandidates($0.element, index: $0.offset, options: RouteOptions(), metric: metric)
        }
        let together = SmallComponentRule.snaps(candidates.map(Optional.some))
        #expect(together.map { $0.map { graph.string(graph.edgeName[$0.edge]) } } == ["Loop Lane", "Loop Lane"])
        let withR = try candidates + [router.snapCandidates(Self.r, index: 2, options: RouteOptions(), metric: metric)]
        let mixed = SmallComponentRule.snaps(withR.map(Optional.some))
        #expect(mixed.map { $0.map { graph.string(graph.edgeName[$0.edge]) } } == ["Main Street", "Main Street", "Main Street"])
    }
}
