import Foundation
import NavGraphCore
import NavGraphImport
import NavGraphServer

// navgraph-bench GRAPH PAIRS.csv [--traffic FILE] [--avoid LIST] [--alternatives N] [--node-pairs yes [--unpack no]] [--profile truck]
//                [--guidance-rounds N [--locale TAG] [--warm-up same|other] [--back-to-back same|other]] [--service-rounds N]
// With --service-rounds N whole server requests (Mapbox SDK, OSRM steps, plain) run through RoutingService.handle
// (ServiceRounds.swift), N interleaved rounds.
// With --guidance-rounds N only plain and plain + steps run, pair by pair, N rounds (GuidanceRounds.swift); --locale
// asks both for street names in that language (`RouteOptions.nameLanguage`); --warm-up other warms the caches on
// other routes between the same points instead of the measured ones; --back-to-back other routes a different pair
// right after each pair instead of the same pair again.
// With --replay FILE (instead of PAIRS.csv) each line of FILE, a request target such as /match/v1/driving/...?..., goes
// once through RoutingService.handle, in order: a whole request without the socket, for callgrind or perf on any endpoint.
// --bodies OUT then also writes every response to OUT, each as a line `status content-type byte-count` followed by the
// body and a newline, to compare two builds' bytes.
// With --node-pairs yes the pairs file holds 1-based node ids `S,T` (DIMACS graphs) and only plain queries run;
// --unpack no then times the hierarchy search alone (the cost, without unpacking the path's shortcuts).
// Measures in-process latency of snap + query + path unpacking + leg building over the pairs (also with guidance
// steps built), and the
// customization time of every avoid combination and of the traffic update. Prints one JSON object to stdout;
// progress goes to stderr.

struct Measurement: Codable {
    var label: String
    var queries: Int
    var routed: Int
    var failed: Int
    var p50: Double
    var p95: Double
    var p99: Double
    var mean: Double
    var throughputPerSecond: Double
    var meanAlternatives: Double?
    var shareWithAlternative: Double?
    /// Mean directed edges per routed primary route: route size explains latency differences between cases.
    var meanRouteEdges: Double?
}

struct Report: Codable {
    var graph: String
    var routingNodes: Int
    var hierarchyArcs: Int
    var loadSeconds: Double
    var customizationSeconds: [String: Double]
    var measurements: [Measurement]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("navgraph-bench: \(message)\n".utf8))
    exit(2)
}

func log(_ message: String) { FileHandle.standardError.write(Data((message + "\n").utf8)) }

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

func readPairs(_ path: String) -> [(Coordinate, Coordinate)] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
    return text.split(separator: "\n").compactMap { line in
        let values = line.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        return values.count == 4 ? (Coordinate(lat: values[1], lon: values[0]), Coordinate(lat: values[3], lon: values[2])) : nil
    }
}

