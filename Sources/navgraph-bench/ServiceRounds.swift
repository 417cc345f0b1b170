import Foundation
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// `--service-rounds N`: whole requests through `RoutingService.handle` (parsing, routing, steps, instruction text,
/// JSON), socket excepted, for each request kind of `Benchmarks/server_sdk_bench.sh`, interleaved kind by kind
/// within each round so that machine noise falls on all kinds alike.
enum ServiceRounds {
    /// The request kinds: what a navigation SDK asks for, OSRM's closest request, and a plain route.
    static let kinds: [(label: String, path: String, query: String)] = [
        ("mapbox-sdk", "/directions/v5/mapbox/driving-traffic/",
         "alternatives=false&continue_straight=true&geometries=polyline6&overview=full&steps=true&language=en&voice_instructions=true"
            + "&voice_units=metric&banner_instructions=true&annotations=distance,duration,speed,congestion,maxspeed&access_token=pk.bench"),
        ("osrm-steps", "/route/v1/driving/", "steps=true&annotations=duration,distance,speed"),
        ("plain-full", "/route/v1/driving/", "overview=full&geometries=polyline6"),
    ]

    /// Per-kind latency percentiles (ms) and mean response bytes.
    struct Result: Codable {
        var label: String
        var requests: Int
        var failed: Int
        var p50: Double
        var p99: Double
        var mean: Double
        var meanBytes: Double
    }

    static func run(service: RoutingService, pairs: [(Coordinate, Coordinate)], rounds: Int) -> [Result] {
        var latencies = [[Double]](repeating: [], count: kinds.count)
        var bytes = [Int](repeating: 0, count: kinds.count), failed = [Int](repeating: 0, count: kinds.count)
        for round in 0..<rounds {
            for (index, kind) in kinds.enumerated() {
                for (source, target) in pairs {
                    let coordinates = String(format: "%.6f,%.6f;%.6f,%.6f", source.lon, source.lat, target.lon, target.lat)
                    let request = HTTPRequest(method: "GET", target: kind.path + coordinates + "?" + kind.query)
                    let start = DispatchTime.now().uptimeNanoseconds
                    let response = service.handle(request)
                    latencies[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                    bytes[index] += response.body.count
                    if response.status != 200 { failed[index] += 1 }
                }
            }
            FileHandle.standardError.write(Data("service rounds: round \(round + 1)/\(rounds) done\n".utf8))
        }
        return kinds.indices.map { index in
            let sorted = latencies[index].sorted()
            func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
            return Result(label: kinds[index].label, requests: sorted.count, failed: failed[index], p50: percentile(0.5), p99: percentile(0.99),
                          mean: sorted.reduce(0, +) / Double(max(1, sorted.count)), meanBytes: Double(bytes[index]) / Double(max(1, sorted.count)))
        }
    }
}
