import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Interrupted and failing writes: an import killed with SIGKILL at random moments never leaves a partial file or a
/// temporary behind, and a graph already at the output path stays loadable until the new one replaces it whole.
/// Unwritable destinations get a clear message naming the path, with exit status 2.
@Suite struct FileCrashSafetyTests {
    func freshDirectory(_ name: String) throws -> URL {
        let directory = Fixtures.workDirectory.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Starts `navgraph import`, kills it after `delay` seconds unless it finished; whether it was killed.
    func importKilled(after delay: Double, input: String, output: String) throws -> Bool {
        let process = Process()
        process.executableURL = Fixtures.executable
        process.arguments = ["import", input, "-o", output, "--quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(delay)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        let killed = process.isRunning
        if killed { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return killed && process.terminationReason == .uncaughtSignal
    }

    @Test func killedImportLeavesNoPartialFile() throws {
        let input = Fixtures.packageRoot.appendingPathComponent("Data/monaco.osm.pbf").path
        // The old graph at the output path: a crafted town, told apart from Monaco by its edge count.
        let old = try CraftedOSM.testTown(restriction: nil).importGraph(named: "crash-old")
        let oldEdges = old.edgeCount
        let oldBytes = try Data(contentsOf: URL(fileURLWithPath: old.file.path))

        let directory = try freshDirectory("crash-safety")
        let start = Date()
        #expect(try Fixtures.run(["import", input, "-o", directory.appendingPathComponent("full.navgraph").path, "--quiet"]).status == 0)
        let full = Date().timeIntervalSince(start)
        let fullEdges = try RoutingGraph(path: directory.appendingPathComponent("full.navgraph").path).edgeCount
        #expect(fullEdges != oldEdges)

        var generator = SeededGenerator(seed: 17)
        var killedCount = 0, replacedCount = 0
        for round in 0..<16 {
            let roundDirectory = try freshDirectory("crash-safety/\(round)")
            let output = roundDirectory.appendingPathComponent("monaco.navgraph").path
            let replacing = round % 2 == 1
            if replacing { try oldBytes.write(to: URL(fileURLWithPath: output)) }
            // Most kills land inside the import, the last ones near its end (the write and rename).
            let delay = round < 12 ? Double.random(in: 0.0...(full * 1.05), using: &generator) : full * Double.random(in: 0.85...1.1, using: &generator)
            if try importKilled(after: delay, input: input, output: output) { killedCount += 1 }
            let names = try FileManager.default.contentsOfDirectory(atPath: roundDirectory.path)
            #expect(names.allSatisfy { $0 == "monaco.navgraph" }, "round \(round) (kill after \(delay) s) left \(names)")
            if FileManager.default.fileExists(atPath: output) {
                let graph = try RoutingGraph(path: output)
                #expect(graph.edgeCount == fullEdges || (replacing && graph.edgeCount == oldEdges), "round \(round): a graph of \(graph.edgeCount) edges")
                if graph.edgeCount == fullEdges && replacing { replacedCount += 1 }
            } else {
                #expect(!replacing, "round \(round): the old graph vanished")
            }
        }
        #expect(killedCount >= 8, "only \(killedCount) of 16 imports were killed before finishing (import takes \(full) s)")
    }

    @Test func unwritableDestinationsAreNamed() throws {
        let input = Fixtures.packageRoot.appendingPathComponent("Data/monaco.osm.pbf").path
        for output in ["/nonexistent-folder/monaco.navgraph", "/proc/self/monaco.navgraph"] {
            let result = try Fixtures.run(["import", input, "-o", output, "--quiet"])
            #expect(result.status == 2, "\(output): exit \(result.status)")
            #expect(result.stderr.contains("\(output): cannot create the output file (No such file or directory)"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
        // A read-only folder; root writes there anyway, so as root the import runs as user nobody (runuser).
        let readOnly = try freshDirectory("read-only")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: readOnly.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: readOnly.path) }
        let output = readOnly.appendingPathComponent("monaco.navgraph").path
        var command = [Fixtures.executable.path, "import", input, "-o", output, "--quiet"]
        if geteuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") else { return }
            // nobody may not reach the checkout (a clone inside `mktemp -d` is 0700): binary and input are copied
            // to a folder anyone can read.
            let reachable = try freshDirectory("for-nobody")
            let binary = reachable.appendingPathComponent("navgraph"), copiedInput = reachable.appendingPathComponent("monaco.osm.pbf")
            try FileManager.default.copyItem(at: Fixtures.executable, to: binary)
            try FileManager.default.copyItem(atPath: input, toPath: copiedInput.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: reachable.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copiedInput.path)
            command = ["/usr/sbin/runuser", "-u", "nobody", "--", binary.path, "import", copiedInput.path, "-o", output, "--quiet"]
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2, "\(stderr)")
        #expect(stderr.contains("\(output): cannot create the output file (Permission denied)"), "\(stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: readOnly.path).isEmpty)
        let trafficCSV = Fixtures.workDirectory.appendingPathComponent("unwritable-traffic.csv").path
        try "2,3,40\n".write(toFile: trafficCSV, atomically: true, encoding: .utf8)
        _ = try CraftedOSM.testTown(restriction: nil).importGraph(named: "unwritable-town")
        let graph = Fixtures.workDirectory.appendingPathComponent("unwritable-town.navgraph").path
        let traffic = try Fixtures.run(["traffic", graph, trafficCSV, "-o", "/nonexistent-folder/town.traffic"])
        #expect(traffic.status == 2 && traffic.stderr.contains("/nonexistent-folder/town.traffic: cannot create the output file"), "\(traffic.stderr)")
    }
}
