import Foundation
import XCTest
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Map matching and trips on small hand-made maps: noise, gaps, the transition term on parallel roads, trip orders
/// against brute force, and every error code of /match and /trip.
final class CraftedMatchTests: XCTestCase {
    /// Main Street A-P along lat 45.0 (lon 7.000 … 7.030), Parallel Street a-l 33 m north of it (lon 7.004 … 7.026)
    /// joined to it only at its two ends (West Link C-a, East Link N-l), and Side Street H-Z south at lon 7.014. One
    /// column is 0.002° of longitude (157 m), one line 0.0003° of latitude (33 m), A at 45.0 N, 7.0 E.
    static let graph = parallelRoads(main: ["highway": "secondary", "name": "Main Street"],
                                     parallel: ["highway": "secondary", "name": "Parallel Street"],
                                     gridMetres: 0.002 * MapDrawing.metresPerDegree * cos(45.0 * .pi / 180),
                                     lineMetres: 0.0003 * MapDrawing.metresPerDegree, named: "crafted-match")

    /// The drawing of the matching maps: a main road A-P with A at 45.0 N, 7.0 E, a parallel road a-l one line north of
    /// it from C to N, joined to it only at its two ends (West Link C-a, East Link N-l), and Side Street H-Z ten lines
    /// south; the two roads' tags and the grid are the caller's.
    static func parallelRoads(main: [String: String], parallel: [String: String], gridMetres: Double, lineMetres: Double,
                              named name: String) -> RoutingGraph? {
        let map = try? MapDrawing("""
              abcdefghijkl
            ABCDEFGHIJKLMNOP
                   |
                   |
                   |
                   |
                   |
                   |
                   |
                   |
                   |
                   Z
            """, gridMetres: gridMetres, lineMetres: lineMetres, origin: Coordinate(lat: 45.0, lon: 7.0), anchor: "A",
            ways: [("ABCDEFGHIJKLMNOP", main), ("abcdefghijkl", parallel),
                   ("Ca", ["highway": "residential", "name": "West Link"]), ("Nl", ["highway": "residential", "name": "East Link"]),
                   ("HZ", ["highway": "residential", "name": "Side Street"])])
        return try? map?.importGraph(named: name).graph
    }

    /// Matches a trace that must come out as one matching of all its points; the name of the road each is matched to.
    static func matchedRoadNames(_ trace: [TracePoint], graph: RoutingGraph, options: MatchOptions = MatchOptions()) throws -> [String] {
        let result = MapMatcher(router: Router(graph: graph), options: options).match(trace)
        XCTAssertEqual(result.matchings.count, 1)
        let matching = try XCTUnwrap(result.matchings.first)
        XCTAssertEqual(matching.pointIndices, Array(trace.indices))
        return matching.snaps.map { graph.string(graph.edgeName[$0.edge]) }
    }

    static func loadedGraph() throws -> RoutingGraph {
        guard let graph else { throw XCTSkip("crafted match map failed to import") }
        return graph
    }

    /// Gaussian noise of σ metres (Box–Muller on the seeded generator).
    static func noisy(_ c: Coordinate, sigma: Double, _ random: inout SeededGenerator) -> Coordinate {
        let u = Double.random(in: 1e-12..<1, using: &random), v = Double.random(in: 0..<1, using: &random)
        let r = (-2 * log(u)).squareRoot() * sigma
        let north = r * cos(2 * .pi * v), east = r * sin(2 * .pi * v)
        return Coordinate(lat: c.lat + north / 111_195, lon: c.lon + east / (111_195 * cos(c.lat * .pi / 180)))
    }

    static func path(_ points: [Coordinate]) -> String { points.map(osrmPoint).joined(separator: ";") }

