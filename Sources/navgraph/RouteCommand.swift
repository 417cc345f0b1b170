import Foundation
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// `navgraph route`: routes through waypoints, or a batch of pairs from a CSV file.
enum RouteCommand {
    /// What `--format` may name.
    enum Format: String, CaseIterable { case summary, geojson, directions }

    static let spec = CommandSpec(
        name: "route",
        synopsis: ["REGION.navgraph LAT,LON LAT,LON [LAT,LON ...] [options]",
                   "REGION.navgraph --pairs pairs.csv [options]   (batch: one lon,lat,lon,lat line per query)",
                   "REGION.navgraph --nodes SOURCE,TARGET [options]   (cost between two 1-based node ids, e.g. DIMACS)"],
        summary: "Routes through waypoints (summary on stdout), a batch of pairs from a CSV, or between two node ids.",
        options: [
            OptionSpec(name: "output", short: "o", kind: .value, placeholder: "FILE", help: "write the route (GeoJSON, or --format) or the batch CSV to FILE"),
            OptionSpec(name: "format", kind: .value, help: "what --output (or stdout) gets", defaultValue: "geojson with --output, else summary",
                       check: .choice(Arguments.choices(Format.self))),
            OptionSpec(name: "style", kind: .value, placeholder: "FILE", help: "also write a MapLibre style with the route as inline source"),
            OptionSpec(name: "theme", kind: .value, placeholder: "FILE", help: "colours and widths (JSON, keys as in the SDK's route-line styling)"),
            OptionSpec(name: "glyphs", kind: .value, placeholder: "URL",
                       help: "glyph URL template of --style, with {fontstack} and {range}", defaultValue: "the MapLibre demo host; text needs it"),
            OptionSpec(name: "units", kind: .value, help: "distances in labels, the summary, instructions and voice",
                       defaultValue: OutputOptions().units.rawValue, check: .choice(Arguments.choices(DistanceUnits.self))),
            OptionSpec(name: "locale", kind: .value, placeholder: "TAG",
                       help: "language of instructions (BCP-47; en, de, fr, es, it, pt, nl; else its language, else English) and of street names (name:XX where tagged; without --locale the local names)",
                       defaultValue: "en"),
            OptionSpec(name: "geometry", kind: .value, help: "geometry in Directions JSON", defaultValue: OutputOptions().geometry.rawValue,
                       check: .choice(Arguments.choices(GeometryFormat.self))),
            OptionSpec(name: "position", kind: .value, placeholder: "LAT,LON", help: "vehicle position: split traversed/remaining, mark completed waypoints",
                       check: .coordinate),
            OptionSpec(name: "off-route", kind: .value, placeholder: "METRES", help: "with --position: farther than this from the route is off route",
                       defaultValue: "\(Int(OutputOptions().offRouteThreshold))", check: .positiveNumber),
            OptionSpec(name: "names", kind: .list, placeholder: "A,B,C", help: "waypoint names (in the summary, GeoJSON and style)"),
            OptionSpec(name: "alternatives", kind: .optionalValue, placeholder: "N", help: "up to N alternative routes (N 0...10; 2 without N)",
                       check: .integer(0...10, what: "a count")),
            OptionSpec(name: "algorithm", kind: .value, help: "the hierarchy or the Dijkstra reference", defaultValue: RouteOptions().algorithm.rawValue,
                       check: .choice(Arguments.choices(SearchAlgorithm.self))),
            OptionSpec(name: "pairs", kind: .value, placeholder: "FILE", help: "batch: CSV of lon,lat,lon,lat queries (header, comments, CRLF fine)"),
            OptionSpec(name: "nodes", kind: .list, placeholder: "SOURCE,TARGET", help: "cost between two 1-based node ids",
                       check: .integer(1...Int(Int32.max), what: "a node id")),
            OptionSpec(name: "quiet", kind: .flag, help: "batch: no latency figures on stderr"),
            OptionSpec(name: "bearings", kind: .value, placeholder: "V,R;V,R;...",
                       help: "per waypoint (';'-separated, empty for none): travel bearing V±R degrees there (departure at the start, arrival later)"),
            OptionSpec(name: "approaches", kind: .value, placeholder: "curb;unrestricted;...",
                       help: "per waypoint (';'-separated, empty for none): curb keeps the waypoint on the kerb side"),
            OptionSpec(name: "continue-straight", kind: .value, help: "no U-turn at via waypoints", defaultValue: "default (the profile's: motor yes)",
                       check: .choice(["default", "true", "false"])),
        ] + metricOptions,
        run: run)

