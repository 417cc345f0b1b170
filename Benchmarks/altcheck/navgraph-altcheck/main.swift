import AltCheck
import Foundation
import NavGraphCore

// navgraph-altcheck GRAPH PAIRS.csv [PEER.json[.gz] ...] [--json OUT] [--limit N] [--slack 0,0.05]
// Judges every engine's alternatives by navgraph's admissibility criteria on navgraph's graph and metric:
// navgraph's own (--alternatives 3, in process) and those in each peer results file (OSRM, Valhalla). Prints a
// markdown table to stdout (progress to stderr) and, with --json, writes the tallies as JSON. Each --slack value
// (default 0, navgraph's criterion) judges everything once more with that local-optimality slack.

func log(_ message: String) { FileHandle.standardError.write(Data((message + "\n").utf8)) }

func run() throws {
    var positional: [String] = [], jsonPath: String?, limit = Int.max, slacks = [0.0]
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
        switch argument {
        case "--json": jsonPath = arguments.popFirst()
        case "--slack":
            let values = (arguments.popFirst() ?? "").split(separator: ",").compactMap { Double($0) }
            guard !values.isEmpty, values.allSatisfy({ $0 >= 0 }) else { throw NavGraphError("--slack needs numbers >= 0, e.g. 0,0.05") }
            slacks = values
        case "--limit":
            guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else { throw NavGraphError("--limit needs a positive number") }
            limit = value
        default: positional.append(argument)
        }
    }
    guard positional.count >= 2 else {
        throw NavGraphError("usage: navgraph-altcheck GRAPH PAIRS.csv [PEER.json[.gz] ...] [--json OUT] [--limit N] [--slack 0,0.05]")
    }
    let graphPath = positional[0], extract = URL(fileURLWithPath: graphPath).deletingPathExtension().lastPathComponent
    let graph = try RoutingGraph(path: graphPath)
    let router = Router(graph: graph)
    let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
    let pairs = Array(try readPairs(positional[1]).prefix(limit))
    let matcher = GeometryMatcher(graph: graph, metric: metric)
    let judges = slacks.map { AdmissibilityJudge(graph: graph, metric: metric, slack: $0) }

    // navgraph: optimum per pair (the primary's cost) and its own alternatives, judged from their geometry.
    var options = RouteOptions()
    options.alternatives = 3
    var optimum = [Int?](repeating: nil, count: pairs.count)
    var tallies = judges.map { Tally(extract: extract, engine: "navgraph", slack: $0.slack) }
    var started = Date()
    for (index, pair) in pairs.enumerated() {
        let routes = (try? router.route([pair.0, pair.1], options: options))?.routes ?? []
        optimum[index] = routes.first.map { Int(($0.weight * 1000).rounded()) }
        let matched = routes.map { matcher.match($0.coordinates.map(roundedToMicro)) }
        for (slot, judge) in judges.enumerated() { tallies[slot].add(judge.verdicts(matched, optimum: optimum[index])) }
    }
    log(String(format: "%@ navgraph: %d pairs in %.1f s", extract, pairs.count, Date().timeIntervalSince(started)))

    for path in positional.dropFirst(2) {
        let results = try PeerResults.load(path: path)
        for run in results.alternativeRuns {
            started = Date()
            var runTallies = judges.map { Tally(extract: extract, engine: "\(results.engine) \(run.algorithm)", slack: $0.slack) }
            for query in run.queries ?? [] where pairs.indices.contains(query.i) {
                let matched = (query.routes ?? []).map { matcher.match($0.geometry.map(\.coordinate)) }
                for (slot, judge) in judges.enumerated() { runTallies[slot].add(judge.verdicts(matched, optimum: optimum[query.i])) }
            }
            log(String(format: "%@ %@: %d queries in %.1f s", extract, runTallies[0].engine, runTallies[0].queries, Date().timeIntervalSince(started)))
            tallies += runTallies
        }
    }
    print(Tally.markdownHeader)
    for tally in tallies.sorted(by: { $0.slack < $1.slack }) { print(tally.markdownRow) }
    if let jsonPath {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(tallies).write(to: URL(fileURLWithPath: jsonPath))
    }
}

/// Coordinates as the peers print them: six decimals.
func roundedToMicro(_ point: Coordinate) -> Coordinate {
    Coordinate(lat: (point.lat * 1e6).rounded() / 1e6, lon: (point.lon * 1e6).rounded() / 1e6)
}

/// Pairs file: one `lon,lat,lon,lat` line per query.
func readPairs(_ path: String) throws -> [(Coordinate, Coordinate)] {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw NavGraphError("\(path): cannot read") }
    return try text.split(whereSeparator: \.isNewline).enumerated().map { number, line in
        let values = line.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == 4 else { throw NavGraphError("\(path):\(number + 1): expected lon,lat,lon,lat") }
        return (Coordinate(lat: values[1], lon: values[0]), Coordinate(lat: values[3], lon: values[2]))
    }
}

do { try run() } catch {
    log("navgraph-altcheck: \(error)")
    exit(2)
}