    static func get(_ service: RoutingService, _ target: String) throws -> (status: Int, json: [String: Any]) {
        let response = service.handle(HTTPRequest(method: "GET", target: target))
        let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any] ?? [:]
        return (response.status, json)
    }

    func testNoisyTraceAlongARoadMatchesThatRoad() throws {
        let graph = try Self.loadedGraph()
        let router = Router(graph: graph)
        var random = SeededGenerator(seed: 42)
        // Every ~40 m along Main Street from lon 7.001 to 7.029, σ = 5 m.
        let truth = stride(from: 7.001, through: 7.029, by: 0.0005).map { Coordinate(lat: 45.0, lon: $0) }
        let trace = truth.map { TracePoint(coordinate: Self.noisy($0, sigma: 5, &random), sigma: 5) }
        let result = MapMatcher(router: router).match(trace)
        XCTAssertEqual(result.matchings.count, 1)
        let matching = try XCTUnwrap(result.matchings.first)
        XCTAssertEqual(matching.pointIndices.count, trace.count, "every point is matched")
        for snap in matching.snaps {
            XCTAssertEqual(graph.string(graph.edgeName[snap.edge]), "Main Street")
            XCTAssertEqual(snap.point.lat, 45.0, accuracy: 1e-6)
        }
        // Driven eastwards the whole way: each matched point lies east of the previous, the route is the trace's extent.
        let expected = Geo.haversine(truth[0], truth[truth.count - 1])
        let driven = matching.paths.reduce(0.0) { total, path in total + router.buildLeg(path, metric: result.metric, names: nil).distance }
        XCTAssertEqual(driven, expected, accuracy: 30)
        XCTAssertGreaterThan(matching.confidence, 0.7)
    }

    func testParallelRoadIsRejectedByTheTransitionTerm() throws {
        let graph = try Self.loadedGraph()
        let router = Router(graph: graph)
        // Driving along Main Street; three fixes in the middle are pulled 20 m north, nearer Parallel Street (33 m north).
        var points = stride(from: 7.006, through: 7.024, by: 0.0006).map { Coordinate(lat: 45.0, lon: $0) }
        for index in 14...16 { points[index].lat += 20 / 111_195.0 }
        let trace = points.map { TracePoint(coordinate: $0, sigma: 10) }
        // Nearest-road snapping would put those three on Parallel Street.
        let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
        var options = RouteOptions()
        options.radius = 100
        let nearest = try (14...16).map { try router.snap(points[$0], index: $0, options: options, metric: metric) }
        XCTAssertTrue(nearest.allSatisfy { graph.string(graph.edgeName[$0.edge]) == "Parallel Street" })
        let result = MapMatcher(router: router).match(trace)
        XCTAssertEqual(result.matchings.count, 1)
        let matching = try XCTUnwrap(result.matchings.first)
        XCTAssertEqual(matching.pointIndices.count, trace.count)
        for snap in matching.snaps { XCTAssertEqual(graph.string(graph.edgeName[snap.edge]), "Main Street") }
    }

    /// A drive east along Main Street between West Link (C) and Side Street (H), a fix a second at 10 m/s with σ = 20 m,
    /// in which fix 15 is replaced by `outlier`.
    static func driveWithOutlier(_ outlier: Coordinate) -> [TracePoint] {
        let metresPerDegree = 111_195 * cos(45.0 * .pi / 180)
        return (0..<30).map { index in
            let onRoad = Coordinate(lat: 45.0, lon: 7.006 + Double(index) * 10 / metresPerDegree)
            return TracePoint(coordinate: index == 15 ? outlier : onRoad, timestamp: Double(index), sigma: 20)
        }
    }

    func testFixThrownBackAlongTheRoadDoesNotSplitTheDrive() throws {
        let graph = try Self.loadedGraph()
        // Fix 15 lies on Main Street 75 m behind fix 14: no route reaches it within a second (the nearest U-turn is at H,
        // 450 m ahead), and it is too far behind to be standing still (3σ = 60 m), but within the 80 m search radius of
        // where the car was.
        let trace = Self.driveWithOutlier(Coordinate(lat: 45.0, lon: 7.006 + 65 / (111_195 * cos(45.0 * .pi / 180))))
        let result = MapMatcher(router: Router(graph: graph)).match(trace)
        XCTAssertEqual(result.matchings.count, 1, "the outlier is matched where the car was, not a split")
        let matching = try XCTUnwrap(result.matchings.first)
        XCTAssertEqual(matching.pointIndices, Array(0..<30))
        guard matching.snaps.count == 30 else { return }
        XCTAssertEqual(matching.snaps[15].point.lon, matching.snaps[14].point.lon, accuracy: 1e-9)
        for (index, snap) in matching.snaps.enumerated() where index != 15 {
            XCTAssertEqual(snap.point.lon, trace[index].coordinate.lon, accuracy: 1e-6)
            XCTAssertEqual(graph.string(graph.edgeName[snap.edge]), "Main Street")
        }
    }

    func testFirstFixAheadOfTheSecondMovesTheStartBack() throws {
        let graph = try Self.loadedGraph()
        // Fix 0 lies on Main Street 40 m ahead of where the car was, 30 m ahead of fix 1 (within the 3σ standstill
        // tolerance, so a standstill). Nothing before fix 0 says which of the two is off: the matching starts at
        // fix 1, not 30 m down the road from it.
        var trace = Self.driveWithOutlier(Coordinate(lat: 45.0, lon: 7.006 + 150 / (111_195 * cos(45.0 * .pi / 180))))
        trace[0] = TracePoint(coordinate: Coordinate(lat: 45.0, lon: 7.006 + 40 / (111_195 * cos(45.0 * .pi / 180))), timestamp: 0, sigma: 20)
        let result = MapMatcher(router: Router(graph: graph)).match(trace)
        XCTAssertEqual(result.matchings.count, 1)
        let matching = try XCTUnwrap(result.matchings.first)
        XCTAssertEqual(matching.pointIndices, Array(0..<30))
        guard matching.snaps.count == 30 else { return }
        XCTAssertEqual(matching.snaps[0].point.lon, trace[1].coordinate.lon, accuracy: 1e-6, "the start moves back to fix 1")
        XCTAssertEqual(matching.snaps[1].point.lon, trace[1].coordinate.lon, accuracy: 1e-6)
        for snap in matching.snaps { XCTAssertEqual(graph.string(graph.edgeName[snap.edge]), "Main Street") }
    }

    func testFixNoRouteCanReachIsSkipped() throws {
        let graph = try Self.loadedGraph()
        // Fix 15 lies on Side Street 300 m south of Main Street: no route from Main Street reaches it within a second, and
        // it is far beyond the search radius of the car's last position. It is left unmatched; the drive stays whole.
        let trace = Self.driveWithOutlier(Coordinate(lat: 45.0 - 300 / 111_195.0, lon: 7.014))
        let result = MapMatcher(router: Router(graph: graph)).match(trace)
        XCTAssertEqual(result.matchings.count, 1, "one wild fix does not cut the drive in two")
        let matching = try XCTUnwrap(result.matchings.first)
        XCTAssertEqual(matching.pointIndices, Array(0..<15) + Array(16..<30))
        XCTAssertNil(result.placement[15])
        for snap in matching.snaps { XCTAssertEqual(graph.string(graph.edgeName[snap.edge]), "Main Street") }
    }

    func testTimeGapSplitsIntoTwoMatchingsUnlessIgnored() throws {
        let service = RoutingService(engine: RoutingEngine(graph: try Self.loadedGraph()))
        let points = stride(from: 7.002, through: 7.028, by: 0.002).map { Coordinate(lat: 45.00002, lon: $0) }
        var times = points.indices.map { $0 * 10 }
        for index in 7..<times.count { times[index] += 300 }   // a five-minute gap after the seventh point
        let stamps = times.map(String.init).joined(separator: ";")
        let split = try Self.get(service, "/match/v1/driving/\(Self.path(points))?timestamps=\(stamps)")
        XCTAssertEqual(split.status, 200, "\(split.json)")
        let matchings = try XCTUnwrap(split.json["matchings"] as? [[String: Any]])
        XCTAssertEqual(matchings.count, 2)
        let tracepoints = try XCTUnwrap(split.json["tracepoints"] as? [[String: Any]])
        XCTAssertEqual(tracepoints.count, points.count)
        XCTAssertEqual(tracepoints.map { $0["matchings_index"] as? Int }, points.indices.map { $0 < 7 ? 0 : 1 })
        XCTAssertEqual(tracepoints.map { $0["waypoint_index"] as? Int }, points.indices.map { $0 < 7 ? $0 : $0 - 7 })
        for matching in matchings {
            XCTAssertNotNil(matching["confidence"] as? Double)
            XCTAssertEqual((matching["legs"] as? [Any])?.count, 6)
        }
        let ignored = try Self.get(service, "/match/v1/driving/\(Self.path(points))?timestamps=\(stamps)&gaps=ignore")
        XCTAssertEqual((ignored.json["matchings"] as? [Any])?.count, 1)
    }

    func testMatchResponseCarriesStepsAnnotationsAndGeometryLikeRoute() throws {
        let service = RoutingService(engine: RoutingEngine(graph: try Self.loadedGraph()))
        let points = [Coordinate(lat: 45.00003, lon: 7.003), Coordinate(lat: 44.99997, lon: 7.008), Coordinate(lat: 45.00002, lon: 7.013)]
        let options = "steps=true&annotations=distance,duration&geometries=geojson&overview=full"
        let match = try Self.get(service, "/match/v1/driving/\(Self.path(points))?\(options)")
        XCTAssertEqual(match.status, 200, "\(match.json)")
        let route = try Self.get(service, "/route/v1/driving/\(Self.path(points))?\(options)")
        let matched = try XCTUnwrap((match.json["matchings"] as? [[String: Any]])?.first)
        let routed = try XCTUnwrap((route.json["routes"] as? [[String: Any]])?.first)
        // Points on one road driven in order: the matched route is the route.
        XCTAssertEqual(matched["distance"] as? Double ?? -1, routed["distance"] as? Double ?? 0, accuracy: 1)
        let legs = try XCTUnwrap(matched["legs"] as? [[String: Any]])
        XCTAssertEqual(legs.count, 2)
        XCTAssertFalse((legs[0]["steps"] as? [Any] ?? []).isEmpty)
        XCTAssertNotNil((legs[0]["annotation"] as? [String: Any])?["distance"])
        XCTAssertEqual((matched["geometry"] as? [String: Any])?["type"] as? String, "LineString")
        let tracepoint = try XCTUnwrap((match.json["tracepoints"] as? [[String: Any]])?.first)
        XCTAssertEqual(tracepoint["name"] as? String, "Main Street")
        XCTAssertNotNil(tracepoint["alternatives_count"] as? Int)
        XCTAssertNotNil(tracepoint["location"] as? [Double])
    }

    func testMapboxMatchingGetAndPostEqualTheOSRMMatch() throws {
        let service = RoutingService(engine: RoutingEngine(graph: try Self.loadedGraph()))
        let points = stride(from: 7.003, through: 7.019, by: 0.002).map { Coordinate(lat: 45.00003, lon: $0) }
        let osrm = try Self.get(service, "/match/v1/driving/\(Self.path(points))?steps=true&overview=full")
        let get = try Self.get(service, "/matching/v5/mapbox/driving/\(Self.path(points)).json?steps=true&overview=full&ignore=access")
        let form = "coordinates=\(Self.path(points))&steps=true&overview=full"
        let posted = service.handle(HTTPRequest(method: "POST", target: "/matching/v5/mapbox/driving", body: Data(form.utf8)))
        let post = try JSONSerialization.jsonObject(with: posted.body) as? [String: Any] ?? [:]
        for answer in [get.json, post] {
            XCTAssertEqual(answer["code"] as? String, "Ok")
            let a = try XCTUnwrap((answer["matchings"] as? [[String: Any]])?.first), b = try XCTUnwrap((osrm.json["matchings"] as? [[String: Any]])?.first)
            XCTAssertEqual(a["distance"] as? Double, b["distance"] as? Double)
            XCTAssertEqual(a["geometry"] as? String, b["geometry"] as? String)
            XCTAssertEqual(a["confidence"] as? Double, b["confidence"] as? Double)
            XCTAssertEqual((answer["tracepoints"] as? [Any])?.count, points.count)
        }
        // Mapbox answers NoMatch with 200, too many points with 422 TooManyCoordinates.
        let nowhere = service.handle(HTTPRequest(method: "GET", target: "/matching/v5/mapbox/driving/7.5,45.3;7.51,45.3"))
        XCTAssertEqual(nowhere.status, 200)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: nowhere.body) as? [String: Any])?["code"] as? String, "NoMatch")
        let many = service.handle(HTTPRequest(method: "GET", target: "/matching/v5/mapbox/driving/" + Array(repeating: "7.004,45.0", count: 101).joined(separator: ";")))
        XCTAssertEqual(many.status, 422)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: many.body) as? [String: Any])?["code"] as? String, "TooManyCoordinates")
    }

    func testCommandLineMatchesAFolderOfTracesAndPlansATrip() throws {
        _ = try Self.loadedGraph()
        let graphPath = Fixtures.workDirectory.appendingPathComponent("crafted-match.navgraph").path
        let folder = Fixtures.workDirectory.appendingPathComponent("match-traces-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let csv = "lat,lon,time\n" + stride(from: 7.002, through: 7.020, by: 0.002).enumerated()
            .map { "45.00002,\($0.element),\(1_700_000_000 + 10 * $0.offset)" }.joined(separator: "\n")
        try csv.write(to: folder.appendingPathComponent("a.csv"), atomically: true, encoding: .utf8)
        let gpx = "<gpx><trk><trkseg>" + stride(from: 7.004, through: 7.012, by: 0.002)
            .map { "<trkpt lat=\"44.99998\" lon=\"\($0)\"></trkpt>" }.joined() + "<trkpt lat=\"45.3\" lon=\"7.5\"/></trkseg></trk></gpx>"
        try gpx.write(to: folder.appendingPathComponent("b.gpx"), atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out").path
        let run = try Fixtures.run(["match", graphPath, folder.path, "-o", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("[2/2]"), run.stderr)
        for (name, matched, unmatched) in [("a", 10, 0), ("b", 5, 1)] {
            let data = try Data(contentsOf: URL(fileURLWithPath: out).appendingPathComponent("\(name).matched.geojson"))
            let features = try XCTUnwrap((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["features"] as? [[String: Any]])
            let kinds = features.compactMap { ($0["properties"] as? [String: Any])?["kind"] as? String }
            XCTAssertEqual(kinds.filter { $0 == "matched" }.count, 1, name)
            XCTAssertEqual(kinds.filter { $0 == "snapped" }.count, matched, name)
            XCTAssertEqual(kinds.filter { $0 == "unmatched" }.count, unmatched, name)
        }
        let trip = try Fixtures.run(["trip", graphPath, "45.0,7.002", "45.0,7.020", "45.0,7.008"])
        XCTAssertEqual(trip.status, 0, trip.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(trip.stdout.utf8)) as? [String: Any]
        XCTAssertEqual((json?["waypoints"] as? [[String: Any]])?.compactMap { $0["waypoint_index"] as? Int }.sorted(), [0, 1, 2])
        let bad = try Fixtures.run(["trip", graphPath, "45.0,7.002"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("at least 2 stops"), bad.stderr)
    }

    func testTidyDropsBunchedPoints() throws {
        let service = RoutingService(engine: RoutingEngine(graph: try Self.loadedGraph()))
        // Five fixes within 3 m of each other (a stop), then the drive on.
        var points = (0..<5).map { Coordinate(lat: 45.00001, lon: 7.004 + 0.00001 * Double($0)) }
        points += stride(from: 7.006, through: 7.012, by: 0.002).map { Coordinate(lat: 45.00001, lon: $0) }
        let tidy = try Self.get(service, "/match/v1/driving/\(Self.path(points))?tidy=true")
        let tracepoints = try XCTUnwrap(tidy.json["tracepoints"] as? [Any])
        XCTAssertEqual(tracepoints.filter { $0 is NSNull }.count, 4, "the bunched fixes after the first are dropped")
        let plain = try Self.get(service, "/match/v1/driving/\(Self.path(points))")
        XCTAssertEqual((plain.json["tracepoints"] as? [Any])?.filter { $0 is NSNull }.count, 0)
    }

    func testBadMatchAndTripInputGetOSRMCodes() throws {
        var limits = ServiceLimits()
        limits.maximumMatchingSize = 5
        limits.maximumTripSize = 4
        let service = RoutingService(engine: RoutingEngine(graph: try Self.loadedGraph()), limits: limits)
        let two = "7.004,45.0;7.010,45.0"
        let cases: [(String, String, String)] = [
            ("/match/v1/driving/7.004,45.0", "InvalidOptions", "at least 2"),
            ("/match/v1/driving/\(two)?timestamps=10;5", "InvalidValue", "timestamps"),
            ("/match/v1/driving/\(two)?timestamps=10;nan", "InvalidValue", "timestamps"),
            ("/match/v1/driving/\(two)?timestamps=10", "InvalidOptions", "timestamps"),
            ("/match/v1/driving/7.004,nan;7.010,45.0", "InvalidValue", "coordinate"),
            ("/match/v1/driving/\(two)?gaps=sometimes", "InvalidQuery", "gaps"),
            ("/match/v1/driving/" + Array(repeating: "7.004,45.0", count: 6).joined(separator: ";"), "TooBig", "6 coordinates"),
            ("/match/v1/driving/7.5,45.3;7.51,45.3", "NoMatch", "no stretch"),
            ("/trip/v1/driving/7.004,45.0", "InvalidOptions", "at least 2"),
            ("/trip/v1/driving/" + Array(repeating: "7.004,45.0", count: 5).joined(separator: ";"), "TooBig", "5 coordinates"),
            ("/trip/v1/driving/\(two)?roundtrip=false", "NotImplemented", "roundtrip"),
            ("/trip/v1/driving/\(two)?source=middle", "InvalidQuery", "source"),
        ]
        for (target, code, fragment) in cases {
            let (status, json) = try Self.get(service, target)
            XCTAssertEqual(status, 400, target)
            XCTAssertEqual(json["code"] as? String, code, target)
            XCTAssertTrue((json["message"] as? String ?? "").contains(fragment), "\(target): \(json["message"] ?? "")")
        }
    }

    func testTripVisitsEveryStopInTheBestOrder() throws {
        let service = RoutingService(engine: RoutingEngine(graph: try Self.loadedGraph()))
        // Four stops along Main Street given out of order: the round trip drives out and back.
        let stops = [7.002, 7.020, 7.008, 7.014].map { Coordinate(lat: 45.0, lon: $0) }
        let (status, json) = try Self.get(service, "/trip/v1/driving/\(Self.path(stops))?source=first")
        XCTAssertEqual(status, 200, "\(json)")
        let waypoints = try XCTUnwrap(json["waypoints"] as? [[String: Any]])
        XCTAssertEqual(waypoints.map { $0["trips_index"] as? Int }, [0, 0, 0, 0])
        let order = waypoints.map { $0["waypoint_index"] as? Int ?? -1 }
        XCTAssertEqual(order[0], 0)
        // Out along the street in order of longitude and back: 7.002, 7.008, 7.014, 7.020 (or the reverse).
        XCTAssertTrue(order == [0, 3, 1, 2] || order == [0, 1, 3, 2], "\(order)")
        let trip = try XCTUnwrap((json["trips"] as? [[String: Any]])?.first)
        XCTAssertEqual((trip["legs"] as? [Any])?.count, 4)
        XCTAssertEqual(trip["distance"] as? Double ?? 0, 2 * Geo.haversine(stops[0], stops[1]), accuracy: 40)
    }

    /// The cheapest order by trying every permutation (stop 0 first; for a path, the last stop last).
    static func bruteForce(_ solver: TripSolver) -> Double {
        let n = solver.count
        var middle = Array(1..<(solver.roundtrip ? n : n - 1))
        var best = Double.infinity
        func permute(_ k: Int) {
            if k == middle.count {
                best = min(best, solver.tourCost([0] + middle + (solver.roundtrip ? [] : [n - 1])))
                return
            }
            for i in k..<middle.count {
                middle.swapAt(k, i)
                permute(k + 1)
                middle.swapAt(k, i)
            }
        }
        permute(0)
        return best
    }

    func testTripSolverIsExactAgainstBruteForceAndHeuristicIsClose() {
        var random = SeededGenerator(seed: 7)
        for n in 3...8 {
            for roundtrip in [true, false] {
                for _ in 0..<5 {
                    // Asymmetric costs: points in a square plus a random one-way surcharge.
                    let xy = (0..<n).map { _ in (Double.random(in: 0..<1000, using: &random), Double.random(in: 0..<1000, using: &random)) }
                    var cost = [Double](repeating: 0, count: n * n)
                    for a in 0..<n {
                        for b in 0..<n where a != b {
                            cost[a * n + b] = hypot(xy[a].0 - xy[b].0, xy[a].1 - xy[b].1) + Double.random(in: 0..<200, using: &random)
                        }
                    }
                    let solver = TripSolver(count: n, cost: cost, roundtrip: roundtrip)
                    let order = solver.solve()
                    XCTAssertEqual(Set(order), Set(0..<n))
                    XCTAssertEqual(order.first, 0)
                    if !roundtrip { XCTAssertEqual(order.last, n - 1) }
                    let optimum = Self.bruteForce(solver)
                    XCTAssertEqual(solver.tourCost(order), optimum, accuracy: 1e-6, "n=\(n) roundtrip=\(roundtrip)")
                    let heuristic = solver.heuristic()
                    XCTAssertEqual(Set(heuristic), Set(0..<n))
                    XCTAssertGreaterThanOrEqual(solver.tourCost(heuristic), optimum - 1e-6)
                    XCTAssertLessThanOrEqual(solver.tourCost(heuristic), optimum * 1.03, "n=\(n) roundtrip=\(roundtrip)")
                }
            }
        }
    }
}