    /// Options that pick the metric (avoidance, traffic) and snapping, shared by route, matrix and isochrone.
    static let metricOptions: [OptionSpec] = [
        OptionSpec(name: "avoid", kind: .list, placeholder: "toll,ferry,highway", help: "avoid these classes (any combination)"),
        OptionSpec(name: "avoid-trunk", kind: .flag, help: "treat trunk roads as highway too (with --avoid highway)"),
        OptionSpec(name: "avoid-mode", kind: .value, help: "strict removes avoided roads; prefer penalises them",
                   defaultValue: RouteOptions().avoidMode.rawValue, check: .choice(Arguments.choices(AvoidMode.self))),
        OptionSpec(name: "traffic", kind: .value, placeholder: "FILE", help: "traffic from a .traffic file or a CSV (see navgraph traffic)"),
        OptionSpec(name: "depart", kind: .value, placeholder: "2026-11-30T08:15", help: "departure time; picks the traffic profile of that hour"),
        OptionSpec(name: "radius", kind: .value, placeholder: "METRES", help: "snapping radius", defaultValue: "\(Int(RouteOptions().radius))",
                   check: .positiveNumber),
    ] + ProfileOptions.specs

    /// The traffic overlay `--traffic` (at the hour `--depart` picks) names, or nil without `--traffic`.
    static func trafficOverlay(_ arguments: Arguments, graph: RoutingGraph) throws -> TrafficOverlay? {
        let departure = try arguments.options["depart"].map(parseDeparture)
        guard let path = arguments.options["traffic"] else { return nil }
        let table = try TrafficFile.load(path: path, graph: graph)
        return table.overlay(slot: departure.flatMap(table.slot(for:)), label: path)
    }

    static func run(_ arguments: Arguments) throws {
        do {
            try routeOrBatch(arguments)
        } catch let error as NavGraphError where arguments.options["format"] == Format.directions.rawValue && error.code != .ioFailure {
            // Directions clients read the failure as a JSON body; the message also goes to stderr (non-zero exit).
            // Not when writing the output itself failed: nothing is left at its path.
            let body = DirectionsResponse.failure(error)
            if let path = arguments.options["output"] { try? writeAtomically(body, to: path) } else { FileHandle.standardOutput.write(body) }
            throw error
        }
    }

    static func routeOrBatch(_ arguments: Arguments) throws {
        guard let graphPath = arguments.positionals.first else { throw NavGraphError("route needs a graph file") }
        var options = try routeOptions(arguments)
        let graph = try RoutingGraph(path: graphPath, profile: try ProfileOptions.profile(arguments))
        let router = ProfileOptions.router(graph)
        options.traffic = try trafficOverlay(arguments, graph: graph)
        if let nodes = arguments.options["nodes"] {
            let ids = (arguments.list("nodes") ?? []).compactMap { Int($0) }
            guard ids.count == 2 else { throw NavGraphError("--nodes: '\(nodes)' is not SOURCE,TARGET (two 1-based node ids)") }
            let query = NodeToNodeQuery(router: router)
            let metric = router.engine.metric(avoid: options.avoid, mode: options.avoidMode, traffic: options.traffic, vehicle: options.vehicle)
            guard let cost = try query.cost(from: ids[0] - 1, to: ids[1] - 1, metric: metric, algorithm: options.algorithm) else {
                throw NavGraphError("no path from node \(ids[0]) to node \(ids[1])")
            }
            print("distance from node \(ids[0]) to node \(ids[1]): \(cost)")
            return
        }
        if let pairs = arguments.options["pairs"] {
            let statistics = arguments.options["alternatives"] != nil || arguments.flags.contains("alternatives")
            try runBatch(router: router, pairsPath: pairs, options: options, output: arguments.options["output"], statistics: statistics,
                         quiet: arguments.flags.contains("quiet"))
            return
        }
        let waypoints = try arguments.positionals.dropFirst().enumerated().map {
            try parseCoordinate($0.element, what: "waypoint \($0.offset + 1)")
        }
        let output = try outputOptions(arguments)
        let format = try arguments.choice("format", Format.self)
        var response = try router.route(waypoints, options: options)
        router.addSteps(to: &response)
        func render(_ format: Format) -> Data {
            switch format {
            case .summary: Data((summary(response, output: output) + maneuverList(response, output: output)).utf8)
            case .geojson: RouteGeoJSON.make(response, output)
            case .directions: DirectionsResponse.make(response, output)
            }
        }
        if let path = arguments.options["output"] {
            try writeAtomically(render(format ?? .geojson), to: path)
            print(summary(response, output: output), terminator: "")
        } else if let format {
            FileHandle.standardOutput.write(render(format))
        } else {
            print(summary(response, output: output), terminator: "")
        }
        if let style = arguments.options["style"] { try writeAtomically(MapLibreStyle.make(response, output), to: style) }
    }

