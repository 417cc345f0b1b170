import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Isochrones: snapped road points routed well under a contour lie inside it, those well over lie outside.
@Suite struct IsochroneTests {
    /// Even-odd test over every ring of every polygon (holes excluded by parity).
    static func contains(_ polygons: [[[Coordinate]]], _ point: Coordinate) -> Bool {
        var inside = false
        for rings in polygons {
            for ring in rings {
                var previous = ring[ring.count - 1]
                for current in ring {
                    if (current.lat > point.lat) != (previous.lat > point.lat),
                       point.lon < (previous.lon - current.lon) * (point.lat - current.lat) / (previous.lat - current.lat) + current.lon {
                        inside.toggle()
                    }
                    previous = current
                }
            }
        }
        return inside
    }

    @Test(arguments: [("monaco", [2.0, 4.0], false), ("monaco", [4.0], true), ("porto", [5.0, 10.0], false), ("porto", [6.0, 12.0], true)])
    func polygonsSeparateReachedFromUnreached(extract: String, minutes: [Double], reverse: Bool) throws {
        let graph = try Fixtures.graph(extract)
        let router = Router(graph: graph)
        let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
        var sizes: [UInt32: Int] = [:]
        for node in 0..<graph.routingNodeCount { sizes[graph.routingComponent[node], default: 0] += 1 }
        let main = sizes.max { $0.value < $1.value }?.key
        // A centre on the main network.
        let centre = randomRoadPoints(graph, count: 40, seed: 40).lazy.compactMap { point -> Snap? in
            guard let snap = try? router.snap(point, index: 0, options: RouteOptions(), metric: metric) else { return nil }
            let nodes = [graph.routingNodeOfEdge[2 * snap.edge], graph.routingNodeOfEdge[2 * snap.edge + 1]].filter { $0 >= 0 }
            return nodes.allSatisfy({ graph.routingComponent[Int($0)] == main }) && !nodes.isEmpty ? snap : nil
        }.first
        let snap = try #require(centre)
        var options = Isochrone.Options()
        options.minutes = minutes
        options.reverse = reverse
        let (isochrone, _) = Isochrone.compute(router: router, snap: snap, metric: metric, options: options)
        var inside = 0, outside = 0, wronglyOut = 0, wronglyIn: [String] = []
        for (index, point) in randomRoadPoints(graph, count: 600, seed: 42).enumerated() {
            guard let target = try? router.snap(point, index: index, options: RouteOptions(), metric: metric) else { continue }
            let leg = reverse ? router.legPath(from: target, to: snap, metric: metric, algorithm: .hierarchy)
                              : router.legPath(from: snap, to: target, metric: metric, algorithm: .hierarchy)
            // Travel time, without restricted-entry penalties (a point on a destination-only road is reached as a destination).
            let routed = leg.map { Double(TurnCosts.duration(ofSearchCost: UInt32($0.cost))) / 60_000 } ?? .infinity
            for contour in isochrone.contours {
                let within = Self.contains(contour.polygons, target.point)
                if routed < 0.8 * contour.minutes {
                    inside += 1
                    if !within { wronglyOut += 1 }
                } else if routed > 1.25 * contour.minutes {
                    outside += 1
                    if within { wronglyIn.append(String(format: "%.5f,%.5f routed %.1f min, contour %.0f", target.point.lat, target.point.lon, routed, contour.minutes)) }
                }
            }
        }
        #expect(inside > 20 && outside > 20, "\(extract): too few points to judge (\(inside) under, \(outside) over)")
        #expect(wronglyOut == 0, "\(extract): \(wronglyOut) of \(inside) points routed well under a contour lie outside it")
        // Polygons are drawn from a grid of about 50 m around reached roads: a road point within a cell of a
        // reached road (a carriageway beside the one driven, a road under a bridge, a street behind a 60 s lift gate)
        // is inside though routed later.
        #expect(wronglyIn.count <= max(1, outside / 30), "\(extract): \(wronglyIn.count) of \(outside) points routed well over a contour lie inside: \(wronglyIn.prefix(5))")
        print("isochrone \(extract) reverse=\(reverse): \(inside) under (all inside: \(wronglyOut == 0)), \(outside) over, \(wronglyIn.count) of them inside")
    }
}

