import Foundation
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// `navgraph matrix`: travel times (and distances) between every source and every destination, in the shape
/// of OSRM's table response (JSON) or long-form CSV.
enum MatrixCommand {
    static let spec = CommandSpec(
        name: "matrix",
        synopsis: ["REGION.navgraph sources.csv [--destinations targets.csv] [-o m.json|m.csv] [options]"],
        summary: "Travel times and distances from every source to every destination (CCH many-to-many on all cores); points are lon,lat lines.",
        options: [
            OptionSpec(name: "destinations", kind: .value, placeholder: "FILE", help: "destination points (default: the sources)"),
            OptionSpec(name: "output", short: "o", kind: .value, placeholder: "FILE",
                       help: "write OSRM-table JSON, or long CSV (source,destination,duration_s,distance_m) for a .csv name; default stdout"),
            OptionSpec(name: "annotations", kind: .list, placeholder: "duration,distance", help: "what the cells hold", defaultValue: "duration",
                       check: .choice(["duration", "distance"])),
        ] + RouteCommand.metricOptions + [
            OptionSpec(name: "skip-unsnappable", kind: .flag, help: "leave points far from any road as null rows/columns instead of failing"),
            OptionSpec(name: "no-verify", kind: .flag, help: "skip checking the graph file's checksums (faster start on large files)"),
            OptionSpec(name: "quiet", kind: .flag, help: "no progress and timings on stderr"),
        ],
        run: run)

    static func run(_ arguments: Arguments) throws {
        guard arguments.positionals.count == 2 else {
            throw NavGraphError("matrix needs a graph file and a points file (got \(arguments.positionals.count) arguments)")
        }
        let graphPath = arguments.positionals[0], sourcesPath = arguments.positionals[1]
        let annotations = try parseAnnotations(arguments.options["annotations"] ?? "duration")
        let output = arguments.options["output"]
        let asCSV = output?.lowercased().hasSuffix(".csv") ?? false
        let quiet = arguments.flags.contains("quiet")
        func log(_ text: String) { if !quiet { FileHandle.standardError.write(Data("matrix: \(text)\n".utf8)) } }
        var options = try RouteCommand.routeOptions(arguments)
        options.alternatives = 0
        // Read every input before the (slower) graph so that bad input fails fast.
        let clock = ContinuousClock()
        let started = clock.now
        var cpu = [processCPUSeconds()]
        func readPoints(_ path: String) throws -> [CoordinateCSV.Point] {
            let points = try CoordinateCSV.readPoints(path: path)
            guard !points.isEmpty else { throw NavGraphError("\(path): no points (expected one lon,lat per line)") }
            return points
        }
        let sourcePoints = try readPoints(sourcesPath)
        let destinationPath = arguments.options["destinations"]
        let destinationPoints = try destinationPath.map(readPoints)
        _ = try arguments.options["depart"].map(parseDeparture)   // a bad time fails before the graph loads
        let graph = try RoutingGraph(path: graphPath, verifyChecksums: !arguments.flags.contains("no-verify"),
                                     profile: try ProfileOptions.profile(arguments))
        let router = ProfileOptions.router(graph)
        options.traffic = try RouteCommand.trafficOverlay(arguments, graph: graph)
        let metric = router.engine.metric(avoid: options.avoid, mode: options.avoidMode, traffic: options.traffic, vehicle: options.vehicle)
        let loaded = clock.now
        cpu.append(processCPUSeconds())
        let skip = arguments.flags.contains("skip-unsnappable")
        func snapAll(_ points: [CoordinateCSV.Point], path: String) throws -> [SnapCandidates?] {
            // On all cores; the first point that fails (in file order) names its line unless it may be skipped.
            try zip(points, router.snapAll(points.map(\.coordinate), options: options, metric: metric)).enumerated().map { index, item in
                switch item.1 {
                case .success(let snap): return snap
                case .failure(let error):
                    if skip { return nil }
                    let reason = error.message.replacingOccurrences(of: "waypoint \(index + 1) ", with: "point ")
                    throw NavGraphError("\(path):\(item.0.lineNumber): \(reason)", code: error.code)
                }
            }
        }
        let sourceCandidates = try snapAll(sourcePoints, path: sourcesPath)
        let destinationCandidates = try destinationPoints.map { try snapAll($0, path: destinationPath ?? "") }
        // All points nearest to one small component: the matrix is answered inside it (OSRM's table does the same).
        let together = SmallComponentRule.snaps(sourceCandidates + (destinationCandidates ?? []))
        let sources = Array(together.prefix(sourceCandidates.count))
        let destinations = destinationCandidates == nil ? sources : Array(together.dropFirst(sourceCandidates.count))
        let skipped = sources.filter { $0 == nil }.count + (destinationPoints == nil ? 0 : destinations.filter { $0 == nil }.count)
        let snapped = clock.now
        cpu.append(processCPUSeconds())
        var carried: PathAttributeSet = []
        if annotations.contains("distance") { carried.insert(.distance) }
        let penalised = !options.avoid.isEmpty && options.avoidMode == .prefer
        if annotations.contains("duration") && (options.traffic != nil || penalised) { carried.insert(.duration) }
        let engine = BucketManyToMany(router: router, metric: metric, attributes: carried)
        let matrix = engine.compute(sources: sources, destinations: destinations)
        let computed = clock.now
        cpu.append(processCPUSeconds())
        let data = asCSV ? MatrixOutput.csv(matrix, annotations: annotations)
            : MatrixOutput.json(matrix, sources: sources, destinations: destinations, graph: graph, annotations: annotations)
        if let output {
            try writeAtomically(data, to: output)
        } else {
            FileHandle.standardOutput.write(data)
        }
        let written = clock.now
        cpu.append(processCPUSeconds())
        func ms(_ duration: Duration) -> String { String(format: "%.0f ms", Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000) }
        log("\(matrix.sourceCount) x \(matrix.destinationCount) with \(matrix.algorithm)\(skipped > 0 ? ", \(skipped) unsnappable point(s) left null" : "")")
        log("read + load \(ms(loaded - started)), snap \(ms(snapped - loaded)), compute \(ms(computed - snapped)), write \(ms(written - computed)); "
            + "CPU \(zip(cpu, cpu.dropFirst()).map { String(format: "%.0f", ($1 - $0) * 1000) }.joined(separator: " / ")) ms")
    }

    static func parseAnnotations(_ text: String) throws -> Set<String> {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !names.isEmpty else { throw NavGraphError("--annotations: '\(text)' names nothing (use duration, distance or both)") }
        for name in names where name != "duration" && name != "distance" {
            throw NavGraphError("--annotations: '\(name)' is not duration or distance")
        }
        return Set(names)
    }
}
