import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Traffic CSV input, congestion-weighted ETAs, and exactness under traffic.
@Suite struct TrafficTests {
    func write(_ text: String, _ name: String) throws -> String {
        let path = Fixtures.workDirectory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Two parallel roads between the same junctions: Main (2-3, primary, way 2) and the longer Back detour
    /// (2-5-6-3, secondary, way 4); node and way ids as drawn, which the traffic CSVs name. One column is 0.001° of
    /// longitude, one line 0.001° of latitude, node 1 at 45.0 N, 7.0 E.
    static func parallelRoads(named name: String = "parallel") throws -> RoutingGraph {
        let origin = Coordinate(lat: 45.0, lon: 7.0)
        return try MapDrawing("""
                 5----6
                 |    |
            1----2----3----4
            """, gridMetres: 0.001 * MapDrawing.metresPerDegree * cos(origin.lat * .pi / 180), lineMetres: 0.001 * MapDrawing.metresPerDegree,
            origin: origin, anchor: "1",
            ways: [("12", ["highway": "residential"]), ("23", ["highway": "primary", "name": "Main"]),
                   ("34", ["highway": "residential"]), ("2563", ["highway": "secondary", "name": "Back"])])
            .numbered(nodes: ["1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6], ways: [1, 2, 3, 4])
            .importGraph(named: name).graph
    }

    let ends = [Coordinate(lat: 45.0, lon: 7.001), Coordinate(lat: 45.0, lon: 7.014)]

    func usesMain(_ response: RouteResponse, _ graph: RoutingGraph) -> Bool {
        response.routes[0].legs[0].directedEdges.contains { graph.edgeWay[$0 >> 1] == 2 }
    }

    @Test func congestionMovesTheRouteToTheParallelRoad() throws {
        let graph = try Self.parallelRoads()
        let router = Router(graph: graph)
        let free = try router.route(ends)
        #expect(usesMain(free, graph))
        let csv = try write("from_osm_id,to_osm_id,congestion\n2,3,severe\n", "severe-main.csv")
        let table = try TrafficFile.load(path: csv, graph: graph)
        #expect(table.segmentKey.count == 1 && table.unknownPairs == 0)
        var options = RouteOptions()
        options.traffic = table.overlay(slot: nil, label: "test")
        let jammed = try router.route(ends, options: options)
        #expect(!usesMain(jammed, graph), "the route should leave the severely congested main road")
        // The other direction (3 -> 2) has no data: it stays free-flow and unknown.
        let back = try router.route([ends[1], ends[0]], options: options)
        #expect(usesMain(back, graph))
        #expect(back.routes[0].legs[0].annotations.allSatisfy { $0.congestion == .unknown })
    }

    @Test func durationsAreTheSumOfCongestedSegmentTimes() throws {
        let graph = try Self.parallelRoads()
        let router = Router(graph: graph)
        let csv = try write("from_osm_id,to_osm_id,congestion\n2,3,moderate\n1,2,70\n", "moderate-main.csv")
        var options = RouteOptions()
        options.traffic = try TrafficFile.load(path: csv, graph: graph).overlay(slot: nil, label: "test")
        let leg = try router.route(ends, options: options).routes[0].legs[0]
        let free = try router.route(ends).routes[0].legs[0]
        #expect(leg.directedEdges == free.directedEdges)
        var expected = 0.0
        // The first segment of each entered edge also carries its turn's cost (scaled by the arriving road's congestion).
        let turnSegments = Set(leg.edgeFirstSegment.dropFirst())
        for (index, annotation) in leg.annotations.enumerated() {
            let way = graph.edgeWay[annotation.edge]
            let share = way == 2 ? TrafficTable.speedShare(congestion: 50) : way == 1 ? TrafficTable.speedShare(congestion: 70) : 1
            #expect(annotation.congestionNumeric == (way == 2 ? 50 : way == 1 ? 70 : nil))
            if turnSegments.contains(index) { expected += annotation.duration; continue }
            #expect(abs(annotation.duration - annotation.durationTypical / share) < 1e-9)
            expected += annotation.durationTypical / share
        }
        #expect(abs(leg.duration - expected) < 1e-6)
        #expect(abs(leg.weight - leg.duration) < 0.003)
        #expect(abs(leg.durationTypical - free.duration) < 1e-6)
        #expect(leg.duration > free.duration)
    }

    @Test func hourOfDayProfiles() throws {
        let graph = try Self.parallelRoads()
        let router = Router(graph: graph)
        let csv = try write("from_osm_id,to_osm_id,congestion,hour_of_day\n2,3,severe,8\n2,3,low,12\n", "rush.csv")
        let table = try TrafficFile.load(path: csv, graph: graph)
        var rush = DateComponents(); rush.hour = 8; rush.weekday = 2
        var noon = DateComponents(); noon.hour = 12; noon.weekday = 2
        var options = RouteOptions()
        options.traffic = table.overlay(slot: table.slot(for: rush), label: "rush")
        #expect(!usesMain(try router.route(ends, options: options), graph))
        options.traffic = table.overlay(slot: table.slot(for: noon), label: "noon")
        #expect(usesMain(try router.route(ends, options: options), graph))
    }

    @Test func speedFormZeroClosesAndBadValuesAreErrors() throws {
        let graph = try Self.parallelRoads()
        let router = Router(graph: graph)
        let closed = try write("2,3,0\n99,98,40\n", "closed.csv")
        let table = try TrafficFile.load(path: closed, graph: graph)
        #expect(table.unknownPairs == 1)
        var options = RouteOptions()
        options.traffic = table.overlay(slot: nil, label: "closed")
        #expect(!usesMain(try router.route(ends, options: options), graph))
        for (text, mention) in [("2,3,-5\n", "closed-neg.csv:1: speed -5"), ("2,3,40\n2,x,40\n", ":2: node ids"),
                                ("from_osm_id,to_osm_id,congestion\n2,3,150\n", ":2: congestion 150"),
                                ("from_osm_id,to_osm_id,congestion\n2,3,jammed\n", "jammed"), ("2,3,900\n", "outside 0–300")] {
            let path = try write(text, mention.contains("closed-neg") ? "closed-neg.csv" : "bad.csv")
            let error = #expect(throws: NavGraphError.self) { try TrafficFile.load(path: path, graph: graph) }
            #expect(error?.message.contains(mention) == true, "\(error?.message ?? "no error") lacks \(mention)")
        }
    }

    /// The byte parser's edges: overflowing ids, bytes that are not UTF-8, missing fields, a header after data,
    /// and a bad value on a row whose node pair is not in the graph (every row is checked, matched or not).
    @Test func malformedRowsNameTheLineAndValue() throws {
        let graph = try Self.parallelRoads()
        let cases: [(Data, String)] = [
            (Data("2,99999999999999999999,40\n".utf8), ":1: node ids must be integers"),
            (Data("2,3,4".utf8) + Data([0xFF, 0xFE]) + Data("\n".utf8), ":1: speed must be a number"),
            (Data("2,3\n".utf8), ":1: expected 3 columns, got 2"),
            (Data("2,3,40\nfrom_osm_id,to_osm_id,speed_kmh\n".utf8), ":2: node ids must be integers"),
            (Data("2,3,40\n98,99,fast\n".utf8), ":2: speed must be a number, got 'fast'"),
            (Data("from_osm_id,to_osm_id,congestion,hour_of_day\n2,3,low,24\n".utf8), ":2: hour_of_day must be 0–23, got '24'"),
        ]
        for (index, (bytes, mention)) in cases.enumerated() {
            let path = Fixtures.workDirectory.appendingPathComponent("malformed-\(index).csv").path
            try bytes.write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: NavGraphError.self) { try TrafficFile.load(path: path, graph: graph) }
            #expect(error?.message.contains(mention) == true, "\(error?.message ?? "no error") lacks \(mention)")
        }
        let empty = try TrafficFile.load(path: try write("", "empty.csv"), graph: graph)
        #expect(empty.rowsRead == 0 && empty.segmentKey.isEmpty)
    }

    @Test func crlfSpacesAndCaseAreTolerated() throws {
        let graph = try Self.parallelRoads()
        let table = try TrafficFile.load(path: try write("from_osm_id, to_osm_id, congestion\r\n 2 , 3 , Severe \r\n\r\n# done\r\n", "crlf.csv"), graph: graph)
        #expect(table.rowsRead == 1 && table.segmentKey.count == 1 && table.congestion.first == 90)
    }

    /// On Monaco with the bundled sample traffic: the hierarchy equals Dijkstra, and a jammed route moves.
    @Test func realTrafficIsExactAndMovesRoutes() throws {
        let graph = try Fixtures.graph("monaco")
        let router = Router(graph: graph)
        let table = try TrafficFile.load(path: Fixtures.packageRoot.appendingPathComponent("Data/monaco-traffic.csv").path, graph: graph)
        #expect(table.segmentKey.count > 5000 && table.unknownPairs == 0)
        let overlay = table.overlay(slot: nil, label: "sample")
        let metric = router.metric(avoid: [], mode: .strict, traffic: overlay)
        var options = RouteOptions()
        options.traffic = overlay
        let points = randomRoadPoints(graph, count: 1000, seed: 11)
        var slower = 0
        for pair in 0..<500 {
            guard let source = try? router.snap(points[2 * pair], index: 0, options: options, metric: metric),
                  let target = try? router.snap(points[2 * pair + 1], index: 1, options: options, metric: metric) else { continue }
            let fast = router.legPath(from: source, to: target, metric: metric, algorithm: .hierarchy)
            let reference = router.legPath(from: source, to: target, metric: metric, algorithm: .dijkstra)
            #expect(fast?.cost == reference?.cost)
            if let fast { try checkPath(fast, graph: graph, metric: metric, router: router) }
            let free = router.legPath(from: source, to: target, metric: router.metric(avoid: [], mode: .strict, traffic: nil), algorithm: .hierarchy)
            if let fast, let free, fast.cost > free.cost { slower += 1 }
        }
        #expect(slower > 100, "traffic slowed only \(slower) routes")

        // Jam every segment of one route: the new route avoids most of it.
        let ends = [Coordinate(lat: 43.7384, lon: 7.4246), Coordinate(lat: 43.7311, lon: 7.4197)]
        let before = try router.route(ends).routes[0].legs[0]
        var csv = ""
        for d in before.directedEdges {
            let edge = d >> 1
            var points = (Int(graph.edgeShapeFirst[edge])..<Int(graph.edgeShapeFirst[edge + 1])).map { graph.shapeOSMNode[$0] }
            if d & 1 == 1 { points.reverse() }
            for (a, b) in zip(points, points.dropFirst()) { csv += "\(a),\(b),3\n" }
        }
        let jamTable = try TrafficFile.load(path: try write(csv, "jam.csv"), graph: graph)
        options.traffic = jamTable.overlay(slot: nil, label: "jam")
        let after = try router.route(ends, options: options).routes[0].legs[0]
        #expect(Set(after.directedEdges) != Set(before.directedEdges))
        #expect(after.durationTypical >= before.durationTypical - 0.001)
    }
}
