import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// A crafted junction drawn as an ASCII map: each letter is an OSM node, one character column or row is
/// `spacing` degrees; ways are strings of letters; node tags go by letter.
struct AsciiJunction {
    var map: String
    var ways: [(letters: String, tags: [String: String])]
    var nodeTags: [Character: [String: String]] = [:]
    /// Where the map's top-left character lies: the country decides the driving side.
    var origin: Coordinate
    var spacing = 0.0005

    func nodeID(_ letter: Character) -> Int64 { Int64(letter.asciiValue ?? 0) }

    var xml: String {
        var lines = ["<?xml version='1.0' encoding='UTF-8'?>", "<osm version=\"0.6\" generator=\"navgraph-tests\">"]
        for (row, line) in map.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for (column, character) in line.enumerated() where character.isLetter {
                let lat = origin.lat - Double(row) * spacing, lon = origin.lon + Double(column) * spacing
                let tags = (nodeTags[character] ?? [:]).sorted { $0.key < $1.key }.map { "<tag k=\"\($0.key)\" v=\"\($0.value)\"/>" }
                lines.append("  <node id=\"\(nodeID(character))\" version=\"1\" lat=\"\(lat)\" lon=\"\(lon)\">" + tags.joined() + "</node>")
            }
        }
        for (index, way) in ways.enumerated() {
            lines.append("  <way id=\"\(index + 1)\" version=\"1\">")
            lines += way.letters.map { "    <nd ref=\"\(nodeID($0))\"/>" }
            lines += way.tags.sorted { $0.key < $1.key }.map { "    <tag k=\"\($0.key)\" v=\"\($0.value)\"/>" }
            lines.append("  </way>")
        }
        lines.append("</osm>")
        return lines.joined(separator: "\n") + "\n"
    }

    func importGraph(named name: String) throws -> RoutingGraph {
        let osm = Fixtures.workDirectory.appendingPathComponent("\(name).osm").path
        try xml.write(toFile: osm, atomically: true, encoding: .utf8)
        let output = Fixtures.workDirectory.appendingPathComponent("\(name).navgraph").path
        try Importer.run(input: osm, output: output, log: ProgressLog(quiet: true))
        return try RoutingGraph(path: output)
    }

    /// Stored cost in ms of turning from the road arriving along `from` (two letters, e.g. "WJ") into `into` ("JN").
    func turnCost(_ graph: RoutingGraph, from: String, into: String) -> UInt32? {
        guard let fromNode = routingNode(graph, from), let intoNode = routingNode(graph, into) else { return nil }
        return RoutingMetric.freeFlow(graph).turnCost(graph, from: fromNode, to: intoNode)
    }

    /// Routing node of the directed edge that ends with the two letters' segment (e.g. "WJ": the edge arriving at J from W).
    func routingNode(_ graph: RoutingGraph, _ letters: String) -> Int? {
        let ids = letters.map(nodeID)
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
}

private extension Int {
    var nonNegative: Int? { self >= 0 ? self : nil }
}