func measure(_ label: String, router: Router, pairs: [(Coordinate, Coordinate)], options: RouteOptions, steps: Bool = false) -> Measurement {
    var latencies: [Double] = []
    var failed = 0, alternatives = 0, withAlternative = 0, routeEdges = 0
    let start = now()
    for (source, target) in pairs {
        let begin = now()
        do {
            var response = try router.route([source, target], options: options)
            if steps { router.addSteps(to: &response) }
            latencies.append((now() - begin) * 1000)
            routeEdges += response.routes[0].legs.reduce(0) { $0 + $1.directedEdges.count }
            alternatives += response.routes.count - 1
            if response.routes.count > 1 { withAlternative += 1 }
        } catch {
            failed += 1
        }
    }
    let total = now() - start
    latencies.sort()
    func percentile(_ p: Double) -> Double { latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
    let result = Measurement(
        label: label, queries: pairs.count, routed: latencies.count, failed: failed,
        p50: percentile(0.5), p95: percentile(0.95), p99: percentile(0.99),
        mean: latencies.isEmpty ? 0 : latencies.reduce(0, +) / Double(latencies.count),
        throughputPerSecond: Double(pairs.count) / max(total, 1e-9),
        meanAlternatives: options.alternatives > 0 ? Double(alternatives) / Double(max(1, latencies.count)) : nil,
        shareWithAlternative: options.alternatives > 0 ? Double(withAlternative) / Double(max(1, latencies.count)) : nil,
        meanRouteEdges: Double(routeEdges) / Double(max(1, latencies.count)))
    log(String(format: "%@: %d routed, %d failed, p50 %.3f ms, p95 %.3f ms, p99 %.3f ms, %.0f edges per route", label, result.routed, failed,
               result.p50, result.p95, result.p99, result.meanRouteEdges ?? 0))
    return result
}

var positionals: [String] = []
var options: [String: String] = [:]
var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
    let item = arguments.removeFirst()
    if item.hasPrefix("--") {
        guard !arguments.isEmpty else { fail("\(item) needs a value") }
        options[String(item.dropFirst(2))] = arguments.removeFirst()
    } else {
        positionals.append(item)
    }
}
if let replay = options["replay"] {
    guard positionals.count == 1 else { fail("usage: navgraph-bench GRAPH --replay TARGETS.txt") }
    do {
        let graph = try RoutingGraph(path: positionals[0], profile: .car)
        let service = RoutingService(engine: Router(graph: graph).engine)
        let targets = try String(contentsOfFile: replay, encoding: .utf8).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        var bodies: FileHandle?
        if let path = options["bodies"] {
            guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                fail("--bodies: cannot write \(path)")
            }
            bodies = handle
        }
        var failed = 0, bytes = 0
        let start = now()
        for target in targets {
            let response = service.handle(HTTPRequest(method: "GET", target: target))
            bytes += response.body.count
            if response.status != 200 { failed += 1 }
            if let bodies {
                bodies.write(Data("\(response.status) \(response.contentType) \(response.body.count)\n".utf8))
                bodies.write(response.body)
                bodies.write(Data("\n".utf8))
            }
        }
        try? bodies?.close()
        log("replay: \(targets.count) requests, \(failed) not 200, \(bytes) body bytes, \(String(format: "%.3f", now() - start)) s")
        exit(failed == 0 ? 0 : 1)
    } catch {
        fail("\(error)")
    }
}
guard positionals.count == 2 else { fail("usage: navgraph-bench GRAPH PAIRS.csv [--traffic FILE] [--avoid LIST] [--alternatives N] [--node-pairs yes [--unpack no]]") }
// The guidance rounds' and the node pairs' choices, checked before anything is loaded.
/// The value of option `name` (`fallback` when absent), which must be one of `allowed`.
func choice(_ name: String, _ allowed: [String], fallback: String, in options: [String: String]) -> String {
    let value = options[name] ?? fallback
    guard allowed.contains(value) else {
        fail("--\(name): expected \(allowed.joined(separator: " or ")), got '\(value)'")
    }
    return value
}
let guidanceRounds = options["guidance-rounds"].map { text -> Int in
    guard let rounds = Int(text), rounds >= 1 else { fail("--guidance-rounds: expected a whole number of at least 1, got '\(text)'") }
    return rounds
}
let warmUp = choice("warm-up", ["same", "other"], fallback: "same", in: options)
let backToBack = choice("back-to-back", ["same", "other"], fallback: "same", in: options)
let unpack = choice("unpack", ["yes", "no"], fallback: "yes", in: options) == "yes"

