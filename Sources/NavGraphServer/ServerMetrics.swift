import Foundation
import NavGraphCore

/// Request counters and latency histograms per endpoint, rendered in the Prometheus text format.
/// Lifetime: one per service. Thread safety: all state is behind a lock.
public final class ServerMetrics: @unchecked Sendable {
    /// Upper bounds of the latency buckets, in seconds.
    package static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Histogram {
        package var counts = [Int](repeating: 0, count: ServerMetrics.buckets.count)
        package var sum = 0.0
        package var count = 0
    }

    private let lock = NSLock()
    private var requests: [String: [Int: Int]] = [:]
    private var latency: [String: Histogram] = [:]

    public init() {}

    package func record(endpoint: String, status: Int, seconds: Double) {
        lock.withLock {
            requests[endpoint, default: [:]][status, default: 0] += 1
            var histogram = latency[endpoint] ?? Histogram()
            for (index, bound) in Self.buckets.enumerated() where seconds <= bound { histogram.counts[index] += 1 }
            histogram.sum += seconds
            histogram.count += 1
            latency[endpoint] = histogram
        }
    }

    /// Requests answered so far with this endpoint and status.
    public func count(endpoint: String, status: Int) -> Int {
        lock.withLock { requests[endpoint]?[status] ?? 0 }
    }

    /// The Prometheus exposition text, plus gauges supplied by the caller.
    package func text(gauges: [(name: String, help: String, value: Double)]) -> String {
        lock.withLock {
            var out = "# HELP navgraph_requests_total HTTP requests answered, by endpoint and status.\n# TYPE navgraph_requests_total counter\n"
            for endpoint in requests.keys.sorted() {
                for (status, count) in (requests[endpoint] ?? [:]).sorted(by: { $0.key < $1.key }) {
                    out += "navgraph_requests_total{endpoint=\"\(endpoint)\",status=\"\(status)\"} \(count)\n"
                }
            }
            out += "# HELP navgraph_request_duration_seconds Time to answer a request, by endpoint.\n# TYPE navgraph_request_duration_seconds histogram\n"
            for endpoint in latency.keys.sorted() {
                guard let histogram = latency[endpoint] else { continue }
                for (index, bound) in Self.buckets.enumerated() {
                    out += "navgraph_request_duration_seconds_bucket{endpoint=\"\(endpoint)\",le=\"\(bound)\"} \(histogram.counts[index])\n"
                }
                out += "navgraph_request_duration_seconds_bucket{endpoint=\"\(endpoint)\",le=\"+Inf\"} \(histogram.count)\n"
                out += "navgraph_request_duration_seconds_sum{endpoint=\"\(endpoint)\"} \(histogram.sum)\n"
                out += "navgraph_request_duration_seconds_count{endpoint=\"\(endpoint)\"} \(histogram.count)\n"
            }
            for gauge in gauges {
                out += "# HELP \(gauge.name) \(gauge.help)\n# TYPE \(gauge.name) gauge\n\(gauge.name) \(gauge.value)\n"
            }
            return out
        }
    }
}