/// A plus junction J: a main street W-J-E (one way, one name) crossed by N-J-S.
private func plusJunction(at origin: Coordinate, junctionTags: [String: String] = [:]) -> AsciiJunction {
    AsciiJunction(
        map: """
             ..N..
             .....
             W.J.E
             .....
             ..S..
             """,
        ways: [("WJE", ["highway": "residential", "name": "Main Street"]), ("NJS", ["highway": "residential", "name": "Cross Street"])],
        nodeTags: ["J": junctionTags], origin: origin)
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
        let junction = plusJunction(at: italy)
        let graph = try junction.importGraph(named: "turn-right-hand")
        // Heading east from W: N is on the left, S on the right.
        #expect(junction.turnCost(graph, from: "WJ", into: "JN") == acrossTraffic)
        #expect(junction.turnCost(graph, from: "WJ", into: "JS") == awayFromTraffic)
        #expect(junction.turnCost(graph, from: "WJ", into: "JE") == 0)
    }

    @Test(arguments: [("malta", malta), ("england", england)])
    func leftHandTrafficRightCostsMoreThanLeft(place: String, origin: Coordinate) throws {
        let junction = plusJunction(at: origin)
        let graph = try junction.importGraph(named: "turn-left-hand-\(place)")
        #expect(junction.turnCost(graph, from: "WJ", into: "JN") == awayFromTraffic)
        #expect(junction.turnCost(graph, from: "WJ", into: "JS") == acrossTraffic)
        #expect(junction.turnCost(graph, from: "WJ", into: "JE") == 0)
    }

    @Test func uTurnAtDeadEndCostsItsPenalty() throws {
        let junction = plusJunction(at: italy)
        let graph = try junction.importGraph(named: "turn-u-turn")
        #expect(junction.turnCost(graph, from: "JE", into: "EJ") == uTurn)
        // No U-turn at the junction itself.
        #expect(junction.turnCost(graph, from: "WJ", into: "JW") == nil)
    }

    @Test func signalAddsItsDelayToEveryTurn() throws {
        let junction = plusJunction(at: italy, junctionTags: ["highway": "traffic_signals"])
        let graph = try junction.importGraph(named: "turn-signal")
        #expect(junction.turnCost(graph, from: "WJ", into: "JE") == 2000)
        #expect(junction.turnCost(graph, from: "WJ", into: "JS") == 2000 + awayFromTraffic)
        #expect(junction.turnCost(graph, from: "WJ", into: "JN") == 2000 + acrossTraffic)
    }

    @Test func stopGiveWayAndLevelCrossingDelays() throws {
        for (tags, delay) in [(["highway": "stop"], UInt32(2000)), (["highway": "give_way"], 1000), (["railway": "level_crossing"], 1000)] {
            let junction = plusJunction(at: italy, junctionTags: tags)
            let graph = try junction.importGraph(named: "turn-control-\(delay)-\(tags.keys.first ?? "")")
            #expect(junction.turnCost(graph, from: "WJ", into: "JE") == delay, "\(tags)")
        }
    }

    /// A signal mid-way along a street, facing only traffic along the way (`traffic_signals:direction=forward`).
    @Test func signalOnAStreetCountsInItsDirectionOnly() throws {
        let junction = AsciiJunction(
            map: """
                 ..N......
                 W.J..T..E
                 """,
            ways: [("WJ", ["highway": "residential", "name": "Main Street"]), ("JTE", ["highway": "residential", "name": "Main Street"]),
                   ("JN", ["highway": "residential"])],
            nodeTags: ["T": ["highway": "traffic_signals", "traffic_signals:direction": "forward"]], origin: italy)
        let graph = try junction.importGraph(named: "turn-street-signal")
        #expect(junction.turnCost(graph, from: "WJ", into: "JT") == 2000)
        // Driving west the signal does not face the car: the U-turn at E costs just its penalty.
        #expect(junction.turnCost(graph, from: "TE", into: "ET") == uTurn)
    }

    /// The route pays each turn exactly once: leg duration equals the search cost, and the turn delay is the pinned cost.
    @Test func legDurationIncludesTurnDelay() throws {
        let junction = plusJunction(at: italy, junctionTags: ["highway": "traffic_signals"])
        let graph = try junction.importGraph(named: "turn-leg")
        let router = Router(graph: graph)
        // From the W arm to the N arm: a left turn across traffic at a signal.
        let west = Coordinate(lat: italy.lat - 2 * 0.0005, lon: italy.lon + 0.0003)
        let north = Coordinate(lat: italy.lat - 0.0002, lon: italy.lon + 2 * 0.0005)
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
        let junction = plusJunction(at: italy, junctionTags: ["highway": "traffic_signals"])
        let graph = try junction.importGraph(named: "turn-traffic")
        let csv = Fixtures.workDirectory.appendingPathComponent("turn-traffic.csv").path
        // Congestion 70 on W -> J: speed share 1 - (70 - 20) / 100 = 0.5, so the time factor is 2.
        try "from_osm_id,to_osm_id,congestion\n\(junction.nodeID("W")),\(junction.nodeID("J")),70\n".write(toFile: csv, atomically: true, encoding: .utf8)
        var options = RouteOptions()
        options.traffic = try TrafficFile.load(path: csv, graph: graph).overlay(slot: nil, label: "test")
        let west = Coordinate(lat: italy.lat - 2 * 0.0005, lon: italy.lon + 0.0003)
        let north = Coordinate(lat: italy.lat - 0.0002, lon: italy.lon + 2 * 0.0005)
        for algorithm in SearchAlgorithm.allCases {
            options.algorithm = algorithm
            let leg = try #require(try Router(graph: graph).route([west, north], options: options).routes.first?.legs.first)
            #expect(abs(leg.turnDelay - 2 * Double(2000 + acrossTraffic) / 1000) < 1e-9)
            #expect(abs(leg.duration - leg.weight) < 0.002, "duration \(leg.duration) vs search cost \(leg.weight)")
            let free = try #require(try Router(graph: graph).route([west, north]).routes.first?.legs.first)
            #expect(abs(leg.durationTypical - free.duration) < 1e-6)
        }
    }
}
