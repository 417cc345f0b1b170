import Foundation
import NavGraph

/// `navgraph import`: OSM extract to graph file.
enum ImportCommand {
    static func run(_ arguments: Arguments) throws {
        try arguments.check(allowed: ["output", "profile", "quiet"])
        guard arguments.positionals.count == 1 else { throw NavGraphError("import takes one input file, got \(arguments.positionals.count)") }
        let input = arguments.positionals[0]
        if let profile = arguments.options["profile"], profile != CarProfile.name {
            throw NavGraphError("--profile: unknown profile '\(profile)' (available: car)")
        }
        let output = arguments.options["output"] ?? defaultOutput(for: input)
        let log = ProgressLog(quiet: arguments.flags.contains("quiet"))
        let metadata = try Importer.run(input: input, output: output, log: log)
        print("wrote \(output): \(metadata.nodeCount) nodes, \(metadata.edgeCount) edges, \(metadata.routingNodeCount) routing nodes, \(metadata.cchArcCount) hierarchy arcs")
    }

    static func defaultOutput(for input: String) -> String {
        var name = input
        for suffix in [".osm.pbf", ".osm.bz2", ".osm.gz", ".osm", ".pbf", ".gr.gz", ".gr"] where name.hasSuffix(suffix) {
            name = String(name.dropLast(suffix.count))
            break
        }
        return name + ".navgraph"
    }
}
