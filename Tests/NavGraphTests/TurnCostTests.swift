import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// The grid of the maps first drawn in degrees (AsciiJunction's): 0.0005° of latitude a line and 0.0005° of longitude
/// a column, about 56 m by 39 m at 45° N.
enum DegreeGrid {
    /// Degrees per line and per column.
    static let spacing = 0.0005
    /// Metres per line.
    static let lineMetres = spacing * MapDrawing.metresPerDegree
    /// Metres per column at `origin`'s latitude (where the drawing places its top-left character or its anchor).
    static func gridMetres(at origin: Coordinate) -> Double { lineMetres * cos(origin.lat * Double.pi / 180) }
}

extension DrawnMap {
    /// Stored cost in ms of turning from the road arriving along `from` (two letters, e.g. "WJ") into `into` ("JN").
    func turnCost(from: String, into: String) -> UInt32? {
        guard let fromNode = routingNode(from), let intoNode = routingNode(into) else { return nil }
        return RoutingMetric.freeFlow(graph).turnCost(graph, from: fromNode, to: intoNode)
    }

    /// Routing node of the directed edge that ends with the two letters' segment (e.g. "WJ": the edge arriving at J from W).
    func routingNode(_ letters: String) -> Int? {
        let ids = letters.map(MapDrawing.nodeID)
        for edge in 0..<graph.edgeCount {
            let first = Int(graph.edgeShapeFirst[edge]), last = Int(graph.edgeShapeFirst[edge + 1]) - 1
            for index in first..<last {
                let a = graph.shapeOSMNode[index], b = graph.shapeOSMNode[index + 1]
                if a == ids[0] && b == ids[1] { return Int(graph.routingNodeOfEdge[2 * edge]).nonNegative }
                if b == ids[0] && a == ids[1] { return Int(graph.routingNodeOfEdge[2 * edge + 1]).nonNegative }
            }
        }
        return nil
    }

    /// The point `columns` east and `lines` south of a letter on the degree grid (fractions and negatives too).
    func cell(_ letter: Character, columns: Double = 0, lines: Double = 0) -> Coordinate {
        Coordinate(lat: self[letter].lat - lines * DegreeGrid.spacing, lon: self[letter].lon + columns * DegreeGrid.spacing)
    }
}

private extension Int {
    /// The value, or nil when negative (no routing node).
    var nonNegative: Int? { self >= 0 ? self : nil }
}

/// A plus junction J on the degree grid, its top-left character at `origin`: a main street W-J-E (one way, one name)
/// crossed by N-J-S.
private func plusJunction(at origin: Coordinate, junctionTags: [String: String] = [:], named name: String) throws -> DrawnMap {
    try MapDrawing("""
          N
          |
        W-J-E
          |
          S
        """, gridMetres: DegreeGrid.gridMetres(at: origin), lineMetres: DegreeGrid.lineMetres, origin: origin,
        ways: [("WJE", ["highway": "residential", "name": "Main Street"]), ("NJS", ["highway": "residential", "name": "Cross Street"])],
        nodeTags: ["J": junctionTags])
        .importGraph(named: name)
}

// Pinned values of OSRM v26 car.lua's turn function (ms): 90° away from traffic, 90° across traffic (sigmoid + oncoming
// term), a U-turn (sigmoid at 180° + 20 s). A change to TurnCosts' constants shows here.
private let awayFromTraffic: UInt32 = 2105
private let acrossTraffic: UInt32 = 7320
private let uTurn: UInt32 = 27455
private let italy = Coordinate(lat: 45.001, lon: 7.0)
private let malta = Coordinate(lat: 35.9, lon: 14.4)
private let england = Coordinate(lat: 51.5, lon: -0.12)

@Suite("Turn costs")
struct TurnCostTests {
    @Test func rightHandTrafficLeftCostsMoreThanRight() throws {
        let map = try plusJunction(at: italy, named: "turn-right-hand")
        // Heading east from W: N is on the left, S on the right.
        #expect(map.turnCost(from: "WJ", into: "JN") == acrossTraffic)
        #expect(map.turnCost(from: "WJ", into: "JS") == awayFromTraffic)
        #expect(map.turnCost(from: "WJ", into: "JE") == 0)
    }

    @Test(arguments: [("malta", malta), ("england", england)])
    func leftHandTrafficRightCostsMoreThanLeft(place: String, origin: Coordinate) throws {
        let map = try plusJunction(at: origin, named: "turn-left-hand-\(place)")
        #expect(map.turnCost(from: "WJ", into: "JN") == awayFromTraffic)
        #expect(map.turnCost(from: "WJ", into: "JS") == acrossTraffic)
        #expect(map.turnCost(from: "WJ", into: "JE") == 0)
    }

