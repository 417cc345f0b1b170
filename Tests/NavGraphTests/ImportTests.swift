import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Structural invariants of graphs imported from every shared extract.
@Suite struct ImportTests {
    @Test(arguments: Fixtures.extracts)
    func structuralInvariants(extract: String) throws {
        let graph = try Fixtures.graph(extract)
        #expect(graph.edgeCount > 0)
        for edge in 0..<graph.edgeCount {
            let first = Int(graph.edgeShapeFirst[edge]), end = Int(graph.edgeShapeFirst[edge + 1])
            #expect(end - first >= 2, "edge \(edge) has \(end - first) shape points")
            var length = 0.0
            for point in first..<end {
                let coordinate = graph.coordinate(shapePoint: point)
                #expect(coordinate.isValid && graph.metadata.bbox.contains(coordinate))
                if point > first { length += Geo.haversine(graph.coordinate(shapePoint: point - 1), coordinate) }
            }
            #expect(abs(length - graph.edgeLength[edge]) <= 1e-6 * max(1, length), "edge \(edge): shape \(length) m, stored \(graph.edgeLength[edge]) m")
            let forward = graph.edgeTimeForward[edge] != RoadNetwork.forbidden
            let backward = graph.edgeTimeBackward[edge] != RoadNetwork.forbidden
            if !forward && !backward { continue }   // a road only trucks or motorcycles may use
            if graph.flags(edge: edge).contains(.oneway) {
                #expect(forward != backward, "oneway edge \(edge) is drivable in \(forward && backward ? "both" : "no") direction(s)")
            } else {
                #expect(forward && backward)
            }
        }
    }

