import Foundation
import NavGraphCore

/// A peer benchmark's output file (`Benchmarks/work/results/<engine>-<extract>.json[.gz]` on branch `peers`).
public struct PeerResults: Decodable {
    public var engine: String
    public var version: String?
    public var runs: [PeerRun]

    /// Reads a JSON file, gunzipping it first (with the system's gzip) if the name ends in `.gz`.
    public static func load(path: String) throws -> PeerResults {
        guard FileManager.default.isReadableFile(atPath: path) else { throw NavGraphError("\(path): cannot read") }
        var data: Data
        if path.hasSuffix(".gz") {
            let process = Process(), pipe = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["gzip", "-dc", path]
            process.standardOutput = pipe
            try process.run()
            data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw NavGraphError("\(path): gzip -dc failed") }
        } else {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        do { return try JSONDecoder().decode(PeerResults.self, from: data) } catch {
            throw NavGraphError("\(path): not a peer results file (\(error))")
        }
    }

    /// The alternatives runs, one per algorithm (in-process mode preferred; other modes return the same routes).
    public var alternativeRuns: [PeerRun] {
        var byAlgorithm: [String: PeerRun] = [:], order: [String] = []
        for run in runs where run.alternatives > 0 && run.queries != nil {
            if byAlgorithm[run.algorithm] == nil { order.append(run.algorithm) }
            if byAlgorithm[run.algorithm] == nil || run.mode == "inproc" { byAlgorithm[run.algorithm] = run }
        }
        return order.compactMap { byAlgorithm[$0] }
    }
}

/// One pass of a peer benchmark; the queries are decoded only when alternatives were asked for.
public struct PeerRun: Decodable {
    public var algorithm: String
    public var mode: String
    public var alternatives: Int
    public var queries: [PeerQuery]?

    enum CodingKeys: String, CodingKey { case algorithm, mode, alternatives, queries }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        algorithm = try container.decode(String.self, forKey: .algorithm)
        mode = try container.decode(String.self, forKey: .mode)
        alternatives = try container.decodeIfPresent(Int.self, forKey: .alternatives) ?? 0
        queries = alternatives > 0 ? try container.decodeIfPresent([PeerQuery].self, forKey: .queries) : nil
    }
}

/// One query of a run: the pair index and the returned routes, primary first.
public struct PeerQuery: Decodable {
    public var i: Int
    public var code: String?
    public var routes: [PeerRoute]?
}

/// One returned route: its geometry as [lon, lat] points, with the engine's own duration and distance.
public struct PeerRoute: Decodable {
    public var geometry: [LonLat]
    public var duration_s: Double?
    public var distance_m: Double?
}

/// A [lon, lat] pair decoded without an intermediate array.
public struct LonLat: Decodable {
    public var coordinate: Coordinate

    public init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let lon = try container.decode(Double.self), lat = try container.decode(Double.self)
        coordinate = Coordinate(lat: lat, lon: lon)
    }
}
