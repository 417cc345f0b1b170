import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import NavGraphServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `navgraph serve`: the OSRM API over real sockets against the library's own answers, error codes,
/// hostile clients, and traffic swaps under load.
@Suite struct ServerTests {
    /// The coordinate a client sends after `%.6f` formatting, so the library routes exactly the same input.
    static func asSent(_ c: Coordinate) -> Coordinate {
        Coordinate(lat: Double(String(format: "%.6f", c.lat)) ?? c.lat, lon: Double(String(format: "%.6f", c.lon)) ?? c.lon)
    }

    static func serverOptions() -> RouteOptions {
        var options = RouteOptions()
        options.radius = OSRMService.defaultRadius
        return options
    }

    /// Whether a JSON number matches a library value after the server's one-decimal rounding.
    static func same(_ json: Any?, _ value: Double) -> Bool {
        guard let number = json as? Double ?? (json as? Int).map(Double.init) else { return false }
        return abs(number - (value * 10).rounded() / 10) < 1e-6
    }

    /// Whether a JSON number is within the 0.1 of the server's rounding of a library value.
    static func near(_ json: Any?, _ value: Double) -> Bool {
        guard let number = json as? Double ?? (json as? Int).map(Double.init) else { return false }
        return abs(number - value) <= 0.1 + 1e-9
    }