do {
    let loadStart = now()
    let profile = try options["profile"].map { name in
        guard let id = ProfileID(name: name) else { throw NavGraphError("--profile: unknown profile '\(name)'") }
        return id
    } ?? .car
    let graph = try RoutingGraph(path: positionals[0], profile: profile)
    let router = Router(graph: graph)
    let loadSeconds = now() - loadStart
    let pairs = readPairs(positionals[1])
    log("\(positionals[0]): \(graph.routingNodeCount) routing nodes, \(pairs.count) pairs, loaded in \(String(format: "%.3f", loadSeconds)) s")
    if let text = options["service-rounds"] {
        guard let rounds = Int(text), rounds >= 1 else { fail("--service-rounds: expected a whole number of at least 1, got '\(text)'") }
        let service = RoutingService(engine: router.engine)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(ServiceRounds.run(service: service, pairs: pairs, rounds: rounds)), as: UTF8.self))
        exit(0)
    }
    if let rounds = guidanceRounds {
        let result = GuidanceRounds.run(graphPath: positionals[0], router: router, pairs: pairs, rounds: rounds,
                                        nameLanguage: options["locale"], warmUpOnOtherPairs: warmUp == "other",
                                        backToBackSamePair: backToBack == "same")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(result), as: UTF8.self))
        exit(0)
    }

    var customization: [String: Double] = [:]
    for bits in 1..<8 {
        var avoid: AvoidSet = []
        if bits & 1 != 0 { avoid.insert(.toll) }
        if bits & 2 != 0 { avoid.insert(.ferry) }
        if bits & 4 != 0 { avoid.insert(.highway) }
        let start = now()
        _ = router.metric(avoid: avoid, mode: .strict, traffic: nil)
        customization["avoid " + avoid.listed.joined(separator: "+")] = now() - start
    }
    if profile == .truck {
        // Per-request truck dimensions: one customization per dimension set (each a new cache key).
        let vehicles = [("4.0 m", VehicleDimensions(height: 4.0)), ("4.0 m 40 t", VehicleDimensions(height: 4.0, weight: 40)),
                        ("4.2 m 2.55 m 18.75 m 44 t 11.5 t hazmat", VehicleDimensions(height: 4.2, width: 2.55, length: 18.75, weight: 44,
                                                                                    axleLoad: 11.5, hazmat: true))]
        for (label, vehicle) in vehicles {
            let start = now()
            _ = router.engine.metric(avoid: [], mode: .strict, traffic: nil, vehicle: vehicle)
            customization["truck " + label] = now() - start
        }
    }
    var traffic: TrafficOverlay?
    if let trafficPath = options["traffic"] {
        let start = now()
        let table = try TrafficFile.load(path: trafficPath, graph: graph)
        traffic = table.overlay(slot: nil, label: trafficPath)
        _ = router.metric(avoid: [], mode: .strict, traffic: traffic)
        customization["traffic update (load + customize)"] = now() - start
    }
    log("customization: " + customization.sorted { $0.key < $1.key }.map { String(format: "%@ %.3f s", $0.key, $0.value) }.joined(separator: ", "))

    var measurements: [Measurement] = []
    if options["node-pairs"] == "yes" {
        guard let text = try? String(contentsOfFile: positionals[1], encoding: .utf8) else { fail("cannot read \(positionals[1])") }
        let ids = text.split(separator: "\n").compactMap { line -> (Int, Int)? in
            let parts = line.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return parts.count == 2 ? (parts[0] - 1, parts[1] - 1) : nil
        }
        let query = NodeToNodeQuery(router: router)
        let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
        var latencies: [Double] = []
        var failed = 0
        let start = now()
        for (source, target) in ids {
            let begin = now()
            if (try? query.cost(from: source, to: target, metric: metric, algorithm: .hierarchy, unpack: unpack)) ?? nil != nil {
                latencies.append((now() - begin) * 1000)
            } else {
                failed += 1
            }
        }
        let total = now() - start
        latencies.sort()
        func percentile(_ p: Double) -> Double { latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        measurements.append(Measurement(label: "node to node", queries: ids.count, routed: latencies.count, failed: failed,
                                        p50: percentile(0.5), p95: percentile(0.95), p99: percentile(0.99),
                                        mean: latencies.reduce(0, +) / Double(max(1, latencies.count)),
                                        throughputPerSecond: Double(ids.count) / max(total, 1e-9), meanAlternatives: nil, shareWithAlternative: nil,
                                        meanRouteEdges: nil))
        log(String(format: "node to node: %d routed, p50 %.3f ms, p95 %.3f ms, p99 %.3f ms", latencies.count, percentile(0.5), percentile(0.95), percentile(0.99)))
        let report = Report(graph: positionals[0], routingNodes: graph.routingNodeCount, hierarchyArcs: graph.metadata.cchArcCount,
                            loadSeconds: loadSeconds, customizationSeconds: customization, measurements: measurements)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
        exit(0)
    }
    var plain = RouteOptions()
    plain.radius = 2000
    _ = measure("warm-up", router: router, pairs: Array(pairs.prefix(200)), options: plain)
    measurements.append(measure("plain", router: router, pairs: pairs, options: plain))
    // The same queries with turn-by-turn steps built (what a Directions response with steps costs beyond routing).
    measurements.append(measure("plain + steps", router: router, pairs: pairs, options: plain, steps: true))
    var avoiding = plain
    avoiding.avoid = try AvoidSet(parsing: options["avoid"] ?? "toll,ferry,highway")
    measurements.append(measure("avoid " + avoiding.avoid.listed.joined(separator: "+"), router: router, pairs: pairs, options: avoiding))
    if let traffic {
        var withTraffic = plain
        withTraffic.traffic = traffic
        measurements.append(measure("traffic", router: router, pairs: pairs, options: withTraffic))
    }
    if let count = options["alternatives"].flatMap(Int.init), count > 0 {
        var alternatives = plain
        alternatives.alternatives = count
        measurements.append(measure("alternatives \(count)", router: router, pairs: pairs, options: alternatives))
    }
    let report = Report(graph: positionals[0], routingNodes: graph.routingNodeCount, hierarchyArcs: graph.metadata.cchArcCount,
                        loadSeconds: loadSeconds, customizationSeconds: customization, measurements: measurements)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: try encoder.encode(report), as: UTF8.self))
} catch let error as NavGraphError {
    fail(error.message)
} catch {
    fail("\(error)")
}
