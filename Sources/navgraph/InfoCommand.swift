import Foundation
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// `navgraph info`: what a graph file holds.
enum InfoCommand {
    static let spec = CommandSpec(
        name: "info", synopsis: ["REGION.navgraph [--json]"],
        summary: "Prints what a graph file holds: counts, bounds, source, format version.",
        options: [OptionSpec(name: "json", kind: .flag, help: "print JSON instead of text")],
        run: run)

    static func run(_ arguments: Arguments) throws {
        guard arguments.positionals.count == 1 else { throw NavGraphError("info takes one graph file") }
        let summary = GraphSummary(graph: try RoutingGraph(path: arguments.positionals[0]))
        if arguments.flags.contains("json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(summary), as: UTF8.self))
        } else {
            print(summary.text)
        }
    }
}
