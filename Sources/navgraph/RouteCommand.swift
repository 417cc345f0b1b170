import Foundation
import NavGraph

/// `navgraph route`: routes through waypoints, or a batch of pairs from a CSV file.
enum RouteCommand {
    static let allowed: Set<String> = ["output", "radius", "avoid", "avoid-trunk", "avoid-mode", "alternatives", "algorithm", "pairs", "quiet"]

    static func run(_ arguments: Arguments) throws {
        try arguments.check(allowed: allowed)
        guard let graphPath = arguments.positionals.first else { throw NavGraphError("route needs a graph file") }
        let options = try routeOptions(arguments)
        let graph = try RoutingGraph(path: graphPath)
        let router = Router(graph: graph)
        if let pairs = arguments.options["pairs"] {
            let statistics = arguments.options["alternatives"] != nil || arguments.flags.contains("alternatives")
            try runBatch(router: router, pairsPath: pairs, options: options, output: arguments.options["output"], statistics: statistics)
            return
        }
        let waypoints = try arguments.positionals.dropFirst().enumerated().map {
            try parseCoordinate($0.element, what: "waypoint \($0.offset + 1)")
        }
        let response = try router.route(waypoints, options: options)
        printSummary(response)
        if let output = arguments.options["output"] {
            try writeAtomically(try RouteLineGeoJSON.make(response), to: output)
        }
    }

    static func routeOptions(_ arguments: Arguments) throws -> RouteOptions {
        var options = RouteOptions()
        options.radius = try arguments.double("radius", default: 1000)
        if let avoid = arguments.options["avoid"] { options.avoid = try AvoidSet(parsing: avoid) }
        if arguments.flags.contains("avoid-trunk") {
            guard options.avoid.contains(.highway) else { throw NavGraphError("--avoid-trunk extends --avoid highway; add --avoid highway") }
            options.avoid.insert(.trunk)
        }
        if let mode = arguments.options["avoid-mode"] {
            guard let parsed = AvoidMode(rawValue: mode) else { throw NavGraphError("--avoid-mode: '\(mode)' is not strict or prefer") }
            options.avoidMode = parsed
        }
        if let algorithm = arguments.options["algorithm"] {
            guard let parsed = SearchAlgorithm(rawValue: algorithm) else { throw NavGraphError("--algorithm: '\(algorithm)' is not ch or dijkstra") }
            options.algorithm = parsed
        }
        if arguments.flags.contains("alternatives") { options.alternatives = 2 }
        if let count = arguments.options["alternatives"] {
            guard let parsed = Int(count), parsed >= 0, parsed <= 10 else { throw NavGraphError("--alternatives: '\(count)' is not 0...10") }
            options.alternatives = parsed
        }
        return options
    }

    static func printSummary(_ response: RouteResponse) {
        for (index, route) in response.routes.enumerated() {
            let kind = index == 0 ? "route" : "alternative \(index)"
            print(String(format: "%@: %.1f km, %@ (free flow %@)", kind, route.distance / 1000, formatDuration(route.duration), formatDuration(route.durationTypical)))
            if !route.usedAvoidedClasses.isEmpty { print("  still uses avoided: \(route.usedAvoidedClasses.joined(separator: ", "))") }
            for (legIndex, leg) in route.legs.enumerated() {
                print(String(format: "  leg %d: %.1f km, %@ via %@", legIndex + 1, leg.distance / 1000, formatDuration(leg.duration), leg.summary.isEmpty ? "unnamed roads" : leg.summary))
            }
        }
        for (index, waypoint) in response.waypoints.enumerated() {
            print(String(format: "  waypoint %d: snapped %.1f m to %.6f,%.6f (%@)", index + 1, waypoint.snapDistance,
                         waypoint.snapped.lat, waypoint.snapped.lon, waypoint.roadName.isEmpty ? "unnamed road" : waypoint.roadName))
        }
    }

    static func formatDuration(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        return minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : String(format: "%.1f min", seconds / 60)
    }

