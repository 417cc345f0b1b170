import Foundation
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// `navgraph import`: OSM extract to graph file.
enum ImportCommand {
    static let spec = CommandSpec(
        name: "import",
        synopsis: ["REGION.osm.pbf [-o REGION.navgraph] [--road-sets motor,active | --profiles car,bicycle] [--quiet]",
                   "USA-road-d.NY.gr.gz -o ny.navgraph   (DIMACS graph)"],
        summary: "Imports an OSM extract (.osm.pbf, .osm, .osm.gz, .osm.bz2) or a DIMACS graph into a graph file.",
        options: [
            OptionSpec(name: "output", short: "o", kind: .value, placeholder: "FILE", help: "graph file to write",
                       defaultValue: "the input name with .navgraph"),
            OptionSpec(name: "profile", kind: .value, help: "accepted for compatibility (car only); --profiles chooses the profiles", defaultValue: CarProfile.name,
                       check: .choice([CarProfile.name])),
            OptionSpec(name: "road-sets", kind: .list, placeholder: "motor,active",
                       help: "road sets to import: motor (car, truck, motorcycle), active (bicycle, foot, escooter)", defaultValue: "motor,active",
                       check: .choice(RoadSet.allCases.map(\.rawValue))),
            OptionSpec(name: "profiles", kind: .list, placeholder: "car,bicycle",
                       help: "profiles to import, instead of --road-sets: car is always imported, and bicycle with foot (each owns its road set's shared sections)",
                       defaultValue: "all five", check: .choice(ProfileID.allCases.map(\.rawValue))),
            OptionSpec(name: "quiet", kind: .flag, help: "no progress on stderr"),
        ],
        run: run)

    static func run(_ arguments: Arguments) throws {
        guard arguments.positionals.count == 1 else { throw NavGraphError("import takes one input file, got \(arguments.positionals.count)") }
        let input = arguments.positionals[0]
        if let profile = arguments.options["profile"], profile != CarProfile.name {
            throw NavGraphError("--profile: unknown profile '\(profile)' (available: car)")
        }
        let output = arguments.options["output"] ?? defaultOutput(for: input)
        let log = ProgressLog(quiet: arguments.flags.contains("quiet"))
        var roadSets = (arguments.list("road-sets") ?? RoadSet.allCases.map(\.rawValue)).compactMap(RoadSet.init(rawValue:))
        guard roadSets.contains(.motor) else { throw NavGraphError("--road-sets: the motor road set is always imported; add motor") }
        var profiles: Set<ProfileID>?
        if let names = arguments.list("profiles") {
            guard arguments.options["road-sets"] == nil else {
                throw NavGraphError("--profiles and --road-sets both given: --profiles chooses the road sets (give one of them)")
            }
            let chosen = Set(names.compactMap(ProfileID.init(rawValue:)))
            roadSets = RoadSet.allCases.filter { $0 == .motor || !chosen.isDisjoint(with: $0.profiles) }
            profiles = chosen
        }
        let metadata = try Importer.run(input: input, output: output, log: log, roadSets: roadSets, profiles: profiles)
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
