import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Locates the shared real extracts and imports each at most once per test run.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let dataDirectory: URL = {
        if let override = ProcessInfo.processInfo.environment["NAVGRAPH_DATA"] { return URL(fileURLWithPath: override) }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()
    static let extracts = ["kotka", "helgoland", "helsinki", "baltimore", "monaco", "andorra", "isle-of-man", "porto", "malta", "milan"]
    static let workDirectory: URL = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("navgraph-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }()

    private static let lock = NSLock()
    nonisolated(unsafe) private static var graphs: [String: RoutingGraph] = [:]
    nonisolated(unsafe) private static var importLocks: [String: NSLock] = [:]

    static func pbf(_ name: String) -> String { dataDirectory.appendingPathComponent("\(name).osm.pbf").path }

    /// The graph of a shared extract, imported on first use.
    static func graph(_ name: String) throws -> RoutingGraph {
        lock.lock()
        if let graph = graphs[name] { lock.unlock(); return graph }
        let importLock = importLocks[name] ?? NSLock()
        importLocks[name] = importLock
        lock.unlock()
        importLock.lock()
        defer { importLock.unlock() }
        lock.lock()
        if let graph = graphs[name] { lock.unlock(); return graph }
        lock.unlock()
        let output = workDirectory.appendingPathComponent("\(name).navgraph").path
        try Importer.run(input: pbf(name), output: output, log: ProgressLog(quiet: true))
        let graph = try RoutingGraph(path: output)
        lock.lock()
        graphs[name] = graph
        lock.unlock()
        return graph
    }

    /// A point in the middle of an edge's shape (a shape point, or halfway along a single segment).
    static func midpoint(of edge: Int, in graph: RoutingGraph) -> Coordinate {
        let first = Int(graph.edgeShapeFirst[edge]), end = Int(graph.edgeShapeFirst[edge + 1])
        let a = graph.coordinate(shapePoint: first), b = graph.coordinate(shapePoint: end - 1)
        return (end - first) > 2 ? graph.coordinate(shapePoint: (first + end) / 2) : Coordinate(lat: (a.lat + b.lat) / 2, lon: (a.lon + b.lon) / 2)
    }

    /// Path of the navgraph executable built next to the test bundle.
    static var executable: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("navgraph")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/release/navgraph")
    }

    /// Runs the CLI and returns exit status, stdout and stderr.
    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdoutData, as: UTF8.self), String(decoding: stderrData, as: UTF8.self))
    }
}

/// A small deterministic random generator (SplitMix64), so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random points on routable roads of a graph, slightly off the road, for snapping.
func randomRoadPoints(_ graph: RoutingGraph, count: Int, seed: UInt64) -> [Coordinate] {
    var generator = SeededGenerator(seed: seed)
    var points: [Coordinate] = []
    while points.count < count {
        let edge = Int.random(in: 0..<graph.edgeCount, using: &generator)
        guard graph.routingNodeOfEdge[2 * edge] >= 0 || graph.routingNodeOfEdge[2 * edge + 1] >= 0 else { continue }
        let first = Int(graph.edgeShapeFirst[edge]), last = Int(graph.edgeShapeFirst[edge + 1]) - 1
        let index = Int.random(in: first..<last, using: &generator)
        let a = graph.coordinate(shapePoint: index), b = graph.coordinate(shapePoint: index + 1)
        let t = Double.random(in: 0...1, using: &generator)
        let jitter = 0.0001
        points.append(Coordinate(lat: a.lat + (b.lat - a.lat) * t + Double.random(in: -jitter...jitter, using: &generator),
                                 lon: a.lon + (b.lon - a.lon) * t + Double.random(in: -jitter...jitter, using: &generator)))
    }
    return points
}
