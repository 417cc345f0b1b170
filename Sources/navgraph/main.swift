import Foundation
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// Every command, in the order `navgraph --help` lists them. A new command: a `static let spec = CommandSpec(...)`
/// at the top of its file, and one line here.
let commands: [CommandSpec] = [
    ImportCommand.spec,
    InfoCommand.spec,
    RouteCommand.spec,
    TrafficCommand.spec,
    MatrixCommand.spec,
    IsochroneCommand.spec,
    MatchCommand.spec,
    TripCommand.spec,
    ServeCommand.spec,
]

/// `navgraph --help`: every command's synopsis.
let usage = (["usage:"] + commands.flatMap { command in command.synopsis.map { "  navgraph \(command.name) \($0)" } } + [
    "  navgraph help COMMAND | navgraph COMMAND --help   (that command's options)",
    "  navgraph --version",
]).joined(separator: "\n")

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("navgraph: \(message)\n".utf8))
    exit(2)
}

let raw = Array(CommandLine.arguments.dropFirst())
guard let name = raw.first else {
    print(usage)
    exit(2)
}
do {
    switch name {
    case "--help", "-h":
        print(usage)
    case "help":
        guard let topic = raw.dropFirst().first else { print(usage); break }
        guard let command = commands.first(where: { $0.name == topic }) else { fail("unknown command '\(topic)'\n\(usage)") }
        print(command.usage)
    case "--version", "version":
        print("navgraph \(NavGraphVersion.string) (graph format version \(GraphFileFormat.version))")
    default:
        guard let command = commands.first(where: { $0.name == name }) else { fail("unknown command '\(name)'\n\(usage)") }
        let rest = Array(raw.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            print(command.usage)
        } else {
            try command.run(try Arguments(rest, spec: command))
        }
    }
} catch let error as NavGraphError {
    fail(error.message)
} catch {
    fail("\(error)")
}
