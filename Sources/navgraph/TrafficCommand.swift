import Foundation
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// `navgraph traffic`: maps a traffic CSV onto a graph, writes a `.traffic` file and times re-customization.
enum TrafficCommand {
    static let spec = CommandSpec(
        name: "traffic", synopsis: ["REGION.navgraph traffic.csv [-o REGION.traffic] [--depart TIME]"],
        summary: "Maps a traffic CSV (OSRM segment speeds or congestion levels) onto a graph and writes a .traffic file.",
        options: [
            OptionSpec(name: "output", short: "o", kind: .value, placeholder: "FILE", help: "traffic file to write",
                       defaultValue: "the graph name with .traffic"),
            OptionSpec(name: "depart", kind: .value, placeholder: "2026-11-30T08:15", help: "time whose profile slot the customization timing uses"),
        ],
        run: run)

    static func run(_ arguments: Arguments) throws {
        guard arguments.positionals.count == 2 else { throw NavGraphError("traffic takes a graph file and a traffic CSV") }
        let graph = try RoutingGraph(path: arguments.positionals[0])
        let csv = arguments.positionals[1]
        let log = ProgressLog()
        let table = try log.phase("read traffic") {
            let table = try TrafficCSVReader.read(path: csv, graph: graph)
            return (table, "\(table.rowsRead) rows, \(table.segmentKey.count) matched, \(table.unknownPairs) unknown node pairs, slots: \(table.slotKind.rawValue)")
        }
        if table.unknownPairs > 0 {
            log.say("warning: \(table.unknownPairs) of \(table.rowsRead) rows name node pairs that are not consecutive on any road of the graph; they were skipped")
        }
        let output = arguments.options["output"] ?? (arguments.positionals[0].hasSuffix(".navgraph")
            ? String(arguments.positionals[0].dropLast(".navgraph".count)) + ".traffic" : arguments.positionals[0] + ".traffic")
        try log.phase("write") {
            try TrafficFile.write(table, graph: graph, source: (csv as NSString).lastPathComponent, to: output)
            return ((), output)
        }
        let departure = try arguments.options["depart"].map(parseDeparture)
        let router = Router(graph: graph)
        let overlay = table.overlay(slot: departure.flatMap(table.slot(for:)), label: csv)
        let metric = log.phase("customize") {
            (router.metric(avoid: [], mode: .strict, traffic: overlay), "\(overlay.segmentCount) segments with traffic, \(graph.metadata.cchArcCount) hierarchy arcs")
        }
        let closed = metric.nodeWeight.filter { $0 >= CCHMetric.infinity }.count
        print("wrote \(output): \(table.segmentKey.count) segment rows (\(table.unknownPairs) unknown pairs skipped); customization \(String(format: "%.3f", log.phaseSeconds["customize"] ?? 0)) s; \(closed) directed edges closed")
    }
}

/// Parses `--depart 2026-11-30T08:15` (local wall-clock time) into weekday and hour.
func parseDeparture(_ text: String) throws -> DateComponents {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    for format in ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm"] {
        formatter.dateFormat = format
        if let date = formatter.date(from: text) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
            return calendar.dateComponents([.weekday, .hour, .minute], from: date)
        }
    }
    throw NavGraphError("--depart: '\(text)' is not a time like 2026-11-30T08:15")
}