    @Test func routeTableAndNearestAgreeWithTheLibrary() throws {
        let graph = try Fixtures.graph("andorra")
        let server = try TestServer(graph: graph)
        defer { server.stop() }
        let router = Router(graph: graph)
        let points = randomRoadPoints(graph, count: 40, seed: 12).map(Self.asSent)
        var compared = 0
        for index in stride(from: 0, to: points.count, by: 2) {
            let a = points[index], b = points[index + 1]
            let (status, json) = try RawHTTP.json(port: server.port, target: "/route/v1/driving/\(osrmPoint(a));\(osrmPoint(b))?overview=full&geometries=polyline6")
            do {
                let expected = try router.route([a, b], options: Self.serverOptions())
                #expect(status == 200)
                let route = (json["routes"] as? [[String: Any]])?.first
                #expect(Self.same(route?["distance"], expected.routes[0].distance))
                #expect(Self.same(route?["duration"], expected.routes[0].duration))
                let geometry = try Polyline.decode(route?["geometry"] as? String ?? "", precision: 6)
                let reference = expected.routes[0].coordinates
                #expect(geometry.count == reference.count)
                #expect(zip(geometry, reference).allSatisfy { abs($0.lat - $1.lat) < 2e-6 && abs($0.lon - $1.lon) < 2e-6 })
                compared += 1
            } catch let error as NavGraphError {
                #expect(status == 400)
                #expect(json["code"] as? String == (error.code == .noRoute ? "NoRoute" : "NoSegment"))
            }
        }
        #expect(compared >= 15)

        // The table equals the pairwise routes wherever both snapped the same way.
        let tablePoints = Array(points.prefix(8))
        let (tableStatus, table) = try RawHTTP.json(port: server.port, target: "/table/v1/driving/" + tablePoints.map(osrmPoint).joined(separator: ";") + "?annotations=duration,distance")
        #expect(tableStatus == 200)
        let durations = table["durations"] as? [[Any]] ?? [], distances = table["distances"] as? [[Any]] ?? []
        let sources = table["sources"] as? [[String: Any]] ?? []
        #expect(durations.count == 8 && distances.count == 8 && sources.count == 8)
        var pairs = 0
        for i in 0..<min(8, durations.count) {
            #expect(Self.same(durations[i][i], 0))
            for j in 0..<8 where j != i {
                guard let route = try? router.route([tablePoints[i], tablePoints[j]], options: Self.serverOptions()),
                      let location = sources[safe: j]?["location"] as? [Double],
                      abs(location[0] - route.waypoints[1].snapped.lon) < 2e-6, abs(location[1] - route.waypoints[1].snapped.lat) < 2e-6 else { continue }
                // Table durations are whole-millisecond search costs, /route's are per-segment sums: equal to the JSON's 0.1.
                #expect(Self.near(durations[i][j], route.routes[0].duration), "duration \(i) -> \(j)")
                #expect(Self.near(distances[i][j], route.routes[0].distance), "distance \(i) -> \(j)")
                pairs += 1
            }
        }
        #expect(pairs >= 30)

        // Durations alone come from the bucket table: exactly the point-to-point search costs.
        let (_, bucket) = try RawHTTP.json(port: server.port, target: "/table/v1/driving/" + tablePoints.map(osrmPoint).joined(separator: ";"))
        let bucketDurations = bucket["durations"] as? [[Any]] ?? []
        #expect(bucket["distances"] == nil)
        let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
        let tableSnaps = try tablePoints.enumerated().map { try router.snap($0.element, index: $0.offset, options: Self.serverOptions(), metric: metric) }
        for i in 0..<8 {
            for j in 0..<8 {
                let expected = router.legPath(from: tableSnaps[i], to: tableSnaps[j], metric: metric, algorithm: .hierarchy).map { Double($0.cost) / 1000 }
                let got = bucketDurations[safe: i]?[safe: j]
                if let expected { #expect(Self.same(got, expected), "bucket \(i) -> \(j)") } else { #expect(got is NSNull, "bucket \(i) -> \(j)") }
                #expect(Self.same(got, (durations[safe: i]?[safe: j] as? Double) ?? -1) || (got is NSNull && durations[safe: i]?[safe: j] is NSNull))
            }
        }

        // Nearest: the first waypoint is the library's snap; the others are farther.
        for point in points.prefix(5) {
            let (status, nearest) = try RawHTTP.json(port: server.port, target: "/nearest/v1/car/\(osrmPoint(point))?number=3")
            #expect(status == 200)
            let waypoints = nearest["waypoints"] as? [[String: Any]] ?? []
            let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
            let snap = try router.snap(point, index: 0, options: Self.serverOptions(), metric: metric)
            #expect(waypoints.count == 3)
            #expect(Self.same(waypoints.first?["distance"], snap.distance))
            let ordered = waypoints.compactMap { $0["distance"] as? Double }
            #expect(ordered == ordered.sorted())
        }
    }

    @Test func everyOSRMErrorCodeComesFromSomeRequest() throws {
        // A crafted town (see CraftedOSM.testTown) whose far island at 45.030 N has no road to the rest.
        let graph = try CraftedOSM.testTown(restriction: nil).importGraph(named: "server-errors")
        var limits = ServiceLimits()
        limits.maximumTableSize = 3
        let service = RoutingService(engine: RoutingEngine(graph: graph), limits: limits)
        let main = "6.999000,45.000000", island = "7.001250,45.030000", alsoMain = "7.000000,45.001000"
        let cases: [(String, String)] = [
            ("/route/v1/driving", "InvalidUrl"),
            ("/route/v1/driving/\(main);7.0,abc", "InvalidUrl"),
            ("/tile/v1/driving/\(main);\(alsoMain)", "InvalidService"),
            ("/route/v2/driving/\(main);\(alsoMain)", "InvalidVersion"),
            ("/route/v1/driving/\(main);\(alsoMain)?radiuses=10", "InvalidOptions"),
            ("/route/v1/driving/\(main);\(alsoMain)?waypoints=1", "InvalidOptions"),
            ("/table/v1/driving/\(main);\(alsoMain)?sources=5", "InvalidOptions"),
            ("/route/v1/driving/\(main);\(alsoMain)?steps=maybe", "InvalidQuery"),
            ("/route/v1/driving/\(main);\(alsoMain)?colour=red", "InvalidQuery"),
            ("/route/v1/plane/\(main);\(alsoMain)", "InvalidValue"),
            ("/route/v1/driving/\(main);7.0,95.0", "InvalidValue"),
            ("/route/v1/driving/\(main);\(alsoMain)?exclude=tunnel", "InvalidValue"),
            ("/route/v1/driving/\(main);\(alsoMain)?depart_at=tomorrow", "InvalidValue"),
            ("/route/v1/driving/\(main);7.050000,45.050000?radiuses=10;10", "NoSegment"),
            ("/route/v1/driving/\(main);\(island)?radiuses=100;100", "NoRoute"),
            ("/route/v1/driving/\(main);\(alsoMain)?alternatives=9", "TooBig"),
            ("/table/v1/driving/\(main);\(alsoMain);\(main);\(alsoMain)", "TooBig"),
            ("/match/v1/driving/7.050000,45.050000;7.051000,45.050000", "NoMatch"),
            ("/trip/v1/driving/\(main);\(island)?radiuses=100;100", "NoTrips"),
            ("/trip/v1/driving/\(main);\(alsoMain)?roundtrip=false", "NotImplemented"),
        ]
        for (target, code) in cases {
            let response = service.handle(HTTPRequest(method: "GET", target: target))
            let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            #expect(response.status == 400, "\(target)")
            #expect(json?["code"] as? String == code, "\(target): \(json?["message"] ?? "")")
            #expect((json?["message"] as? String)?.isEmpty == false)
        }
        // The token and refresh codes come from ServerDialectTests (they need --access-tokens or a refresh).
        #expect(Set(cases.map(\.1)) == Set(OSRMError.Code.allCases.map(\.rawValue)).subtracting(["NoToken", "InvalidToken", "RouteNotFound"]))
        // The messages name the offending value.
        let bad = service.handle(HTTPRequest(method: "GET", target: "/route/v1/driving/\(main);\(alsoMain)?exclude=tunnel"))
        #expect(String(decoding: bad.body, as: UTF8.self).contains("tunnel"))
        let ok = service.handle(HTTPRequest(method: "GET", target: "/route/v1/driving/\(main);\(alsoMain)"))
        #expect(ok.status == 200)
    }

    @Test func routeOptionsShapeTheBodyLikeOSRM() throws {
        let graph = try Fixtures.graph("monaco")
        let service = RoutingService(engine: RoutingEngine(graph: graph))
        let router = Router(graph: graph)
        let a = Coordinate(lat: 43.7384, lon: 7.4246), b = Coordinate(lat: 43.7402, lon: 7.4268), c = Coordinate(lat: 43.7311, lon: 7.4197)
        let three = [a, b, c].map(osrmPoint).joined(separator: ";")
        func get(_ target: String) throws -> [String: Any] {
            let response = service.handle(HTTPRequest(method: "GET", target: target))
            #expect(response.status == 200, "\(target)")
            return try JSONSerialization.jsonObject(with: response.body) as? [String: Any] ?? [:]
        }
        let plain = try get("/route/v1/driving/\(three)?overview=false")
        let plainRoute = (plain["routes"] as? [[String: Any]])?.first ?? [:]
        #expect(plainRoute["geometry"] == nil)
        #expect((plainRoute["legs"] as? [[String: Any]])?.first?["annotation"] == nil)
        #expect((plainRoute["legs"] as? [[String: Any]])?.count == 2)
        let library = try router.route([a, b, c], options: Self.serverOptions())
        #expect(Self.same(plainRoute["duration"], library.routes[0].duration))

        // waypoints=0;2 makes the middle coordinate a via point: one leg, same total.
        let via = try get("/route/v1/driving/\(three)?overview=false&waypoints=0;2")
        let viaRoute = (via["routes"] as? [[String: Any]])?.first ?? [:]
        #expect((viaRoute["legs"] as? [[String: Any]])?.count == 1)
        #expect((via["waypoints"] as? [Any])?.count == 2)
        #expect(Self.same(viaRoute["distance"], library.routes[0].distance))

        let annotated = try get("/route/v1/driving/\(three)?annotations=duration,maxspeed&geometries=geojson&overview=full")
        let annotatedRoute = (annotated["routes"] as? [[String: Any]])?.first ?? [:]
        let annotation = (annotatedRoute["legs"] as? [[String: Any]])?.first?["annotation"] as? [String: Any] ?? [:]
        #expect(Set(annotation.keys) == ["duration", "maxspeed"])
        let geometry = annotatedRoute["geometry"] as? [String: Any]
        #expect(geometry?["type"] as? String == "LineString")
        #expect((geometry?["coordinates"] as? [Any])?.count == library.routes[0].coordinates.count)
        // Each leg's annotation has one entry per coordinate pair of that leg.
        #expect((annotation["duration"] as? [Any])?.count == library.routes[0].legs[0].coordinates.count - 1)

        // exclude=toll,ferry,motorway is the library's strict avoidance.
        var avoid = Self.serverOptions()
        avoid.avoid = [.toll, .ferry, .highway]
        let avoided = try get("/route/v1/driving/\(three)?overview=false&exclude=toll,ferry,motorway")
        #expect(Self.same((avoided["routes"] as? [[String: Any]])?.first?["duration"], try router.route([a, b, c], options: avoid).routes[0].duration))

        let simplified = try get("/route/v1/driving/\(three)")
        let encoded = (simplified["routes"] as? [[String: Any]])?.first?["geometry"] as? String ?? ""
        let points = try Polyline.decode(encoded, precision: 5)
        #expect(points.count >= 2 && points.count <= library.routes[0].coordinates.count)

        let skipped = try get("/route/v1/driving/\(three)?skip_waypoints=true&steps=true&language=de&voice_units=imperial&banner_instructions=true&voice_instructions=true&depart_at=2026-11-30T08:15")
        #expect(skipped["waypoints"] == nil)
        #expect((((skipped["routes"] as? [[String: Any]])?.first?["legs"] as? [[String: Any]])?.first?["steps"]) is [Any])

        let geojson = service.handle(HTTPRequest(method: "GET", target: "/geojson/v1/driving/\(three)?position=7.4246,43.7384"))
        #expect(geojson.status == 200)
        #expect((try JSONSerialization.jsonObject(with: geojson.body) as? [String: Any])?["type"] as? String == "FeatureCollection")
        let style = service.handle(HTTPRequest(method: "GET", target: "/style/v1/driving/\(three)"))
        #expect((try JSONSerialization.jsonObject(with: style.body) as? [String: Any])?["version"] as? Int == 8)
        let metrics = String(decoding: service.handle(HTTPRequest(method: "GET", target: "/metrics")).body, as: UTF8.self)
        #expect(metrics.contains("navgraph_requests_total{endpoint=\"route\",status=\"200\"} 6"))
        #expect(metrics.contains("navgraph_request_duration_seconds_bucket{endpoint=\"route\",le=\"+Inf\"} 6"))
    }

    @Test func engineCacheIsBoundedAndTrafficWeightsMatchTheCostModel() throws {
        let graph = try Fixtures.graph("monaco")
        let engine = RoutingEngine(graph: graph, cacheCapacity: 2)
        let toll = engine.metric(avoid: [.toll], mode: .strict, traffic: nil)
        #expect(engine.metric(avoid: [.toll], mode: .strict, traffic: nil) === toll)
        _ = engine.metric(avoid: [.ferry], mode: .strict, traffic: nil)
        _ = engine.metric(avoid: [.highway], mode: .prefer, traffic: nil)
        #expect(engine.cachedMetricCount == 3)   // two customized plus the pinned free-flow metric
        #expect(engine.metric(avoid: [.toll], mode: .strict, traffic: nil) !== toll)   // the least recently used went first
        // Every routing node's traffic weight is the cost model's current time (edges without data included).
        let csv = Fixtures.packageRoot.appendingPathComponent("Data/monaco-traffic.csv").path
        let overlay = try TrafficCSVReader.read(path: csv, graph: graph).overlay(slot: nil, label: "test")
        let metric = engine.metric(avoid: [], mode: .strict, traffic: overlay)
        let costs = EdgeCostModel(graph: graph)
        var mismatches = 0
        for node in 0..<graph.routingNodeCount {
            let expected = costs.currentTime(directedEdge: Int(graph.routingEdge[node]), traffic: overlay) ?? CCHMetric.infinity
            if metric.nodeWeight[node] != expected { mismatches += 1 }
        }
        #expect(mismatches == 0)
        // A new overlay from the same table is a new generation, hence a new metric.
        let again = try TrafficCSVReader.read(path: csv, graph: graph).overlay(slot: nil, label: "again")
        #expect(again.generation != overlay.generation)
        #expect(engine.metric(avoid: [], mode: .strict, traffic: again) !== metric)
    }

    @Test func randomTargetsAlwaysGetAnOSRMAnswer() throws {
        let graph = try Fixtures.graph("monaco")
        let service = RoutingService(engine: RoutingEngine(graph: graph))
        let fragments = ["/", "route", "table", "nearest", "geojson", "style", "v1", "v0", "driving", "car", "7.4246,43.7384", "7.4268,43.7402",
                         ";", ",", "?", "&", "=", "alternatives", "true", "3", "-1", "steps", "annotations", "duration,distance", "radiuses",
                         "unlimited", "waypoints", "0;1", "exclude", "toll,motorway", "sources", "destinations", "number", "polyline(",
                         "_p~iF~ps|U", ")", "%", "%zz", "%2C", "+", "NaN", "1e308", ".json", ".xml", "overview", "false", "geometries",
                         "geojson", "\u{0}", "é", "depart_at", "2026-11-30T08:15", "theme", "{", "position"]
        var generator = SeededGenerator(seed: 99)
        for _ in 0..<3000 {
            let target = (0..<Int.random(in: 1...14, using: &generator)).map { _ in fragments.randomElement(using: &generator) ?? "" }.joined()
            let response = service.handle(HTTPRequest(method: "GET", target: target))
            #expect(response.status == 200 || response.status == 400, "\(target)")
            if response.status == 400 {
                let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
                #expect(OSRMError.Code(rawValue: json?["code"] as? String ?? "") != nil, "\(target)")
            }
        }
    }

    @Test func hostileClientsNeverStallTheServer() throws {
        let graph = try Fixtures.graph("monaco")
        var limits = ServiceLimits()
        limits.maximumBodyBytes = 4096
        let server = try TestServer(graph: graph, threads: 2, timeoutSeconds: 2, limits: limits)
        defer { server.stop() }
        let route = "/route/v1/driving/7.424600,43.738400;7.426800,43.740200"

        // A slow client holds a half-sent request open on one connection...
        let slow = try RawHTTP.connect(port: server.port)
        RawHTTP.send(slow, Array("GET /health HTTP/1.1\r\nHo".utf8))
        // ...while others are answered.
        for _ in 0..<20 { #expect(try RawHTTP.request(port: server.port, target: route).status == 200) }

        // Garbage bytes get an error status or a closed connection, never a crash.
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<5 {
            let fd = try RawHTTP.connect(port: server.port)
            RawHTTP.send(fd, (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) } + Array("\r\n\r\n".utf8))
            let answer = RawHTTP.readResponse(fd)
            close(fd)
            #expect(answer.map { $0.status >= 400 } ?? true)
        }
        // Huge headers and a huge URL are refused.
        let bigHeader = try RawHTTP.connect(port: server.port)
        RawHTTP.send(bigHeader, Array(("GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 200_000) + "\r\n\r\n").utf8))
        #expect(RawHTTP.readResponse(bigHeader).map { $0.status >= 400 } ?? true)
        close(bigHeader)
        let bigURL = try RawHTTP.request(port: server.port, target: "/route/v1/driving/" + String(repeating: "7.42,43.73;", count: 20_000))
        #expect(bigURL.status >= 400)
        // An oversized body gets TooBig.
        let post = try RawHTTP.request(port: server.port, method: "POST", target: "/traffic", body: Data(repeating: 65, count: 10_000))
        #expect(post.status == 400)
        #expect(String(decoding: post.body, as: UTF8.self).contains("TooBig"))
        // A client that leaves right after sending a request.
        for _ in 0..<5 {
            let fd = try RawHTTP.connect(port: server.port)
            RawHTTP.send(fd, Array("GET \(route)?alternatives=3&overview=full HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            close(fd)
        }
        // The slow client is dropped after the connection timeout (2 s), well before the client's own 10 s.
        let start = Date()
        _ = RawHTTP.readResponse(slow)
        close(slow)
        #expect(Date().timeIntervalSince(start) < 8)
        #expect(try RawHTTP.request(port: server.port, target: "/health").status == 200)
        #expect(try RawHTTP.request(port: server.port, target: route).status == 200)
    }

    @Test func trafficSwapsUnderConcurrentRequestsWithoutFailures() throws {
        let graph = try Fixtures.graph("monaco")
        let server = try TestServer(graph: graph, threads: 4)
        defer { server.stop() }
        let csvPath = Fixtures.packageRoot.appendingPathComponent("Data/monaco-traffic.csv").path
        let csv = try Data(contentsOf: URL(fileURLWithPath: csvPath))
        let points = randomRoadPoints(graph, count: 40, seed: 5).map(Self.asSent)
        // Pairs the library routes both at free flow and with the posted traffic (which closes some roads).
        var withTraffic = Self.serverOptions()
        withTraffic.traffic = try TrafficCSVReader.read(path: csvPath, graph: graph).overlay(slot: nil, label: "test")
        let library = Router(graph: graph)
        let pairs = (0..<points.count).flatMap { i in (0..<points.count).map { (i, $0) } }.filter { i, j in
            i != j && (try? library.route([points[i], points[j]], options: Self.serverOptions())) != nil
                && (try? library.route([points[i], points[j]], options: withTraffic)) != nil
        }
        #expect(pairs.count > 100)
        final class Tally: @unchecked Sendable {
            let lock = NSLock()
            var ok = 0, failed: [String] = [], generations: [Int] = []
        }
        let tally = Tally()
        let port = server.port
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker == 0 {
                for _ in 0..<3 {
                    usleep(50_000)
                    let response = try? RawHTTP.request(port: port, method: "POST", target: "/traffic", body: csv)
                    let json = response.flatMap { try? JSONSerialization.jsonObject(with: $0.body) as? [String: Any] }
                    tally.lock.withLock {
                        if response?.status == 200, let generation = json?["generation"] as? Int, json?["customization_ms"] is Double || json?["customization_ms"] is Int {
                            tally.generations.append(generation)
                        } else {
                            tally.failed.append("POST /traffic: \(response?.status ?? 0)")
                        }
                    }
                }
                return
            }
            for index in 0..<60 {
                let (i, j) = pairs[(worker * 97 + index * 31) % pairs.count]
                let response = try? RawHTTP.request(port: port, target: "/route/v1/driving/\(osrmPoint(points[i]));\(osrmPoint(points[j]))?alternatives=2")
                tally.lock.withLock {
                    if response?.status == 200 { tally.ok += 1 } else {
                        tally.failed.append("route \(i) -> \(j): \(response?.status ?? 0) \(String(decoding: response?.body ?? Data(), as: UTF8.self))")
                    }
                }
            }
        }
        #expect(tally.failed.isEmpty, "\(tally.failed.prefix(5))")
        #expect(tally.ok == 180)
        #expect(tally.generations.count == 3 && tally.generations == tally.generations.sorted() && Set(tally.generations).count == 3)
        // After the swaps the server routes with the posted traffic, as the library does with the same table.
        let (_, health) = try RawHTTP.json(port: port, target: "/health")
        #expect(health["traffic_generation"] as? Int == tally.generations.last)
        let a = Coordinate(lat: 43.7384, lon: 7.4246), b = Coordinate(lat: 43.7402, lon: 7.4268)
        let expected = try library.route([a, b], options: withTraffic)
        let (_, routed) = try RawHTTP.json(port: port, target: "/route/v1/driving/\(osrmPoint(a));\(osrmPoint(b))?overview=false")
        let route = (routed["routes"] as? [[String: Any]])?.first
        #expect(Self.same(route?["duration"], expected.routes[0].duration))
        #expect(Self.same(route?["duration_typical"], expected.routes[0].durationTypical))
        #expect(expected.routes[0].duration > expected.routes[0].durationTypical)
    }

    @Test func serveCommandAnswersAndDrainsOnSIGTERM() throws {
        let graph = try Fixtures.graph("monaco")
        let process = Process()
        process.executableURL = Fixtures.executable
        let csv = Fixtures.packageRoot.appendingPathComponent("Data/monaco-traffic.csv").path
        process.arguments = ["serve", graph.file.path, "--port", "0", "--threads", "2", "--traffic", csv]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var log = ""
        var port: Int?
        let deadline = Date().addingTimeInterval(20)
        while port == nil && Date() < deadline {
            log += String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
            if let range = log.range(of: "http://127.0.0.1:"), let end = log[range.upperBound...].firstIndex(of: " ") {
                port = Int(log[range.upperBound..<end])
            }
        }
        let bound = try #require(port)
        #expect(try RawHTTP.request(port: bound, target: "/health").status == 200)
        #expect(try RawHTTP.request(port: bound, target: "/nearest/v1/driving/7.424600,43.738400").status == 200)
        // SIGHUP reloads --traffic: a new generation comes into force.
        let before = try RawHTTP.json(port: bound, target: "/health").json["traffic_generation"] as? Int ?? 0
        #expect(before > 0)
        // libdispatch arms a signal source on its manager thread some time after `resume`, so on a loaded machine a
        // SIGHUP sent right after the start line can fall before the source listens (the signal is ignored then):
        // it is sent again each second until a reload shows.
        var after = before
        let reloadDeadline = Date().addingTimeInterval(30)
        var lastSent = Date.distantPast
        while after == before && Date() < reloadDeadline {
            if Date().timeIntervalSince(lastSent) >= 1 {
                kill(process.processIdentifier, SIGHUP)
                lastSent = Date()
            }
            usleep(50_000)
            after = try RawHTTP.json(port: bound, target: "/health").json["traffic_generation"] as? Int ?? 0
        }
        #expect(after > before)
        let stopping = Date()
        kill(process.processIdentifier, SIGTERM)
        while process.isRunning && Date().timeIntervalSince(stopping) < 6 { usleep(20_000) }
        let exited = !process.isRunning
        #expect(exited, "still running 6 s after SIGTERM")
        if exited { #expect(process.terminationStatus == 0) }
        log += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("GET /health 200"))
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