    static func outputOptions(_ arguments: Arguments) throws -> OutputOptions {
        var output = OutputOptions()
        if let theme = arguments.options["theme"] { output.theme = try RouteTheme.load(path: theme) }
        if let glyphs = arguments.options["glyphs"] { output.glyphsURL = try MapPageSetup.glyphsURL(glyphs) }
        output.units = try arguments.choice("units", DistanceUnits.self) ?? output.units
        output.narrator = try PhrasebookNarrator(locale: arguments.options["locale"] ?? "en", units: output.units)
        output.geometry = try arguments.choice("geometry", GeometryFormat.self) ?? output.geometry
        if let position = arguments.options["position"] { output.position = try parseCoordinate(position, what: "--position") }
        output.offRouteThreshold = try arguments.double("off-route", default: output.offRouteThreshold)
        if let names = arguments.list("names") { output.waypointNames = names }
        return output
    }

    static func routeOptions(_ arguments: Arguments) throws -> RouteOptions {
        var options = RouteOptions()
        options.waypointLabels = arguments.list("names")
        options.radius = try arguments.double("radius", default: 1000)
        if let avoid = arguments.options["avoid"] { options.avoid = try AvoidSet(parsing: avoid) }
        if arguments.flags.contains("avoid-trunk") {
            guard options.avoid.contains(.highway) else { throw NavGraphError("--avoid-trunk extends --avoid highway; add --avoid highway") }
            options.avoid.insert(.trunk)
        }
        options.avoidMode = try arguments.choice("avoid-mode", AvoidMode.self) ?? options.avoidMode
        options.algorithm = try arguments.choice("algorithm", SearchAlgorithm.self) ?? options.algorithm
        if arguments.flags.contains("alternatives") { options.alternatives = 2 }
        if let count = arguments.options["alternatives"] {
            guard let parsed = Int(count), parsed >= 0, parsed <= 10 else { throw NavGraphError("--alternatives: '\(count)' is not 0...10") }
            options.alternatives = parsed
        }
        options.vehicle = try ProfileOptions.vehicle(arguments, profile: try ProfileOptions.profile(arguments))
        options.nameLanguage = arguments.options["locale"]
        options.bearings = try arguments.options["bearings"].map { text in
            try text.split(separator: ";", omittingEmptySubsequences: false).map { item in
                guard !item.isEmpty else { return nil }
                guard let filter = BearingFilter(text: item), filter.isInRange else {
                    throw NavGraphError("--bearings: '\(item)' is not VALUE,RANGE (integers, 0...360 and 0...180)")
                }
                return filter
            }
        }
        options.approaches = try arguments.options["approaches"].map { text in
            try text.split(separator: ";", omittingEmptySubsequences: false).map { item in
                guard !item.isEmpty else { return nil }
                guard let approach = Approach(rawValue: String(item)) else { throw NavGraphError("--approaches: '\(item)' is not curb or unrestricted") }
                return approach
            }
        }
        if let straight = arguments.options["continue-straight"], straight != "default" { options.continueStraight = straight == "true" }
        return options
    }