    @Test func uTurnAtDeadEndCostsItsPenalty() throws {
        let map = try plusJunction(at: italy, named: "turn-u-turn")
        #expect(map.turnCost(from: "JE", into: "EJ") == uTurn)
        // No U-turn at the junction itself.
        #expect(map.turnCost(from: "WJ", into: "JW") == nil)
    }

    @Test func signalAddsItsDelayToEveryTurn() throws {
        let map = try plusJunction(at: italy, junctionTags: ["highway": "traffic_signals"], named: "turn-signal")
        #expect(map.turnCost(from: "WJ", into: "JE") == 2000)
        #expect(map.turnCost(from: "WJ", into: "JS") == 2000 + awayFromTraffic)
        #expect(map.turnCost(from: "WJ", into: "JN") == 2000 + acrossTraffic)
    }

    @Test func stopGiveWayAndLevelCrossingDelays() throws {
        for (tags, delay) in [(["highway": "stop"], UInt32(2000)), (["highway": "give_way"], 1000), (["railway": "level_crossing"], 1000)] {
            let map = try plusJunction(at: italy, junctionTags: tags, named: "turn-control-\(delay)-\(tags.keys.first ?? "")")
            #expect(map.turnCost(from: "WJ", into: "JE") == delay, "\(tags)")
        }
    }

    /// A signal mid-way along a street, facing only traffic along the way (`traffic_signals:direction=forward`).
    @Test func signalOnAStreetCountsInItsDirectionOnly() throws {
        let map = try MapDrawing("""
              N
            W-J--T--E
            """, gridMetres: DegreeGrid.gridMetres(at: italy), lineMetres: DegreeGrid.lineMetres, origin: italy,
            ways: [("WJ", ["highway": "residential", "name": "Main Street"]), ("JTE", ["highway": "residential", "name": "Main Street"]),
                   ("JN", ["highway": "residential"])],
            nodeTags: ["T": ["highway": "traffic_signals", "traffic_signals:direction": "forward"]])
            .importGraph(named: "turn-street-signal")
        #expect(map.turnCost(from: "WJ", into: "JT") == 2000)
        // Driving west the signal does not face the car: the U-turn at E costs just its penalty.
        #expect(map.turnCost(from: "TE", into: "ET") == uTurn)
    }

    /// The route pays each turn exactly once: leg duration equals the search cost, and the turn delay is the pinned cost.
    @Test func legDurationIncludesTurnDelay() throws {
        let map = try plusJunction(at: italy, junctionTags: ["highway": "traffic_signals"], named: "turn-leg")
        let router = Router(graph: map.graph)
        // From the W arm to the N arm: a left turn across traffic at a signal.
        let west = map.cell("W", columns: 0.6), north = map.cell("N", lines: 0.4)
        for algorithm in SearchAlgorithm.allCases {
            var options = RouteOptions()
            options.algorithm = algorithm
            let leg = try #require(router.route([west, north], options: options).routes.first?.legs.first)
            #expect(abs(leg.turnDelay - Double(2000 + acrossTraffic) / 1000) < 1e-9)
            #expect(abs(leg.duration - leg.weight) < 0.002, "duration \(leg.duration) vs search cost \(leg.weight)")
            #expect(abs(leg.durationTypical - leg.duration) < 0.002)
        }
    }

    /// Congestion on the road arriving at a junction scales the junction's turn cost by that road's time factor;
    /// `durationTypical` keeps the free-flow turn cost.
    @Test func congestedApproachScalesTheTurnDelay() throws {
        let map = try plusJunction(at: italy, junctionTags: ["highway": "traffic_signals"], named: "turn-traffic")
        let csv = Fixtures.workDirectory.appendingPathComponent("turn-traffic.csv").path
        // Congestion 70 on W -> J: speed share 1 - (70 - 20) / 100 = 0.5, so the time factor is 2.
        try "from_osm_id,to_osm_id,congestion\n\(MapDrawing.nodeID("W")),\(MapDrawing.nodeID("J")),70\n".write(toFile: csv, atomically: true, encoding: .utf8)
        var options = RouteOptions()
        options.traffic = try TrafficFile.load(path: csv, graph: map.graph).overlay(slot: nil, label: "test")
        let west = map.cell("W", columns: 0.6), north = map.cell("N", lines: 0.4)
        for algorithm in SearchAlgorithm.allCases {
            options.algorithm = algorithm
            let leg = try #require(try Router(graph: map.graph).route([west, north], options: options).routes.first?.legs.first)
            #expect(abs(leg.turnDelay - 2 * Double(2000 + acrossTraffic) / 1000) < 1e-9)
            #expect(abs(leg.duration - leg.weight) < 0.002, "duration \(leg.duration) vs search cost \(leg.weight)")
            let free = try #require(try Router(graph: map.graph).route([west, north]).routes.first?.legs.first)
            #expect(abs(leg.durationTypical - free.duration) < 1e-6)
        }
    }
}
