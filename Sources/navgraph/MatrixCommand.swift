import Foundation
import NavGraph

/// `navgraph matrix`: travel times (and distances) between every source and every destination, in the shape
/// of OSRM's table response (JSON) or long-form CSV.
enum MatrixCommand {
    static let allowed: Set<String> = ["destinations", "output", "annotations", "avoid", "avoid-trunk", "avoid-mode", "traffic", "depart",
                                       "radius", "skip-unsnappable", "quiet", "no-verify"]

    static func run(_ arguments: Arguments) throws {
        try arguments.check(allowed: allowed)
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
        let sourcePoints = try MatrixPointsReader.read(path: sourcesPath)
        let destinationPath = arguments.options["destinations"]
        let destinationPoints = try destinationPath.map(MatrixPointsReader.read(path:))
        let departure = try arguments.options["depart"].map(parseDeparture)
        let graph = try RoutingGraph(path: graphPath, verifyChecksums: !arguments.flags.contains("no-verify"))
        let router = Router(graph: graph)
        if let trafficPath = arguments.options["traffic"] {
            let table = try TrafficFile.load(path: trafficPath, graph: graph)
            options.traffic = table.overlay(slot: departure.flatMap(table.slot(for:)), label: trafficPath)
        }
        let metric = router.metric(avoid: options.avoid, mode: options.avoidMode, traffic: options.traffic)
        let loaded = clock.now
        let skip = arguments.flags.contains("skip-unsnappable")
        func snapAll(_ points: [MatrixPointsReader.Point], path: String) throws -> [Snap?] {
            try points.enumerated().map { index, point in
                do {
                    return try router.snap(point.coordinate, index: index, options: options, metric: metric)
                } catch let error as NavGraphError {
                    if skip { return nil }
                    let reason = error.message.replacingOccurrences(of: "waypoint \(index + 1) ", with: "point ")
                    throw NavGraphError("\(path) line \(point.line): \(reason)", code: error.code)
                }
            }
        }
        let sources = try snapAll(sourcePoints, path: sourcesPath)
        let destinations = try destinationPoints.map { try snapAll($0, path: destinationPath ?? "") } ?? sources
        let skipped = sources.filter { $0 == nil }.count + (destinationPoints == nil ? 0 : destinations.filter { $0 == nil }.count)
        let snapped = clock.now
        var carried: PathAttributeSet = []
        if annotations.contains("distance") { carried.insert(.distance) }
        let penalised = !options.avoid.isEmpty && options.avoidMode == .prefer
        if annotations.contains("duration") && (options.traffic != nil || penalised) { carried.insert(.duration) }
        let engine = BucketManyToMany(router: router, metric: metric, attributes: carried)
        let matrix = engine.compute(sources: sources, destinations: destinations)
        let computed = clock.now
        let data = asCSV ? MatrixOutput.csv(matrix, annotations: annotations)
            : MatrixOutput.json(matrix, sources: sources, destinations: destinations, graph: graph, annotations: annotations)
        if let output {
            try writeAtomically(data, to: output)
        } else {
            FileHandle.standardOutput.write(data)
        }
        let written = clock.now
        func ms(_ duration: Duration) -> String { String(format: "%.0f ms", Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000) }
        log("\(matrix.sourceCount) x \(matrix.destinationCount) with \(matrix.algorithm)\(skipped > 0 ? ", \(skipped) unsnappable point(s) left null" : "")")
        log("read + load \(ms(loaded - started)), snap \(ms(snapped - loaded)), compute \(ms(computed - snapped)), write \(ms(written - computed))")
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

/// Reads matrix points: one `lon,lat` per line, an optional header line, CRLF tolerated, blank lines skipped.
/// Self-contained so that a shared CSV reader can replace it.
enum MatrixPointsReader {
    /// A point and the 1-based line it came from.
    struct Point { var coordinate: Coordinate; var line: Int }

    static func read(path: String) throws -> [Point] {
        guard let data = FileManager.default.contents(atPath: path) else { throw NavGraphError("\(path): cannot read the points file", code: .ioFailure) }
        let text = String(decoding: data, as: UTF8.self)
        var points: [Point] = []
        var lineNumber = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            lineNumber += 1
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let numbers = fields.map { Double($0) }
            if points.isEmpty && lineNumber == 1 && numbers.allSatisfy({ $0 == nil }) { continue }   // header
            guard fields.count == 2, let lon = numbers[0], let lat = numbers[1] else {
                let shown = line.count > 60 ? line.prefix(60) + "…" : line
                throw NavGraphError("\(path) line \(lineNumber): '\(shown)' is not lon,lat", code: .invalidInput)
            }
            let point = Coordinate(lat: lat, lon: lon)
            guard point.isValid else {
                throw NavGraphError("\(path) line \(lineNumber): '\(line)' is out of range (longitude -180..180, latitude -90..90)", code: .invalidInput)
            }
            points.append(Point(coordinate: point, line: lineNumber))
        }
        guard !points.isEmpty else { throw NavGraphError("\(path): no points (expected one lon,lat per line)", code: .invalidInput) }
        return points
    }
}
