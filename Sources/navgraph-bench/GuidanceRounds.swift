import Foundation
import NavGraph

/// What guidance costs, measured fairly: plain and plain + steps rounds alternate in one process over the same pairs
/// (after one warm-up round of each, so the step builder's junction cache is filled as in a long-running server),
/// each round's p50 ratio is kept, and the median ratio is reported. `--guidance-rounds N` selects this mode.
struct GuidanceRounds: Codable {
    var graph: String
    var rounds: Int
    var plainP50: [Double]
    var stepsP50: [Double]
    var ratios: [Double]
    var medianRatio: Double
    var meanRouteEdges: Double
    /// 1-minute load average before the first and after the last round (Linux), for the record.
    var loadBefore: Double?
    var loadAfter: Double?

    static func loadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Double($0) }
    }

    static func run(graphPath: String, router: Router, pairs: [(Coordinate, Coordinate)], rounds: Int,
                    nameLanguage: String? = nil) -> GuidanceRounds {
        var plain = RouteOptions()
        plain.radius = 2000
        plain.nameLanguage = nameLanguage
        let loadBefore = loadAverage()
        _ = measure("warm-up plain", router: router, pairs: pairs, options: plain)
        _ = measure("warm-up plain + steps", router: router, pairs: pairs, options: plain, steps: true)
        var plainP50: [Double] = [], stepsP50: [Double] = [], ratios: [Double] = []
        var edges = 0.0
        for round in 1...max(1, rounds) {
            // Alternate which goes first, so neither always follows the other.
            let plainFirst = round % 2 == 1
            var a = measure("round \(round) " + (plainFirst ? "plain" : "plain + steps"), router: router, pairs: pairs, options: plain,
                            steps: !plainFirst)
            var b = measure("round \(round) " + (plainFirst ? "plain + steps" : "plain"), router: router, pairs: pairs, options: plain,
                            steps: plainFirst)
            if !plainFirst { swap(&a, &b) }
            plainP50.append(a.p50)
            stepsP50.append(b.p50)
            ratios.append(b.p50 / max(a.p50, 1e-9))
            edges = a.meanRouteEdges ?? 0
        }
        // Where steps cost most: the step part alone per pair (diagnostic, stderr).
        // The route part is timed too: when it is slower than the plain rounds' p50, steps evict what routing keeps in cache.
        var slowest: [(Double, Int, Int, Int)] = []
        var routeParts: [Double] = []
        for (index, pair) in pairs.enumerated() {
            let routeBegin = now()
            guard var response = try? router.route([pair.0, pair.1], options: plain) else { continue }
            let begin = now()
            routeParts.append((begin - routeBegin) * 1000)
            router.addSteps(to: &response)
            let steps = response.routes[0].legs.reduce(0) { $0 + $1.steps.count }
            slowest.append(((now() - begin) * 1000, index, response.routes[0].legs.reduce(0) { $0 + $1.directedEdges.count }, steps))
        }
        slowest.sort { $0.0 > $1.0 }
        let stepTimes = slowest.map(\.0).sorted()
        routeParts.sort()
        log(String(format: "route part beside steps: p50 %.3f ms", routeParts.isEmpty ? 0 : routeParts[routeParts.count / 2]))
        log(String(format: "steps alone: p50 %.3f ms, p95 %.3f ms; slowest: ", stepTimes.isEmpty ? 0 : stepTimes[stepTimes.count / 2],
                   stepTimes.isEmpty ? 0 : stepTimes[stepTimes.count * 95 / 100])
            + slowest.prefix(5).map { String(format: "pair %d %.3f ms (%d edges, %d steps)", $0.1 + 1, $0.0, $0.2, $0.3) }.joined(separator: ", "))
        let sorted = ratios.sorted()
        let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        log(String(format: "guidance rounds: ratios %@, median %.2fx", ratios.map { String(format: "%.2f", $0) }.joined(separator: " "), median))
        return GuidanceRounds(graph: graphPath, rounds: ratios.count, plainP50: plainP50, stepsP50: stepsP50, ratios: ratios,
                              medianRatio: median, meanRouteEdges: edges, loadBefore: loadBefore, loadAfter: loadAverage())
    }
}
