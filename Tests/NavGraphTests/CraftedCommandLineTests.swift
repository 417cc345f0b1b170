import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// The CLI's option tables: `--help` everywhere, usage that names exactly the options parsed, malformed values
/// and lists refused naming the item. Runs the built executable; needs no graph (checked tier: name starts with Crafted).
@Suite struct CraftedCommandLineTests {
    static let commands = ["import", "info", "route", "traffic", "matrix", "isochrone", "match", "trip", "serve"]

    /// `--name` options the usage text lists (left column of the options block).
    func listedOptions(_ usage: String) -> [String] {
        guard let block = usage.components(separatedBy: "\noptions:\n").last else { return [] }
        return block.split(separator: "\n").compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("--") }.map { String($0.dropFirst(2)) }
        }
    }

    @Test(arguments: commands) func everyFormOfHelpPrintsTheSameUsage(command: String) throws {
        let long = try Fixtures.run([command, "--help"])
        let short = try Fixtures.run([command, "-h"])
        let viaHelp = try Fixtures.run(["help", command])
        #expect(long.status == 0 && short.status == 0 && viaHelp.status == 0)
        #expect(long.stdout.hasPrefix("usage: navgraph \(command) "))
        #expect(long.stdout == short.stdout && long.stdout == viaHelp.stdout)
        #expect(long.stderr.isEmpty)
    }

    /// Every option the usage lists is accepted by the parser (never "unknown option"), so usage and parser agree.
    @Test(arguments: commands) func everyListedOptionParses(command: String) throws {
        let usage = try Fixtures.run([command, "--help"]).stdout
        let options = listedOptions(usage)
        #expect(options.contains("help"))
        #expect(options.count >= 2)
        for option in options where option != "help" {
            let result = try Fixtures.run([command, "/nonexistent/input", "--\(option)"])
            #expect(!result.stderr.contains("unknown option"), "\(command) --\(option): \(result.stderr)")
        }
    }

    @Test func routeUsageListsTheOptionsThatWereMissing() throws {
        let options = listedOptions(try Fixtures.run(["route", "--help"]).stdout)
        for name in ["nodes", "off-route", "names", "pairs", "traffic", "depart", "alternatives", "output"] {
            #expect(options.contains(name), "route --help lacks --\(name)")
        }
        #expect(!options.contains("no-verify"))
    }

    @Test func topLevelHelpAndVersion() throws {
        let help = try Fixtures.run(["--help"])
        #expect(help.status == 0)
        for command in Self.commands { #expect(help.stdout.contains("navgraph \(command) ")) }
        // Every command the usage lists is one these tests cover (a new command joins `commands`).
        let listed = Set(help.stdout.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard words.count >= 2, words[0] == "navgraph", !words[1].hasPrefix("-"), words[1] != "help" else { return nil }
            return String(words[1])
        })
        #expect(listed == Set(Self.commands), "navgraph --help lists \(listed.sorted())")
        let version = try Fixtures.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.contains("graph format version \(GraphFileFormat.version)"))
        #expect(version.stdout.contains(NavGraphVersion.string))
        let bare = try Fixtures.run([])
        #expect(bare.status == 2 && bare.stdout.contains("usage:"))
        let unknownTopic = try Fixtures.run(["help", "teleport"])
        #expect(unknownTopic.status == 2 && unknownTopic.stderr.contains("teleport"))
    }

    func expectRefused(_ arguments: [String], _ mentions: [String]) throws {
        let result = try Fixtures.run(arguments)
        #expect(result.status == 2, "exit \(result.status) for \(arguments)")
        for text in mentions { #expect(result.stderr.contains(text), "stderr '\(result.stderr)' lacks '\(text)'") }
        #expect(result.stdout.isEmpty)
    }

    /// navgraph-bench's guidance-round and node-pair choices are checked before any file is read: a bad value exits 2
    /// naming it.
    @Test func benchChoicesAreRefusedNamingTheValue() throws {
        let bench = Fixtures.executable.deletingLastPathComponent().appendingPathComponent("navgraph-bench")
        try #require(FileManager.default.isExecutableFile(atPath: bench.path), "no navgraph-bench next to \(Fixtures.executable.path)")
        let cases: [([String], [String])] = [
            (["--guidance-rounds", "3", "--back-to-back", "sideways"], ["--back-to-back", "'sideways'", "same or other"]),
            (["--guidance-rounds", "3", "--warm-up", "cold"], ["--warm-up", "'cold'"]),
            (["--guidance-rounds", "0"], ["--guidance-rounds", "'0'"]),
            (["--guidance-rounds", "many"], ["--guidance-rounds", "'many'"]),
            (["--node-pairs", "yes", "--unpack", "maybe"], ["--unpack", "'maybe'", "yes or no"]),
        ]
        for (options, mentions) in cases {
            let process = Process()
            process.executableURL = bench
            process.arguments = ["/nonexistent/region.navgraph", "/nonexistent/pairs.csv"] + options
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 2, "exit \(process.terminationStatus) for \(options)")
            #expect(stdout.isEmpty)
            for text in mentions { #expect(stderr.contains(text), "stderr '\(stderr)' lacks '\(text)'") }
        }
    }

    @Test func malformedOptionsAreRefusedNamingTheValue() throws {
        let graph = "/nonexistent/region.navgraph"
        try expectRefused(["route", graph, "--nodes", "1,x,2"], ["--nodes", "'x'", "item 2", "node id"])
        try expectRefused(["route", graph, "--nodes", "1,,2"], ["--nodes", "item 2"])
        try expectRefused(["route", graph, "--nodes", "0,5"], ["--nodes", "'0'", "item 1"])
        try expectRefused(["route", graph, "--bogus"], ["unknown option --bogus", "navgraph route --help"])
        try expectRefused(["route", graph, "-x"], ["unknown option -x", "navgraph route --help"])
        try expectRefused(["info", graph, "--pairs", "p.csv"], ["unknown option --pairs", "navgraph info --help"])
        try expectRefused(["route", graph, "--output"], ["--output needs a value"])
        try expectRefused(["route", graph, "--radius", "--avoid", "toll"], ["--radius needs a value"])
        try expectRefused(["route", graph, "--radius", "-5"], ["--radius", "'-5'", "positive number"])
        try expectRefused(["route", graph, "--off-route", "near"], ["--off-route", "'near'"])
        try expectRefused(["route", graph, "--format", "kml"], ["--format", "'kml'", "summary, geojson, directions"])
        try expectRefused(["route", graph, "--alternatives=11"], ["--alternatives", "'11'"])
        try expectRefused(["route", graph, "--position", "north"], ["--position", "'north'"])
        try expectRefused(["info", graph, "--json=yes"], ["--json takes no value"])
        try expectRefused(["import", graph, "--profile", "bicycle"], ["--profile", "'bicycle'", "car"])
    }

    /// Negative coordinates stay positionals; `--name=value` works like `--name value`.
    @Test func negativeCoordinatesAndEqualsForm() throws {
        let result = try Fixtures.run(["route", "/nonexistent/region.navgraph", "-33.9,151.2", "-33.8,151.1", "--radius=500"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/region.navgraph"), "\(result.stderr)")
    }
}

/// Review defects that fail loudly now instead of quietly.
@Suite struct CraftedDefectTests {
    /// An input arc missing from the hierarchy is an error naming the arc, not a silent mapping to arc 0.
    @Test func missingHierarchyArcFails() throws {
        // Path 0 - 1 - 2 contracted; then asked to place an arc 0 -> 2 that the chordal graph of the path lacks.
        let firstOut: ContiguousArray<UInt32> = [0, 1, 3, 4], head: ContiguousArray<UInt32> = [1, 0, 2, 1]
        let topology = try ChordalContraction.contract(nodeCount: 3, firstOut: firstOut, head: head)
        #expect(topology.inputArc.count == 4 && topology.inputArc.allSatisfy { $0 != UInt32.max })
        let error = #expect(throws: NavGraphError.self) {
            try ChordalContraction.inputArcs(topology, firstOut: [0, 1, 1, 1], head: [2])
        }
        #expect(error?.message.contains("input arc 0 (0 -> 2)") == true, "\(error?.message ?? "")")
        #expect(throws: NavGraphError.self) { try ChordalContraction.contract(nodeCount: 2, firstOut: [0, 1, 1], head: [5]) }
    }

    /// Found by the checked tier: a section name of exactly 24 bytes (restriction.viaPathFirst) tripped the
    /// writer's precondition in debug builds, so every checked-build import trapped. It must round-trip.
    @Test func fullLengthSectionNameRoundTrips() throws {
        let name = "restriction.viaPathFirst"
        #expect(name.utf8.count == GraphFileFormat.nameLength)
        var writer = GraphFileWriter()
        writer.add(name, ContiguousArray<UInt32>([1, 2, 3]))
        writer.add("short", ContiguousArray<UInt8>([9]))
        let path = Fixtures.workDirectory.appendingPathComponent("long-section-name.bin").path
        try writer.write(to: path)
        let file = try MappedGraphFile(path: path)
        #expect(file.sections[name]?.length == 12 && file.sections["short"]?.length == 1)
        #expect(file.sectionOrder.map(\.name) == [name, "short"])
    }

    /// Found by fuzzing graph files (Tools/fuzz.sh graph-file): a file whose checksums pass but whose grid offsets
    /// descend trapped the snapper (Range with lowerBound > upperBound). Loading now refuses it, naming the section.
    @Test func descendingGridOffsetsAreRefusedOnLoad() throws {
        let graph = try CraftedOSM.testTown(restriction: nil).importGraph(named: "fuzz-grid")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: graph.file.path))
        let grid = try #require(graph.file.sections[Section.gridFirst])
        #expect(graph.gridFirst.count >= 3)
        // Swap in a descending pair: gridFirst[1] = total + 1 > gridFirst[2].
        let total = UInt32(graph.gridSegment.count)
        withUnsafeBytes(of: (total + 1).littleEndian) { bytes.replaceSubrange((grid.offset + 4)..<(grid.offset + 8), with: $0) }
        let path = Fixtures.workDirectory.appendingPathComponent("fuzz-grid-broken.bin").path
        try bytes.write(to: URL(fileURLWithPath: path))
        let unchecked = #expect(throws: NavGraphError.self) { try RoutingGraph(path: path, verifyChecksums: false) }
        #expect(unchecked?.message.contains("inconsistent grid") == true, "\(unchecked?.message ?? "")")
        let checked = #expect(throws: NavGraphError.self) { try RoutingGraph(path: path) }
        #expect(checked?.message.contains("checksum mismatch in section '\(Section.gridFirst)'") == true, "\(checked?.message ?? "")")
    }
}

