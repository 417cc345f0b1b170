import Foundation
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// `navgraph isochrone`: GeoJSON polygons of the area reachable from (or, with --reverse, reaching) a point.
enum IsochroneCommand {
    static let spec = CommandSpec(
        name: "isochrone",
        synopsis: ["REGION.navgraph LAT,LON [--minutes 5,10,15] [-o iso.geojson] [--reverse] [options]"],
        summary: "GeoJSON polygons of what can be reached from a point (or, with --reverse, what can reach it) within each contour.",
        options: [
            OptionSpec(name: "minutes", kind: .list, placeholder: "5,10,15", help: "contours in minutes", defaultValue: "5,10,15",
                       check: .positiveNumber),
            OptionSpec(name: "output", short: "o", kind: .value, placeholder: "FILE", help: "write the GeoJSON to FILE (default stdout)"),
            OptionSpec(name: "reverse", kind: .flag, help: "times to the point instead of from it"),
            OptionSpec(name: "cell", kind: .value, placeholder: "METRES", help: "grid cell of the polygon tracing", check: .positiveNumber),
            OptionSpec(name: "theme", kind: .value, placeholder: "FILE", help: "colours (JSON) for the contour fills"),
        ] + RouteCommand.metricOptions + [
            OptionSpec(name: "no-verify", kind: .flag, help: "skip checking the graph file's checksums (faster start on large files)"),
            OptionSpec(name: "quiet", kind: .flag, help: "no timings on stderr"),
        ],
        run: run)

    static func run(_ arguments: Arguments) throws {
        guard arguments.positionals.count == 2 else {
            throw NavGraphError("isochrone needs a graph file and a centre LAT,LON (got \(arguments.positionals.count) arguments)")
        }
        let centre = try parseCoordinate(arguments.positionals[1], what: "centre")
        var isochroneOptions = Isochrone.Options()
        isochroneOptions.reverse = arguments.flags.contains("reverse")
        isochroneOptions.minutes = try parseMinutes(arguments.options["minutes"] ?? "5,10,15")
        isochroneOptions.cellMetres = try arguments.double("cell", default: isochroneOptions.cellMetres)
        let theme = try arguments.options["theme"].map(RouteTheme.load(path:)) ?? .default
        var options = try RouteCommand.routeOptions(arguments)
        _ = try arguments.options["depart"].map(parseDeparture)   // a bad time fails before the graph loads
        let quiet = arguments.flags.contains("quiet")
        let clock = ContinuousClock()
        let started = clock.now
        let cpuStarted = processCPUSeconds()
        let graph = try RoutingGraph(path: arguments.positionals[0], verifyChecksums: !arguments.flags.contains("no-verify"),
                                     profile: try ProfileOptions.profile(arguments))
        let router = ProfileOptions.router(graph)
        options.traffic = try RouteCommand.trafficOverlay(arguments, graph: graph)
        let metric = router.engine.metric(avoid: options.avoid, mode: options.avoidMode, traffic: options.traffic, vehicle: options.vehicle)
        let snap: Snap
        do {
            snap = try router.snap(centre, index: 0, options: options, metric: metric)
        } catch let error as NavGraphError {
            throw NavGraphError(error.message.replacingOccurrences(of: "waypoint 1 ", with: "centre "), code: error.code)
        }
        let loaded = clock.now
        let cpuLoaded = processCPUSeconds()
        let (isochrone, _) = Isochrone.compute(router: router, snap: snap, metric: metric, options: isochroneOptions)
        let computed = clock.now
        let cpuComputed = processCPUSeconds()
        let data = IsochroneGeoJSON.make(isochrone, theme: theme, reverse: isochroneOptions.reverse)
        if let output = arguments.options["output"] {
            try writeAtomically(data, to: output)
        } else {
            FileHandle.standardOutput.write(data)
        }
        if !quiet {
            func ms(_ d: Duration) -> String { String(format: "%.0f ms", Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15) }
            let rings = isochrone.contours.map { "\(Int($0.minutes)) min: \($0.polygons.count) polygon(s), \($0.polygons.reduce(0) { $0 + $1.count - 1 }) hole(s)" }
            FileHandle.standardError.write(Data("""
                isochrone: \(isochroneOptions.reverse ? "reaching" : "from") \(String(format: "%.6f,%.6f", snap.point.lat, snap.point.lon)) \
                (snapped \(String(format: "%.0f", snap.distance)) m), one-to-all sweep over \(graph.routingNodeCount) nodes, \
                grid \(String(format: "%.0f", isochrone.cellMetres)) m; \(rings.joined(separator: "; "))
                isochrone: load + snap \(ms(loaded - started)), sweep + polygons \(ms(computed - loaded)); \
                CPU \(String(format: "%.0f / %.0f", (cpuLoaded - cpuStarted) * 1000, (cpuComputed - cpuLoaded) * 1000)) ms

                """.utf8))
        }
    }

    static func parseMinutes(_ text: String) throws -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        var minutes: [Double] = []
        for part in parts {
            guard let value = Double(part), value.isFinite, value > 0, value <= 600 else {
                throw NavGraphError("--minutes: '\(part)' is not a number of minutes in 0...600 (in '\(text)')")
            }
            minutes.append(value)
        }
        guard Set(minutes).count == minutes.count else { throw NavGraphError("--minutes: '\(text)' repeats a contour") }
        return minutes
    }
}