    /// Seconds as "6.4 min" or "1 h 12.5 min".
    static func minutes(_ seconds: Double) -> String {
        let minutes = seconds / 60
        return minutes >= 60 ? String(format: "%d h %.1f min", Int(minutes / 60), minutes.truncatingRemainder(dividingBy: 60)) : String(format: "%.1f min", minutes)
    }

    /// The human-readable summary: routes, legs, waypoints and, with --position, progress.
    static func summary(_ response: RouteResponse, output: OutputOptions) -> String {
        var lines: [String] = []
        for (index, route) in response.routes.enumerated() {
            let kind = index == 0 ? "route" : "alternative \(index)"
            lines.append("\(kind): \(RouteText.distance(route.distance, units: output.units)), \(minutes(route.duration)) (free flow \(minutes(route.durationTypical)), turns and junctions \(Int(route.turnDelay.rounded())) s)")
            if !route.usedAvoidedClasses.isEmpty { lines.append("  still uses avoided: \(route.usedAvoidedClasses.joined(separator: ", "))") }
            for (legIndex, leg) in route.legs.enumerated() {
                lines.append("  leg \(legIndex + 1): \(RouteText.distance(leg.distance, units: output.units)), \(minutes(leg.duration)) via \(leg.summary.isEmpty ? "unnamed roads" : leg.summary)")
            }
        }
        for (index, waypoint) in response.waypoints.enumerated() {
            let label = waypoint.label.map { $0.isEmpty ? "" : " (\($0))" } ?? ""
            lines.append(String(format: "waypoint %d%@: snapped %.1f m to %.6f,%.6f (%@)", index + 1, label, waypoint.snapDistance,
                                waypoint.snapped.lat, waypoint.snapped.lon, waypoint.roadName.isEmpty ? "unnamed road" : waypoint.roadName))
        }
        if let progress = RouteProgress.make(response, output) {
            lines.append(String(format: "position: %@, %.0f m from the route, on leg %d, %@ and %@ to go", progress.isOffRoute ? "OFF ROUTE" : "on route",
                                progress.distanceFromRoute, progress.legIndex + 1, RouteText.distance(progress.distanceRemaining, units: output.units),
                                RouteText.duration(progress.durationRemaining)))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The primary route's maneuvers, one line each: type, modifier, exit, name, distance.
    static func maneuverList(_ response: RouteResponse, output: OutputOptions) -> String {
        guard let route = response.routes.first else { return "" }
        var lines: [String] = []
        for (legIndex, leg) in route.legs.enumerated() {
            lines.append("leg \(legIndex + 1) maneuvers:")
            for (index, step) in leg.steps.enumerated() {
                var what = step.maneuver.type.rawValue
                if let modifier = step.maneuver.modifier { what += " " + modifier.rawValue }
                if let exit = step.maneuver.exit { what += " exit \(exit)" }
                var name = [step.name, step.ref].filter { !$0.isEmpty }.joined(separator: " ")
                if let narrator = output.narrator { what = narrator.instruction(steps: leg.steps, index: index); name = "" }
                lines.append(String(format: "  %2d. %@%@, %@", index + 1, what, name.isEmpty ? "" : " (\(name))",
                                    RouteText.distance(step.distance, units: output.units)))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Batch mode: one CSV row per query (distance_m, duration_s, weight_ms, error) and latency figures on stderr.
    /// With `--alternatives` (even 0) rows also give the number of alternatives and the latency, and stderr the
    /// share of queries with alternatives, their mean stretch and mean sharing.
    static func runBatch(router: Router, pairsPath: String, options: RouteOptions, output: String?, statistics: Bool = false, quiet: Bool = false) throws {
        let pairs = try CoordinateCSV.readPairs(path: pairsPath)
        var rows = ["index,distance_m,duration_s,weight_ms,error" + (statistics ? ",alternatives,latency_ms" : "")]
        var latencies: [Double] = []
        var failures = 0
        var alternativeCounts: [Int] = [], stretches: [Double] = [], sharings: [Double] = []
        for pair in pairs {
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                let response = try router.route([pair.source, pair.target], options: options)
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
        if quiet { return }
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

/// Writes the whole file or nothing (an unnamed temporary linked into place); errors name the path and the cause.
func writeAtomically(_ data: Data, to path: String) throws {
    try AtomicFile.write(data, to: path)
}
