import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Writes that fail part-way, as on a full disk: the CLI runs with a file size limit (RLIMIT_FSIZE, SIGXFSZ ignored),
/// so write() stops at the limit and then fails with EFBIG, the way it fails with ENOSPC when the disk fills. Every
/// output (graph, GeoJSON, style, matrix, isochrone) must fail with a message naming the file, how far the write got
/// and the system's reason, exit non-zero, and leave nothing at the path (or the old file there untouched).
@Suite struct CraftedWriteFailureTests {
    /// The crafted plus-shaped town (see CraftedOSM.testTown), imported once.
    static let town: String = {
        let name = "write-failure-town"
        _ = try? CraftedOSM.testTown(restriction: nil).importGraph(named: name)
        return Fixtures.workDirectory.appendingPathComponent("\(name).navgraph").path
    }()

    /// An empty directory for one case's outputs.
    func freshDirectory(_ name: String) throws -> URL {
        let directory = Fixtures.workDirectory.appendingPathComponent("write-failure/\(name)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Runs navgraph with files limited to `bytes` bytes; SIGXFSZ is ignored (by the shell, inherited through exec),
    /// so the write that crosses the limit returns short and the next one fails with EFBIG instead of killing the process.
    func runLimited(bytes: Int, _ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "trap '' XFSZ; exec prlimit --fsize=\(bytes) -- \"$@\"", "sh", Fixtures.executable.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stderr)
    }

    /// One output of each writer: the arguments (OUT stands for the output path) and a limit below its size.
    static let cases: [(name: String, file: String, limit: Int, arguments: [String])] = [
        ("import", "town.navgraph", 4096, ["import", "IN.osm", "-o", "OUT", "--quiet"]),
        ("route-geojson", "route.geojson", 300, ["route", "GRAPH", "45.0,6.998", "45.002,7.0", "-o", "OUT"]),
        ("route-directions", "route.json", 300, ["route", "GRAPH", "45.0,6.998", "45.002,7.0", "--format", "directions", "-o", "OUT"]),
        ("route-style", "style.json", 300, ["route", "GRAPH", "45.0,6.998", "45.002,7.0", "--style", "OUT"]),
        ("matrix", "matrix.json", 100, ["matrix", "GRAPH", "POINTS", "-o", "OUT", "--quiet"]),
        ("isochrone", "iso.geojson", 300, ["isochrone", "GRAPH", "45.0,7.0", "--minutes", "1", "-o", "OUT"]),
    ]

    @Test(arguments: cases.indices) func aWriteCutShortNamesTheFileAndLeavesNothing(index: Int) throws {
        let (name, file, limit, template) = Self.cases[index]
        let directory = try freshDirectory(name)
        let output = directory.appendingPathComponent(file).path
        let points = directory.appendingPathComponent("points.csv").path
        try "lon,lat\n6.998,45.0\n7.002,45.0\n7.0,45.002\n".write(toFile: points, atomically: true, encoding: .utf8)
        let osm = Fixtures.workDirectory.appendingPathComponent("write-failure-town.osm").path
        let arguments = template.map { ["OUT": output, "GRAPH": Self.town, "POINTS": points, "IN.osm": osm][$0] ?? $0 }

        // Unlimited, the command works and writes more than the limit (so the limited run fails part-way).
        let complete = try runLimited(bytes: 1 << 30, arguments)
        #expect(complete.status == 0, "\(name): \(complete.stderr)")
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        #expect(size > limit, "\(name): the complete output has \(size) bytes, not more than the limit \(limit)")
        try FileManager.default.removeItem(atPath: output)

        let cut = try runLimited(bytes: limit, arguments)
        #expect(cut.status != 0, "\(name): exit status 0 with a \(limit)-byte file limit")
        #expect(cut.stderr.contains("\(output): writing failed after \(limit) bytes (File too large)"), "\(name): \(cut.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output), "\(name): a partial file was left at \(output)")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "points.csv" }
        #expect(left.isEmpty, "\(name): left \(left)")
    }

    /// The metrics are customized in place in the graph file (mapped rooms whose blocks are allocated first; only the
    /// motor road set here, so that nothing else is written meanwhile):
    /// when the room cannot be allocated, the import fails with the file, the bytes written and the reason, before
    /// anything is written through the mapping, and leaves nothing behind.
    @Test func aMetricRoomThatCannotBeAllocatedFailsCleanly() throws {
        let directory = try freshDirectory("metric-room")
        let output = directory.appendingPathComponent("town.navgraph").path
        let osm = Fixtures.workDirectory.appendingPathComponent("write-failure-town.osm").path
        _ = Self.town  // writes the town's OSM file
        let complete = try runLimited(bytes: 1 << 30, ["import", osm, "-o", output, "--road-sets", "motor", "--quiet"])
        #expect(complete.status == 0, "\(complete.stderr)")
        let file = try MappedGraphFile(path: output)
        let metric = try #require(file.sections[Section.metricForward], "no \(Section.metricForward) in \(file.sections.keys.sorted())")
        try FileManager.default.removeItem(atPath: output)

        let limit = metric.offset + metric.length / 2
        let cut = try runLimited(bytes: limit, ["import", osm, "-o", output, "--road-sets", "motor", "--quiet"])
        #expect(cut.status != 0)
        #expect(cut.stderr.contains("\(output): writing failed after "), "\(cut.stderr)")
        #expect(cut.stderr.contains("could not be allocated: File too large)"), "\(cut.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// A real extract's large sections are written around the page cache (DirectAppender): a file size limit in the
    /// middle of one (not at a block boundary) fails the same way, naming the file, the bytes written and the reason,
    /// and leaves nothing behind. (The road sets write concurrently, so the limited run may stop in another section,
    /// or at a metric room; the message is then of the same form.)
    @Test func realImportCutShortInsideALargeSectionFailsCleanly() throws {
        let directory = try freshDirectory("large-section")
        let output = directory.appendingPathComponent("malta.navgraph").path
        let complete = try runLimited(bytes: 1 << 34, ["import", Fixtures.pbf("malta"), "-o", output, "--quiet"])
        #expect(complete.status == 0, "\(complete.stderr)")
        let file = try MappedGraphFile(path: output)
        let large = try #require(file.sections.values.filter { $0.length >= 2 << 20 }.max { $0.length < $1.length },
                                 "no section of 2 MB or more in malta's graph")
        try FileManager.default.removeItem(atPath: output)

        let limit = large.offset + large.length / 2 + 1001
        let cut = try runLimited(bytes: limit, ["import", Fixtures.pbf("malta"), "-o", output, "--quiet"])
        #expect(cut.status != 0)
        #expect(cut.stderr.contains("\(output): writing failed after \(limit) bytes (File too large)")
                || cut.stderr.contains("could not be allocated: File too large)"), "\(cut.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// A failed write over an existing file keeps the old file whole.
    @Test func aWriteCutShortKeepsTheOldFile() throws {
        let directory = try freshDirectory("replace")
        let output = directory.appendingPathComponent("route.geojson").path
        let old = Data("{\"old\": true}\n".utf8)
        try old.write(to: URL(fileURLWithPath: output))
        let cut = try runLimited(bytes: 200, ["route", Self.town, "45.0,6.998", "45.002,7.0", "-o", output])
        #expect(cut.status != 0)
        #expect(cut.stderr.contains("\(output): writing failed after 200 bytes (File too large)"), "\(cut.stderr)")
        #expect(FileManager.default.contents(atPath: output) == old)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["route.geojson"])
    }
}
