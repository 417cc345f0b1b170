import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Every crash input the fuzzers found (Tools/fuzz/regressions/TARGET) replayed through the same calls.
@Suite struct CraftedFuzzRegressionTests {
    static let directory = Fixtures.packageRoot.appendingPathComponent("Tools/fuzz/regressions")

    static func inputs(_ target: String) -> [String] {
        let folder = directory.appendingPathComponent(target).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { folder + "/" + $0 }
    }

    /// descending-grid-offsets: trapped the snapper, now refused on load. infinite-duration-behind-crc: travel
    /// times tampered behind the checksums; the checked load refuses it, the unchecked one routes without a memory error.
    /// descending-first-up-in-parallel-scan: the load scans, once run in parallel, walked hierarchy offsets before the
    /// scan that checks them had refused the file; each scan now checks what it walks.
    @Test func graphFiles() throws {
        let inputs = Self.inputs("graph-file")
        #expect(inputs.count >= 2)
        for path in inputs {
            #expect(throws: NavGraphError.self, "\(path) loads with checksums on") { try RoutingGraph(path: path) }
            guard let graph = try? RoutingGraph(path: path, verifyChecksums: false) else { continue }
            let box = graph.metadata.bbox
            _ = GraphSummary(graph: graph).text
            _ = try? Router(graph: graph).route([Coordinate(lat: box.minLat, lon: box.minLon), Coordinate(lat: box.maxLat, lon: box.maxLon)])
        }
    }

    /// The graph-file fuzzer starts from these seeds; a seed of an older format stops at the version check and the
    /// fuzzer explores nothing behind it (this happened: a version-2 seed under a version-4 reader). Regenerate with
    /// Tools/fuzz/make_seeds.py after a format change.
    @Test func graphFileSeedsAreOfTheCurrentFormat() throws {
        let folder = Fixtures.packageRoot.appendingPathComponent("Tools/fuzz/corpus/graph-file").path
        let seeds = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(!seeds.isEmpty)
        for seed in seeds {
            let graph = try RoutingGraph(path: folder + "/" + seed)
            let box = graph.metadata.bbox
            let route = try Router(graph: graph).route([Coordinate(lat: box.minLat, lon: box.minLon), Coordinate(lat: box.maxLat, lon: box.maxLon)])
            #expect(route.routes.first.map { $0.distance > 0 } == true, "seed \(seed)")
        }
    }

    /// Threads of this process with the given name (/proc/self/task/*/comm).
    static func threads(named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == name
        }.count
    }

    /// Found by fuzzing osm-pbf: libosmium 2.19's reader never closes a PBF input's descriptor, so every import
    /// leaked two (one per pass) and the fuzzer ran out of descriptors after about 13,000 imports. After good and
    /// broken imports, no descriptor of this process is left on the input.
    @Test func importsCloseTheirInput() throws {
        let seed = Self.directory.deletingLastPathComponent().appendingPathComponent("corpus/osm-pbf/town.osm.pbf")
        let input = Fixtures.workDirectory.appendingPathComponent("descriptor-check.osm.pbf").path
        let output = Fixtures.workDirectory.appendingPathComponent("descriptor-check.navgraph").path
        let bytes = try Data(contentsOf: seed)
        let log = ProgressLog(quiet: true)
        func openOnInput() -> Int {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return fds.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)"))?.hasPrefix(input) == true }.count
        }
        for round in 0..<4 {
            // Whole, then cut short (libosmium fails part way through the blocks).
            try (round % 2 == 0 ? bytes : bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: input))
            _ = try? Importer.run(input: input, output: output, log: log)
            #expect(openOnInput() == 0, "round \(round): \(openOnInput()) descriptors left open on the input")
        }
    }

    /// Found by fuzzing osm-pbf: an import that failed inside a phase left that phase's memory sampler thread
    /// polling /proc every 20 ms forever; after some hundred broken PBFs the fuzzer had 540 threads and the machine
    /// a load of 240. Failed phases and failed imports now stop their sampler.
    @Test func failedImportPhasesStopTheirSamplerThreads() throws {
        #expect(FileManager.default.fileExists(atPath: "/proc/self/task"))
        struct Broken: Error {}
        let log = ProgressLog(quiet: true)
        let broken = Fixtures.workDirectory.appendingPathComponent("broken-sampler.osm.pbf").path
        try Data("not a PBF at all".utf8).write(to: URL(fileURLWithPath: broken))
        // The sampler is visible by its name while a phase runs (so counting them below means something).
        let during = log.phase("counting") { () -> (Int, String) in
            var count = 0
            for _ in 0..<100 where count == 0 { count = Self.threads(named: "navgraph-rss"); if count == 0 { usleep(10_000) } }
            return (count, "")
        }
        #expect(during >= 1)
        for round in 0..<20 {
            #expect(throws: Broken.self) { try log.phase("failing \(round)") { () throws -> (Int, String) in throw Broken() } }
            #expect(throws: NavGraphError.self) {
                try Importer.run(input: broken, output: Fixtures.workDirectory.appendingPathComponent("broken-sampler.navgraph").path, log: log)
            }
        }
        // A sampler notices its stop within one 20 ms poll; other tests' imports may have one each running now.
        usleep(100_000)
        let samplers = Self.threads(named: "navgraph-rss")
        #expect(samplers < 8, "\(samplers) memory sampler threads alive after 40 failed phases")
    }

    /// The finding behind descending-grid-offsets, rebuilt on a graph of the current format (the stored inputs are of
    /// an older version and now stop at the version check): grid offsets that descend are refused on an unchecked load.
    @Test func descendingGridOffsetsAreRefused() throws {
        // The bundled extract, so that this checked-tier test needs no shared data.
        let source = Fixtures.workDirectory.appendingPathComponent("bundled-monaco.navgraph").path
        try Importer.run(input: Fixtures.packageRoot.appendingPathComponent("Data/monaco.osm.pbf").path, output: source,
                         log: ProgressLog(quiet: true))
        let path = Fixtures.workDirectory.appendingPathComponent("descending-grid.navgraph").path
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        func integer(at offset: Int, size: Int) -> Int {
            (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        let sectionCount = integer(at: 12, size: 4)
        var found = false
        for index in 0..<sectionCount {
            let entry = GraphFileFormat.headerSize + index * GraphFileFormat.entrySize
            let name = String(decoding: bytes[entry..<(entry + GraphFileFormat.nameLength)].prefix { $0 != 0 }, as: UTF8.self)
            guard name == "grid.first" else { continue }
            let offset = integer(at: entry + 24, size: 8), length = integer(at: entry + 32, size: 8)
            #expect(length >= 8)
            // The first offset above the second: the cell would run backwards.
            bytes[offset] = 0xFF; bytes[offset + 1] = 0xFF
            found = true
        }
        #expect(found, "no grid.first section in \(source)")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: NavGraphError.self) { try RoutingGraph(path: path, verifyChecksums: false) }
        #expect(error?.message.contains("inconsistent") == true, "\(error?.message ?? "")")
    }
}
