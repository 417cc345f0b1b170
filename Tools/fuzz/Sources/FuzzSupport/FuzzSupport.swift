import Foundation
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// What every fuzz target shares: scratch files and a small crafted graph to query.
public enum FuzzSupport {
    /// This process's scratch directory (one per fuzzing process, so parallel jobs do not collide).
    public static let directory: String = {
        let path = NSTemporaryDirectory() + "navgraph-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Writes the fuzzer's bytes to a scratch file named `name` and returns its path.
    public static func write(_ data: UnsafePointer<UInt8>?, _ size: Int, name: String) -> String {
        let path = directory + "/" + name
        let bytes = data.map { Data(bytes: $0, count: size) } ?? Data()
        FileManager.default.createFile(atPath: path, contents: bytes)
        return path
    }

    /// A 4x4 grid town (OSM nodes 1...16, 100 m apart) with a oneway, a toll road, a ferry and a turn
    /// restriction, imported once per process.
    ///
    ///     13 - 14 - 15 - 16
    ///      |    |    |    |
    ///      9 - 10 = 11 - 12      (= toll)
    ///      |    |    ~    |      (~ ferry 7-11)
    ///      5 -> 6 -  7 -  8      (-> oneway)
    ///      |    |    |    |
    ///      1 -  2 -  3 -  4
    public static let graph: RoutingGraph = {
        var xml = ["<?xml version='1.0' encoding='UTF-8'?>", "<osm version=\"0.6\" generator=\"navgraph-fuzz\">"]
        for row in 0..<4 { for column in 0..<4 {
            xml.append("<node id=\"\(row * 4 + column + 1)\" version=\"1\" lat=\"\(45.0 + Double(row) * 0.0009)\" lon=\"\(7.0 + Double(column) * 0.00127)\"/>")
        } }
        var wayID = 0
        func way(_ refs: [Int], _ tags: [String: String]) {
            wayID += 1
            xml.append("<way id=\"\(wayID)\" version=\"1\">" + refs.map { "<nd ref=\"\($0)\"/>" }.joined()
                + tags.sorted { $0.key < $1.key }.map { "<tag k=\"\($0.key)\" v=\"\($0.value)\"/>" }.joined() + "</way>")
        }
        for row in 0..<4 {
            for column in 0..<3 {
                let a = row * 4 + column + 1
                var tags = ["highway": row == 0 ? "primary" : "residential", "name": "Row \(row)"]
                if a == 5 { tags["oneway"] = "yes" }
                if a == 10 { tags["toll"] = "yes" }
                way([a, a + 1], tags)
            }
        }
        for column in 0..<4 {
            for row in 0..<3 where !(column == 2 && row == 1) {
                let a = row * 4 + column + 1
                way([a, a + 4], ["highway": column == 3 ? "secondary" : "residential"])
            }
        }
        way([7, 11], ["route": "ferry"])
        xml.append("<relation id=\"1\" version=\"1\"><member type=\"way\" ref=\"1\" role=\"from\"/><member type=\"node\" ref=\"2\" role=\"via\"/>"
                   + "<member type=\"way\" ref=\"2\" role=\"to\"/><tag k=\"type\" v=\"restriction\"/><tag k=\"restriction\" v=\"no_straight_on\"/></relation>")
        xml.append("</osm>")
        let input = directory + "/town.osm", output = directory + "/town.navgraph"
        do {
            try (xml.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
            try Importer.run(input: input, output: output, log: ProgressLog(quiet: true))
            return try RoutingGraph(path: output)
        } catch {
            fatalError("fuzz setup: cannot build the crafted town: \(error)")
        }
    }()

    public static let router = Router(graph: graph)

    /// Routes between the points and checks what must hold of any answer; a violated invariant traps (a finding).
    /// `checkValues: false` for graphs loaded with checksums off: their travel times may be tampered with, so only
    /// memory safety is checked (an infinite duration there is nonsense in, nonsense out).
    public static func routeAndCheck(_ router: Router, _ points: [Coordinate], options: RouteOptions = RouteOptions(), checkValues: Bool = true) {
        guard points.count >= 2 else { return }
        guard let response = try? router.route(points, options: options) else { return }
        precondition(!response.routes.isEmpty, "a route response without routes")
        for route in response.routes where checkValues {
            precondition(route.distance.isFinite && route.distance >= 0 && route.duration.isFinite && route.duration >= 0,
                         "route distance \(route.distance) / duration \(route.duration)")
            precondition(route.legs.count == points.count - 1, "\(route.legs.count) legs for \(points.count) points")
        }
        _ = RouteGeoJSON.make(response, OutputOptions())
        _ = DirectionsResponse.make(response, OutputOptions())
    }
}

