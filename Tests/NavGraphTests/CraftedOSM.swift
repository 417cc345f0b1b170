import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Writes small hand-made OSM XML files for tests that need an exact network.
struct CraftedOSM {
    var nodes: [(id: Int64, lat: Double, lon: Double)] = []
    var ways: [(id: Int64, refs: [Int64], tags: [String: String])] = []
    var relations: [(id: Int64, members: [(type: String, ref: Int64, role: String)], tags: [String: String])] = []
    /// Tags of tagged nodes (barriers, signals), by node id.
    var nodeTags: [Int64: [String: String]] = [:]

    var xml: String {
        var lines = ["<?xml version='1.0' encoding='UTF-8'?>", "<osm version=\"0.6\" generator=\"navgraph-tests\">"]
        for node in nodes {
            guard let tags = nodeTags[node.id], !tags.isEmpty else {
                lines.append("  <node id=\"\(node.id)\" version=\"1\" lat=\"\(node.lat)\" lon=\"\(node.lon)\"/>")
                continue
            }
            lines.append("  <node id=\"\(node.id)\" version=\"1\" lat=\"\(node.lat)\" lon=\"\(node.lon)\">")
            lines += tags.sorted { $0.key < $1.key }.map { "    <tag k=\"\($0.key)\" v=\"\($0.value)\"/>" }
            lines.append("  </node>")
        }
        for way in ways {
            lines.append("  <way id=\"\(way.id)\" version=\"1\">")
            lines += way.refs.map { "    <nd ref=\"\($0)\"/>" }
            lines += way.tags.sorted { $0.key < $1.key }.map { "    <tag k=\"\($0.key)\" v=\"\($0.value)\"/>" }
            lines.append("  </way>")
        }
        for relation in relations {
            lines.append("  <relation id=\"\(relation.id)\" version=\"1\">")
            lines += relation.members.map { "    <member type=\"\($0.type)\" ref=\"\($0.ref)\" role=\"\($0.role)\"/>" }
            lines += relation.tags.sorted { $0.key < $1.key }.map { "    <tag k=\"\($0.key)\" v=\"\($0.value)\"/>" }
            lines.append("  </relation>")
        }
        lines.append("</osm>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the XML and imports it; returns the loaded graph.
    func importGraph(named name: String, honourTurnRestrictions: Bool = true) throws -> RoutingGraph {
        let osm = Fixtures.workDirectory.appendingPathComponent("\(name).osm").path
        try xml.write(toFile: osm, atomically: true, encoding: .utf8)
        let output = Fixtures.workDirectory.appendingPathComponent("\(name).navgraph").path
        try Importer.run(input: osm, output: output, honourTurnRestrictions: honourTurnRestrictions, log: ProgressLog(quiet: true))
        return try RoutingGraph(path: output)
    }

    /// A plus-shaped junction at (45.0, 7.0) with arms W, E, N, S, a oneway loop north of it, and two islands.
    static func testTown(restriction: String?) -> CraftedOSM {
        var osm = CraftedOSM()
        osm.nodes = [
            (1, 45.000, 7.000), (2, 45.000, 6.998), (3, 45.000, 7.002), (4, 45.002, 7.000), (5, 44.998, 7.000),
            (6, 45.010, 7.000), (7, 45.010, 7.004), (8, 45.012, 7.004), (9, 45.012, 7.000),
            (20, 45.0126, 7.001), (21, 45.0126, 7.0015),   // near island
            (30, 45.030, 7.001), (31, 45.030, 7.0015),     // far island
        ]
        let road = ["highway": "residential"]
        osm.ways = [
            (10, [2, 1], road), (11, [1, 3], road), (12, [1, 4], road), (13, [1, 5], road), (14, [4, 6], road),
            (15, [6, 7], ["highway": "residential", "oneway": "yes", "name": "One Way Street"]),
            (16, [7, 8, 9, 6], road),
            (17, [20, 21], road), (18, [30, 31], road),
        ]
        if let restriction {
            let to: Int64 = restriction.hasPrefix("only_straight") ? 11 : 12
            osm.relations = [(100, [("way", 10, "from"), ("node", 1, "via"), ("way", to, "to")], ["type": "restriction", "restriction": restriction])]
        }
        return osm
    }

    /// Two parallel east-west streets joined by a short connector (way 20) at lon 7.002 and by a detour
    /// (ways 40, 50, 60) to the east; `restriction` (e.g. no_u_turn) runs from way 10 via way 20 to way 30.
    static func viaWayTown(restriction: String?) -> CraftedOSM {
        var osm = CraftedOSM()
        osm.nodes = [(1, 45.000, 7.000), (2, 45.000, 7.002), (5, 45.000, 7.004),
                     (4, 45.001, 7.000), (3, 45.001, 7.002), (6, 45.001, 7.004)]
        let road = ["highway": "residential"]
        osm.ways = [(10, [1, 2], road), (20, [2, 3], road), (30, [3, 4], road),
                    (40, [2, 5], road), (50, [5, 6], road), (60, [6, 3], road)]
        if let restriction {
            osm.relations = [(200, [("way", 10, "from"), ("way", 20, "via"), ("way", 30, "to")],
                              ["type": "restriction", "restriction": restriction])]
        }
        return osm
    }

    /// A straight street of ways 10, 20, 60, 70 (west to east) with a oneway side street 30 at its middle and a detour
    /// (40, 50, 55) south of it; no_straight_on restrictions from 10 via 20 to 30 (when `chained`) and from 20 via
    /// 60 to 70, so that the second one's from way is the first one's via way.
    static func chainedViaWays(chained: Bool) -> CraftedOSM {
        var osm = CraftedOSM()
        osm.nodes = [(1, 45.000, 7.000), (2, 45.000, 7.002), (3, 45.000, 7.004), (6, 45.000, 7.006), (7, 45.000, 7.008),
                     (4, 45.001, 7.004), (8, 44.999, 7.002), (9, 44.999, 7.008)]
        let road = ["highway": "residential"]
        osm.ways = [(10, [1, 2], road), (20, [2, 3], road), (60, [3, 6], road), (70, [6, 7], road), (30, [3, 4], ["highway": "residential", "oneway": "yes"]),
                    (40, [2, 8], road), (50, [8, 9], road), (55, [9, 7], road)]
        let restriction = ["type": "restriction", "restriction": "no_straight_on"]
        osm.relations = [(301, [("way", 20, "from"), ("way", 60, "via"), ("way", 70, "to")], restriction)]
        if chained {
            osm.relations.append((300, [("way", 10, "from"), ("way", 20, "via"), ("way", 30, "to")], restriction))
        }
        return osm
    }
}