/// Bad input to `navgraph matrix` and `navgraph isochrone`: exit status 2, a message naming the problem, no file.
@Suite struct ManyToManyCommandLineTests {
    func write(_ text: String, _ name: String) throws -> String {
        let path = Fixtures.workDirectory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func graphPath() throws -> String {
        _ = try Fixtures.graph("monaco")
        return Fixtures.workDirectory.appendingPathComponent("monaco.navgraph").path
    }

    func expectFailure(_ arguments: [String], mentions: [String], output: String) throws {
        try? FileManager.default.removeItem(atPath: output)
        let result = try Fixtures.run(arguments + ["--output", output])
        #expect(result.status == 2, "\(arguments): exit \(result.status)")
        for text in mentions { #expect(result.stderr.contains(text), "\(arguments): stderr \(result.stderr) lacks \(text)") }
        #expect(!FileManager.default.fileExists(atPath: output), "\(arguments) left \(output)")
    }

    @Test func matrixBadInput() throws {
        let graph = try graphPath()
        let output = Fixtures.workDirectory.appendingPathComponent("bad-matrix.json").path
        try expectFailure(["matrix", graph, try write("", "empty.csv")], mentions: ["empty.csv", "no points"], output: output)
        try expectFailure(["matrix", graph, try write("lon,lat\r\n7.42,43.73\r\n7.42;43.74\r\n", "semicolon.csv")],
                          mentions: ["semicolon.csv:3", "'7.42;43.74'", "lon,lat"], output: output)
        try expectFailure(["matrix", graph, try write("7.42,43.73\n7.42,95\n", "range.csv")], mentions: ["range.csv:2", "not a valid coordinate"], output: output)
        let far = try write("7.4246,43.7384\n7.6,43.9\n", "far.csv")
        try expectFailure(["matrix", graph, far], mentions: ["far.csv:2", "from the nearest road"], output: output)
        try expectFailure(["matrix", graph, far, "--annotations", "duration,speed"], mentions: ["speed"], output: output)
        try expectFailure(["matrix", graph, far, "--destinations", "/nonexistent/points.csv"], mentions: ["/nonexistent/points.csv"], output: output)
        // With --skip-unsnappable the far point's row and column are null.
        let result = try Fixtures.run(["matrix", graph, far, "--skip-unsnappable", "--annotations", "duration,distance", "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any]
        let durations = json?["durations"] as? [[Any]]
        #expect(durations?.count == 2 && durations?[0][0] as? Double == 0)
        #expect(durations?[1][0] is NSNull && durations?[0][1] is NSNull)
        #expect((json?["sources"] as? [Any])?[1] is NSNull)
    }

    @Test func matrixCSVMatchesJSON() throws {
        let graph = try graphPath()
        let points = try write("lon,lat\n7.4246,43.7384\n7.4268,43.7402\n7.4197,43.7311\n", "three.csv")
        let csvPath = Fixtures.workDirectory.appendingPathComponent("three.csv.out.csv").path
        let jsonPath = Fixtures.workDirectory.appendingPathComponent("three.json").path
        #expect(try Fixtures.run(["matrix", graph, points, "--annotations", "duration,distance", "--output", csvPath]).status == 0)
        #expect(try Fixtures.run(["matrix", graph, points, "--annotations", "duration,distance", "--output", jsonPath]).status == 0)
        let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: jsonPath))) as? [String: Any]
        let durations = try #require(json?["durations"] as? [[Double]]), distances = try #require(json?["distances"] as? [[Double]])
        let lines = try String(contentsOfFile: csvPath, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "source,destination,duration_s,distance_m" && lines.count == 10)
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let (row, column) = (Int(fields[0]) ?? -1, Int(fields[1]) ?? -1)
            #expect(Double(fields[2]) == durations[row][column] && Double(fields[3]) == distances[row][column])
        }
        // The route between the first two points agrees with the table.
        let route = try Router(graph: RoutingGraph(path: graph)).route([Coordinate(lat: 43.7384, lon: 7.4246), Coordinate(lat: 43.7402, lon: 7.4268)])
        #expect(abs(route.routes[0].distance - distances[0][1]) < 0.006)
        #expect(abs(route.routes[0].weight - durations[0][1]) < 0.0006)
    }

    @Test func isochroneBadInput() throws {
        let graph = try graphPath()
        let output = Fixtures.workDirectory.appendingPathComponent("bad-iso.geojson").path
        try expectFailure(["isochrone", graph, "43.7384,7.4246", "--minutes", "5,abc"], mentions: ["--minutes", "'abc'"], output: output)
        try expectFailure(["isochrone", graph, "43.7384,7.4246", "--minutes", "-3"], mentions: ["'-3'"], output: output)
        try expectFailure(["isochrone", graph, "43.9,7.6"], mentions: ["centre", "from the nearest road"], output: output)
        try expectFailure(["isochrone", graph, "43.7384"], mentions: ["centre", "LAT,LON"], output: output)
        let result = try Fixtures.run(["isochrone", graph, "43.7384,7.4246", "--minutes", "2,4", "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any]
        let features = try #require(json?["features"] as? [[String: Any]])
        let contours = features.compactMap { ($0["properties"] as? [String: Any])?["contour"] as? Double }
        #expect(contours == [4, 2])
        #expect(features.compactMap { ($0["properties"] as? [String: Any])?["fill"] as? String }.first == RouteTheme.default.isochroneFarColor)
    }
}
