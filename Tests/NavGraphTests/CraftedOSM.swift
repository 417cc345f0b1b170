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

    /// Each of `digits` (the nodes drawn as digits) with its value as node id: the maps below keep the ids their tests
    /// and others name.
    static func digitIDs(_ digits: String) -> [Character: Int64] {
        Dictionary(uniqueKeysWithValues: digits.compactMap { digit in digit.wholeNumberValue.map { (digit, Int64($0)) } })
    }

    /// A plus-shaped junction 1 at (45.0, 7.0) with arms 2 (west), 3 (east), 4 (north) and 5 (south), ways 10 to 13; a
    /// loop north of it (way 14 from 4 up to 6, the oneway 15 from 6 to 7, and 16 back round by 8 and 9); and two
    /// islands with no road to the rest (ways 17 and 18). One column is 0.0005° of longitude (39 m), one line 0.001° of
    /// latitude (111 m). `restriction` runs from way 10 via node 1 to way 12 (to way 11 for an only_straight_on).
    static func testTown(restriction: String?) -> CraftedOSM {
        (try? drawnTown(restriction: restriction)) ?? CraftedOSM()
    }

    /// testTown's map (a drawing error gives the empty map instead, which no test imports).
    private static func drawnTown(restriction: String?) throws -> CraftedOSM {
        let road = ["highway": "residential"]
        let origin = Coordinate(lat: 45.0, lon: 7.0), column = DegreeGrid.gridMetres(at: origin)
        var osm = try MapDrawing("""
                9-------8
                |       |
                6------>7
                |
                |
                |
                |
                |
                |
                |
                4
                |
            2---1---3
                |
                5
            """, gridMetres: column, lineMetres: 2 * DegreeGrid.lineMetres, origin: origin, anchor: "1",
            ways: [("21", road), ("13", road), ("14", road), ("15", road), ("46", road),
                   ("67", ["highway": "residential", "oneway": "yes", "name": "One Way Street"]), ("7896", road)])
            .numbered(nodes: digitIDs("123456789"), ways: [10, 11, 12, 13, 14, 15, 16]).osm
        // The islands, each drawn at its own latitude (off the town's grid) and half a column long: the near one (nodes
        // 20 and 21) 0.0006° north of 9-8, the far one (30 and 31) 2 km north.
        let nearOrigin = Coordinate(lat: 45.0126, lon: 7.001), farOrigin = Coordinate(lat: 45.030, lon: 7.001)
        let near = try MapDrawing("a-b", gridMetres: DegreeGrid.gridMetres(at: nearOrigin) / 2, origin: nearOrigin, ways: [("ab", road)])
            .numbered(nodes: ["a": 20, "b": 21], ways: [17]).osm
        let far = try MapDrawing("c-d", gridMetres: DegreeGrid.gridMetres(at: farOrigin) / 2, origin: farOrigin, ways: [("cd", road)])
            .numbered(nodes: ["c": 30, "d": 31], ways: [18]).osm
        osm.nodes += near.nodes + far.nodes
        osm.ways += near.ways + far.ways
        if let restriction {
            let to: Int64 = restriction.hasPrefix("only_straight") ? 11 : 12
            osm.relations = [(100, [("way", 10, "from"), ("node", 1, "via"), ("way", to, "to")], ["type": "restriction", "restriction": restriction])]
        }
        return osm
    }

    /// Two parallel east-west streets joined by a short connector (way 20) at lon 7.002 and by a detour (ways 40, 50,
    /// 60) to the east; `restriction` (e.g. no_u_turn) runs from way 10 via way 20 to way 30. On the degree grid
    /// (0.0005° a line and a column), node 1 at (45.0, 7.0); a drawing error gives the empty map, which no test imports.
    static func viaWayTown(restriction: String?) -> CraftedOSM {
        let origin = Coordinate(lat: 45.0, lon: 7.0), road = ["highway": "residential"]
        guard var osm = try? MapDrawing("""
            4---3---6
                |   |
            1---2---5
            """, gridMetres: DegreeGrid.gridMetres(at: origin), lineMetres: DegreeGrid.lineMetres, origin: origin, anchor: "1",
            ways: [("12", road), ("23", road), ("34", road), ("25", road), ("56", road), ("63", road)])
            .numbered(nodes: digitIDs("123456"), ways: [10, 20, 30, 40, 50, 60]).osm else { return CraftedOSM() }
        if let restriction {
            osm.relations = [(200, [("way", 10, "from"), ("way", 20, "via"), ("way", 30, "to")],
                              ["type": "restriction", "restriction": restriction])]
        }
        return osm
    }
}
