import Dispatch
import Foundation
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// `navgraph match`: map-matches a GPS trace (GPX, CSV or GeoJSON), or every trace in a folder on all cores, and
/// writes the matched line, the snapped points and the unmatched points as GeoJSON.
enum MatchCommand {
    static let spec = CommandSpec(
        name: "match",
        synopsis: ["REGION.navgraph TRACE.{gpx,csv,geojson} [-o matched.geojson] [options]",
                   "REGION.navgraph FOLDER -o OUTFOLDER [options]"],
        summary: "Map-matches GPS traces with a hidden Markov model (Newson–Krumm); writes each match as GeoJSON.",
        options: [
            OptionSpec(name: "output", short: "o", kind: .value, placeholder: "PATH",
                       help: "GeoJSON file (default stdout), or the folder for a folder of traces (default FOLDER/matched)"),
            OptionSpec(name: "sigma", kind: .value, placeholder: "METRES", help: "GPS noise standard deviation",
                       defaultValue: "\(MatchModel.defaultSigma)", check: .positiveNumber),
            OptionSpec(name: "gaps", kind: .value, help: "split the trace where timestamps are more than 60 s apart, or not",
                       defaultValue: "split", check: .choice(["split", "ignore"])),
            OptionSpec(name: "tidy", kind: .flag, help: "drop points bunched within 10 m of the previous one"),
            OptionSpec(name: "avoid", kind: .list, placeholder: "toll,ferry,highway", help: "avoid these classes (any combination)"),
            OptionSpec(name: "traffic", kind: .value, placeholder: "FILE", help: "traffic from a .traffic file or a CSV (see navgraph traffic)"),
            OptionSpec(name: "depart", kind: .value, placeholder: "2026-11-30T08:15", help: "departure time; picks the traffic profile of that hour"),
        ] + ProfileOptions.specs + [
            OptionSpec(name: "quiet", kind: .flag, help: "no progress on stderr"),
        ],
        run: run)

    static func run(_ arguments: Arguments) throws {
        guard arguments.positionals.count == 2 else {
            throw NavGraphError("match needs a graph file and a trace or a folder of traces (got \(arguments.positionals.count) arguments)")
        }
        let input = arguments.positionals[1]
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isFolder) else { throw NavGraphError("no such trace or folder: \(input)") }
        let extensions: Set<String> = ["gpx", "csv", "geojson", "json"]
        let traces: [String]
        if isFolder.boolValue {
            traces = try FileManager.default.contentsOfDirectory(atPath: input).sorted()
                .filter { extensions.contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }
                .map { URL(fileURLWithPath: input).appendingPathComponent($0).path }
            guard !traces.isEmpty else { throw NavGraphError("folder \(input) holds no .gpx, .csv or .geojson trace") }
        } else {
            traces = [input]
        }
        var options = MatchOptions()
        options.splitGaps = (arguments.options["gaps"] ?? "split") == "split"
        options.tidy = arguments.flags.contains("tidy")
        let sigma = try arguments.double("sigma", default: MatchModel.defaultSigma)
        if let avoid = arguments.options["avoid"] { options.avoid = try AvoidSet(parsing: avoid) }
        let quiet = arguments.flags.contains("quiet")
        // Every trace is read (and checked) before the graph loads.
        let inputs = try traces.map { path in try TraceFile.read(path: path).map { point in
            var point = point
            point.sigma = point.sigma ?? sigma
            return point
        } }
        let profile = try ProfileOptions.profile(arguments)
        let graph = try RoutingGraph(path: arguments.positionals[0], profile: profile)
        options.vehicle = try ProfileOptions.vehicle(arguments, profile: profile)
        options.traffic = try RouteCommand.trafficOverlay(arguments, graph: graph)
        let engine = RoutingEngine(graph: graph)
        let matchOptions = options
        if !isFolder.boolValue {
            let router = Router(engine: engine)
            let result = MapMatcher(router: router, options: options).match(inputs[0])
            let data = MatchGeoJSON.make(result, trace: inputs[0], router: router)
            if let output = arguments.options["output"] { try writeAtomically(data, to: output) } else { FileHandle.standardOutput.write(data) }
            if !quiet { report(traces[0], inputs[0], result) }
            return
        }
        let folder = arguments.options["output"] ?? URL(fileURLWithPath: input).appendingPathComponent("matched").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, traces.count)
        let progress = Progress(total: traces.count, quiet: quiet)
        let failures = FailureList()
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let router = Router(engine: engine)
            for index in stride(from: worker, to: traces.count, by: workers) {
                let result = MapMatcher(router: router, options: matchOptions).match(inputs[index])
                let name = URL(fileURLWithPath: traces[index]).deletingPathExtension().lastPathComponent + ".matched.geojson"
                do {
                    try writeAtomically(MatchGeoJSON.make(result, trace: inputs[index], router: router),
                                        to: URL(fileURLWithPath: folder).appendingPathComponent(name).path)
                } catch {
                    failures.add("\(traces[index]): \(error)")
                }
                progress.step(traces[index], inputs[index], result)
            }
        }
        if let first = failures.first { throw NavGraphError("match: \(failures.count) file(s) could not be written; first: \(first)") }
    }

    static func report(_ path: String, _ trace: [TracePoint], _ result: MatchResult) {
        let matched = result.placement.filter { $0 != nil }.count
        let confidence = result.matchings.map { String(format: "%.2f", $0.confidence) }.joined(separator: ", ")
        FileHandle.standardError.write(Data("match: \(path): \(matched)/\(trace.count) points matched in \(result.matchings.count) matching(s) (confidence \(confidence))\n".utf8))
    }

    /// Files done so far, printed on stderr as they finish (from any worker).
    final class Progress: @unchecked Sendable {
        private let lock = NSLock()
        private var done = 0
        let total: Int
        let quiet: Bool
        init(total: Int, quiet: Bool) { self.total = total; self.quiet = quiet }
        func step(_ path: String, _ trace: [TracePoint], _ result: MatchResult) {
            lock.withLock {
                done += 1
                guard !quiet else { return }
                FileHandle.standardError.write(Data("[\(done)/\(total)] ".utf8))
                MatchCommand.report(path, trace, result)
            }
        }
    }

    /// Write failures collected from the workers.
    final class FailureList: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ item: String) { lock.withLock { items.append(item) } }
        var count: Int { lock.withLock { items.count } }
        var first: String? { lock.withLock { items.first } }
    }
}