    /// Batch mode: one CSV row per query (distance_m, duration_s, weight_ms, error) and latency figures on stderr.
    /// With `--alternatives` (even 0) rows also give the number of alternatives and the latency, and stderr the
    /// share of queries with alternatives, their mean stretch and mean sharing.
    static func runBatch(router: Router, pairsPath: String, options: RouteOptions, output: String?, statistics: Bool = false) throws {
        guard let text = try? String(contentsOfFile: pairsPath, encoding: .utf8) else { throw NavGraphError("\(pairsPath): cannot read pairs file") }
        var rows = ["index,distance_m,duration_s,weight_ms,error" + (statistics ? ",alternatives,latency_ms" : "")]
        var latencies: [Double] = []
        var failures = 0
        var alternativeCounts: [Int] = [], stretches: [Double] = [], sharings: [Double] = []
        for (lineNumber, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix("lon") { continue }
            let values = trimmed.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard values.count == 4, let lon1 = values[0], let lat1 = values[1], let lon2 = values[2], let lat2 = values[3] else {
                throw NavGraphError("\(pairsPath):\(lineNumber + 1): expected lon,lat,lon,lat, got '\(trimmed)'")
            }
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                let response = try router.route([Coordinate(lat: lat1, lon: lon1), Coordinate(lat: lat2, lon: lon2)], options: options)
                latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                let route = response.routes[0]
                var row = String(format: "%d,%.1f,%.3f,%d,", rows.count - 1, route.distance, route.duration, Int((route.weight * 1000).rounded()))
                if statistics {
                    let alternatives = response.routes.dropFirst()
                    row += String(format: ",%d,%.4f", alternatives.count, latencies.last ?? 0)
                    alternativeCounts.append(alternatives.count)
                    for alternative in alternatives {
                        stretches.append(alternative.weight / max(route.weight, 1e-9))
                        sharings.append(sharedLength(alternative, route, graph: router.graph) / max(route.distance, 1e-9))
                    }
                }
                rows.append(row)
            } catch let error as NavGraphError {
                failures += 1
                rows.append("\(rows.count - 1),,,,\"\(error.message.replacingOccurrences(of: "\"", with: "'"))\"" + (statistics ? ",," : ""))
            }
        }
        let csv = rows.joined(separator: "\n") + "\n"
        if let output { try writeAtomically(Data(csv.utf8), to: output) } else { print(csv, terminator: "") }
        latencies.sort()
        func percentile(_ p: Double) -> Double { latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        FileHandle.standardError.write(Data(String(format: "%d queries, %d failed; latency ms p50 %.3f p95 %.3f p99 %.3f\n",
                                                   rows.count - 1, failures, percentile(0.5), percentile(0.95), percentile(0.99)).utf8))
        if statistics {
            let routed = Double(max(1, alternativeCounts.count))
            func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
            FileHandle.standardError.write(Data(String(format: "alternatives: >=1 %.1f%%, >=2 %.1f%% of %d routed; mean stretch %.3f (weight), mean sharing %.3f (length of shared directed edges / primary)\n",
                                                       100 * Double(alternativeCounts.filter { $0 >= 1 }.count) / routed,
                                                       100 * Double(alternativeCounts.filter { $0 >= 2 }.count) / routed,
                                                       alternativeCounts.count, mean(stretches), mean(sharings)).utf8))
        }
    }

    /// Metres of the alternative's directed edges that the primary route also drives.
    static func sharedLength(_ alternative: Route, _ primary: Route, graph: RoutingGraph) -> Double {
        let reference = Set(primary.legs.flatMap(\.directedEdges))
        return alternative.legs.flatMap(\.directedEdges).filter(reference.contains).reduce(0) { $0 + graph.edgeLength[$1 >> 1] }
    }
}

/// Writes to a temporary file, then renames it into place.
func writeAtomically(_ data: Data, to path: String) throws {
    do {
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        throw NavGraphError("\(path): cannot write (\(error.localizedDescription))")
    }
}