    /// Where MANIFEST.md says toll, ferry and motorway ways exist, the graph has such edges.
    /// (Helsinki's one ferry way keeps a single node inside the clipped extract, so it yields no edge.)
    @Test func specialEdgesExistWhereTheManifestSaysSo() throws {
        let expectations: [(String, EdgeFlags?, Bool)] = [
            ("baltimore", .toll, false), ("monaco", .toll, false), ("andorra", .toll, false), ("porto", .toll, false),
            ("milan", .toll, false), ("helgoland", .ferry, false), ("baltimore", .ferry, false),
            ("isle-of-man", .ferry, false), ("malta", .ferry, false), ("monaco", .ferry, false),
            ("kotka", nil, true), ("baltimore", nil, true), ("monaco", nil, true), ("porto", nil, true), ("milan", nil, true),
        ]
        for (extract, flag, motorway) in expectations {
            let summary = GraphSummary(graph: try Fixtures.graph(extract))
            if flag == .toll { #expect(summary.tollKilometres > 0.5, "\(extract) has no toll km") }
            if flag == .ferry { #expect(summary.ferryKilometres > 0.1, "\(extract) has no ferry km") }
            if motorway { #expect(summary.motorwayKilometres > 0.5, "\(extract) has no motorway km") }
        }
        for extract in ["andorra", "isle-of-man", "malta"] {
            #expect((GraphSummary(graph: try Fixtures.graph(extract)).kilometresByClass["trunk"] ?? 0) > 1, "\(extract) has no trunk km")
        }
    }

    /// Kilometres by class agree with a count made here straight from the OSM ways.
    @Test(arguments: ["monaco", "milan", "baltimore", "andorra"])
    func kilometresByClassMatchTheOSMData(extract: String) throws {
        let source = try OSMSource(path: Fixtures.pbf(extract))
        var expected: [String: Double] = [:]
        for way in 0..<source.wayCount {
            guard let attributes = CarProfile.attributes(tags: source.wayTags(way)) else { continue }
            var previous: Coordinate?
            for ref in source.wayNodeRefs(way) {
                guard let index = source.nodeIndex(of: ref) else { previous = nil; continue }
                let point = Coordinate(latE7: source.nodeLatE7(index), lonE7: source.nodeLonE7(index))
                if let previous { expected[attributes.roadClass.osmName, default: 0] += Geo.haversine(previous, point) / 1000 }
                previous = point
            }
        }
        let summary = GraphSummary(graph: try Fixtures.graph(extract))
        for (roadClass, kilometres) in expected {
            let actual = summary.kilometresByClass[roadClass] ?? 0
            #expect(abs(actual - kilometres) <= 0.001 * max(1, kilometres), "\(extract) \(roadClass): graph \(actual) km, OSM \(kilometres) km")
        }
        #expect(Set(summary.kilometresByClass.keys) == Set(expected.keys.filter { expected[$0, default: 0] > 0 }))
    }

    /// The unsorted Baltimore file resolves every node (after sorting it has no missing refs); roads of
    /// clipped extracts are cut at missing nodes, not fatal. (Milan's missing refs are all in non-road ways.)
    @Test func unsortedAndClippedExtracts() throws {
        let baltimore = try Fixtures.graph("baltimore").metadata.report
        #expect(baltimore.missingNodeRefs == 0)
        for extract in ["kotka", "helgoland", "helsinki"] {
            let report = try Fixtures.graph(extract).metadata.report
            #expect(report.missingNodeRefs > 0, "\(extract) reports no missing road nodes")
            #expect(report.waysCutAtMissingNodes > 0, "\(extract) cut no way")
        }
    }

    @Test func maxspeedValues() {
        #expect(Maxspeed.parse("50") == 50)
        #expect(Maxspeed.parse("30 mph").map { abs($0 - 48.28) < 0.01 } == true)
        #expect(Maxspeed.parse("DE:urban") == 50)
        #expect(Maxspeed.parse("FR:rural") == 80)
        #expect(Maxspeed.parse("none") == CarProfile.unlimitedSpeedKmh)
        #expect(Maxspeed.parse("walk") == 7)
        #expect(Maxspeed.parse("signals") == nil)
        #expect(Maxspeed.parse("70;50") == 70)
        #expect(FerryDuration.parse("01:30") == 5400)
        #expect(FerryDuration.parse("PT45M") == 2700)
        #expect(FerryDuration.parse("90") == 5400)
    }

    @Test func carProfileDecisions() throws {
        let motorway = try #require(CarProfile.attributes(tags: ["highway": "motorway"]))
        #expect(motorway.forward && !motorway.backward)
        let reversed = try #require(CarProfile.attributes(tags: ["highway": "residential", "oneway": "-1"]))
        #expect(!reversed.forward && reversed.backward)
        let roundabout = try #require(CarProfile.attributes(tags: ["highway": "primary", "junction": "roundabout"]))
        #expect(roundabout.flags.contains(.roundabout) && !roundabout.backward)
        #expect(CarProfile.attributes(tags: ["highway": "footway"]) == nil)
        #expect(CarProfile.attributes(tags: ["highway": "residential", "access": "no"]) == nil)
        #expect(CarProfile.attributes(tags: ["highway": "residential", "motor_vehicle": "no"]) == nil)
        #expect(CarProfile.attributes(tags: ["highway": "service", "access": "private"])?.flags.contains(.privateAccess) == true)
        #expect(CarProfile.attributes(tags: ["highway": "residential", "access": "destination"])?.flags.contains(.destinationOnly) == true)
        #expect(CarProfile.attributes(tags: ["highway": "trunk", "toll": "yes"])?.flags.contains(.toll) == true)
        let ferry = try #require(CarProfile.attributes(tags: ["route": "ferry", "duration": "00:45"]))
        #expect(ferry.roadClass == .ferry && ferry.ferryDurationSeconds == 2700)
        #expect(CarProfile.attributes(tags: ["route": "ferry", "motor_vehicle": "no"]) == nil)
        let limited = try #require(CarProfile.attributes(tags: ["highway": "primary", "maxspeed": "50"]))
        #expect(limited.speedKmhForward == 50 * CarProfile.maxspeedFactor)
    }
}
