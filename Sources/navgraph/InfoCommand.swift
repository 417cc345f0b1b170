import Foundation
import NavGraph

/// `navgraph info`: what a graph file holds.
enum InfoCommand {
    static func run(_ arguments: Arguments) throws {
        try arguments.check(allowed: ["json"])
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
