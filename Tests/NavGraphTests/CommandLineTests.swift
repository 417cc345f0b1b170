import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Bad input through the CLI: exit status 2, one clear line naming the problem, and no output file.
@Suite struct CommandLineTests {
    func output(_ name: String) -> String {
        let path = Fixtures.workDirectory.appendingPathComponent(name).path
        try? FileManager.default.removeItem(atPath: path)
        return path
    }

    func expectRefused(_ arguments: [String], mentions: [String], noFile: String?) throws {
        let result = try Fixtures.run(arguments)
        #expect(result.status == 2, "exit \(result.status) for \(arguments)")
        for text in mentions { #expect(result.stderr.contains(text), "stderr '\(result.stderr)' lacks '\(text)'") }
        if let noFile { #expect(!FileManager.default.fileExists(atPath: noFile), "\(noFile) was left behind") }
        // Only this output's temporary files: other tests write (atomically) into the same directory meanwhile.
        let prefix = "." + URL(fileURLWithPath: noFile ?? "").lastPathComponent + ".tmp-"
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: Fixtures.workDirectory.path).filter { noFile != nil && $0.hasPrefix(prefix) }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }

    @Test func missingFile() throws {
        let out = output("missing.navgraph")
        try expectRefused(["import", "/nonexistent/region.osm.pbf", "-o", out], mentions: ["/nonexistent/region.osm.pbf", "no such file"], noFile: out)
    }

    @Test func notOSM() throws {
        let input = Fixtures.workDirectory.appendingPathComponent("notosm.osm.pbf").path
        try Data("this is not an OSM file".utf8).write(to: URL(fileURLWithPath: input))
        let out = output("notosm.navgraph")
        try expectRefused(["import", input, "-o", out], mentions: [input, "not a readable OSM file"], noFile: out)
    }

    @Test func truncatedPBF() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.pbf("monaco")))
        let input = Fixtures.workDirectory.appendingPathComponent("truncated.osm.pbf").path
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: input))
        let out = output("truncated-import.navgraph")
        try expectRefused(["import", input, "-o", out], mentions: [input, "EOF"], noFile: out)
    }

    /// A map of one footway (111 m north from A at 45.0 N, 7.0 E) has nothing a car may drive: the import says so.
    @Test func noRoutableRoad() throws {
        let osm = try MapDrawing("""
            B
            |
            A
            """, lineMetres: 55.6, anchor: "A", ways: [("AB", ["highway": "footway"])]).osm
        let input = Fixtures.workDirectory.appendingPathComponent("footpaths.osm").path
        try osm.xml.write(toFile: input, atomically: true, encoding: .utf8)
        let out = output("footpaths.navgraph")
        try expectRefused(["import", input, "-o", out], mentions: [input, "no routable road"], noFile: out)
    }

    /// `--profiles` names the profiles to import: an unknown one, or `--road-sets` next to it, is refused before any work.
    @Test func badProfileSelection() throws {
        let out = output("profiles-refused.navgraph")
        try expectRefused(["import", Fixtures.pbf("monaco"), "-o", out, "--profiles", "car,bus"], mentions: ["--profiles", "'bus'"], noFile: out)
        try expectRefused(["import", Fixtures.pbf("monaco"), "-o", out, "--profiles", "car", "--road-sets", "motor"],
                          mentions: ["--profiles", "--road-sets"], noFile: out)
    }

    /// libosmium reads compressed XML too; the same town imports the same from .osm, .osm.gz and .osm.bz2.
    @Test func compressedXMLImports() throws {
        let xml = Fixtures.workDirectory.appendingPathComponent("town-compressed.osm").path
        try CraftedOSM.testTown(restriction: "no_left_turn").xml.write(toFile: xml, atomically: true, encoding: .utf8)
        let plain = output("town-plain.navgraph")
        #expect(try Fixtures.run(["import", xml, "-o", plain]).status == 0)
        let reference = try RoutingGraph(path: plain)
        for (tool, suffix) in [("/usr/bin/gzip", "gz"), ("/usr/bin/bzip2", "bz2")] where FileManager.default.isExecutableFile(atPath: tool) {
            let compressed = "\(xml).\(suffix)"
            try? FileManager.default.removeItem(atPath: compressed)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = ["-k", "-f", xml]
            try process.run()
            process.waitUntilExit()
            let out = output("town-\(suffix).navgraph")
            let result = try Fixtures.run(["import", compressed, "-o", out])
            #expect(result.status == 0, "\(suffix): \(result.stderr)")
            let graph = try RoutingGraph(path: out)
            #expect(graph.edgeCount == reference.edgeCount && graph.restrictionCount == reference.restrictionCount)
        }
    }

    @Test func badRouteRequests() throws {
        let graph = try Fixtures.graph("monaco").file.path
        try expectRefused(["route", graph, "43.69,7.43", "43.7384,7.4246"], mentions: ["waypoint 1", "nearest road"], noFile: nil)
        try expectRefused(["route", graph, "43.7384,7.4246", "7.4197,43.7311"], mentions: ["waypoint 2", "swapped"], noFile: nil)
        try expectRefused(["route", graph, "43.7384,7.4246", "north,south"], mentions: ["waypoint 2", "north,south"], noFile: nil)
        try expectRefused(["route", graph, "43.7384,7.4246", "43.7311,7.4197", "--avoid", "tolls"], mentions: ["tolls"], noFile: nil)
        try expectRefused(["route", "/nonexistent.navgraph", "43.7384,7.4246", "43.7311,7.4197"], mentions: ["/nonexistent.navgraph"], noFile: nil)
    }

    @Test func importAndRouteEndToEnd() throws {
        let out = output("cli-monaco.navgraph")
        let imported = try Fixtures.run(["import", Fixtures.pbf("monaco"), "-o", out])
        #expect(imported.status == 0)
        #expect(imported.stderr.contains("customize"))
        let info = try Fixtures.run(["info", out, "--json"])
        #expect(info.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        #expect((json?["metadata"] as? [String: Any])?["edgeCount"] as? Int == (try RoutingGraph(path: out)).edgeCount)
        let geojson = output("cli-route.geojson")
        let routed = try Fixtures.run(["route", out, "43.7384,7.4246", "43.7402,7.4268", "43.7311,7.4197", "--output", geojson])
        #expect(routed.status == 0)
        #expect(routed.stdout.contains("leg 2"))
        #expect(FileManager.default.fileExists(atPath: geojson))
        // --names labels the waypoints in the summary (RouteOptions.waypointLabels) and the GeoJSON.
        let named = try Fixtures.run(["route", out, "43.7384,7.4246", "43.7402,7.4268", "43.7311,7.4197", "--names", "Home,,Work", "--output", geojson])
        #expect(named.status == 0)
        #expect(named.stdout.contains("waypoint 1 (Home):") && named.stdout.contains("waypoint 2:") && named.stdout.contains("waypoint 3 (Work):"))
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: geojson)), as: UTF8.self).contains("\"Work\""))
    }
}
