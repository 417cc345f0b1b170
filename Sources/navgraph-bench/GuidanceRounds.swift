import Foundation
import NavGraphCore
import NavGraphImport

/// What guidance costs, measured fairly: in each round every pair is routed plain and plain + steps back to back in
/// one process (after one warm-up round of each, so the step builder's junction caches are filled as in a
/// long-running server), each round's p50 ratio is kept, and the median ratio is reported. `--guidance-rounds N` selects this mode.
struct GuidanceRounds: Codable {
    var graph: String
    var rounds: Int
    var plainP50: [Double]
    var stepsP50: [Double]
    var ratios: [Double]
    var medianRatio: Double
    var meanRouteEdges: Double
    /// Whether the warm-up routed other pairs than the measured ones (`--warm-up other`), so the measured routes
    /// meet only what earlier, different routes left in the step builder's caches.
    var warmUpOnOtherPairs: Bool
    /// Whether the two queries run back to back are on the same pair (`--back-to-back same`, the default so far) or
    /// on two different pairs (`other`): a repeated pair finds its own search space in the CPU cache, which no
    /// stream of distinct requests does.
    var backToBackSamePair: Bool
    /// 1-minute load average before the first and after the last round (Linux), for the record.
    var loadBefore: Double?
    var loadAfter: Double?

    /// One round: each pair is routed plain and with steps back to back (which goes first alternates from pair to
    /// pair and from round to round), so that a slow spell of the shared machine falls on both kinds alike.
    /// With `samePair` false, the query after pair i's first one is on pair i + n/2 instead of pair i itself, so
    /// both kinds still route every pair once per round but never one that was just routed.
    static func interleaved(round: Int, router: Router, pairs: [(Coordinate, Coordinate)], options: RouteOptions,
                            samePair: Bool = true) -> (plainP50: Double, stepsP50: Double, meanEdges: Double) {
        var plainTimes: [Double] = [], stepsTimes: [Double] = []
        plainTimes.reserveCapacity(pairs.count)
        stepsTimes.reserveCapacity(pairs.count)
        var edges = 0
        for index in pairs.indices {
            let order: [Bool] = (index + round) % 2 == 0 ? [false, true] : [true, false]
            for (turn, steps) in order.enumerated() {
                let pair = turn == 0 || samePair ? pairs[index] : pairs[(index + pairs.count / 2) % pairs.count]
                let begin = now()
                guard var response = try? router.route([pair.0, pair.1], options: options) else { break }
                if steps { router.addSteps(to: &response) }
                let elapsed = (now() - begin) * 1000
                // Both kinds free their response after the clock stops (the optimizer could free an unused one sooner).
                withExtendedLifetime(response) {
                    if steps { stepsTimes.append(elapsed) } else {
                        plainTimes.append(elapsed)
                        edges += response.routes[0].legs.reduce(0) { $0 + $1.directedEdges.count }
                    }
                }
            }
        }
        func median(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.sorted()[values.count / 2] }
        return (median(plainTimes), median(stepsTimes), Double(edges) / Double(max(plainTimes.count, 1)))
    }

    static func loadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Double($0) }
    }

    static func run(graphPath: String, router: Router, pairs: [(Coordinate, Coordinate)], rounds: Int,
                    nameLanguage: String? = nil, warmUpOnOtherPairs: Bool = false, backToBackSamePair: Bool = true) -> GuidanceRounds {
        var plain = RouteOptions()
        plain.radius = 2000
        plain.nameLanguage = nameLanguage
        let loadBefore = loadAverage()
        // Other routes over the same area: each source with the target of a pair far down the list.
        let warmPairs = warmUpOnOtherPairs && pairs.count > 1
            ? pairs.indices.map { (pairs[$0].0, pairs[($0 + pairs.count / 2 + 1) % pairs.count].1) } : pairs
        _ = measure("warm-up plain", router: router, pairs: warmPairs, options: plain)
        _ = measure("warm-up plain + steps", router: router, pairs: warmPairs, options: plain, steps: true)
        var plainP50: [Double] = [], stepsP50: [Double] = [], ratios: [Double] = []
        var edges = 0.0
        for round in 1...max(1, rounds) {
            let result = interleaved(round: round, router: router, pairs: pairs, options: plain, samePair: backToBackSamePair)
            let ratio = result.stepsP50 / max(result.plainP50, 1e-9)
            plainP50.append(result.plainP50)
            stepsP50.append(result.stepsP50)
            ratios.append(ratio)
            edges = result.meanEdges
            log(String(format: "round %d: plain p50 %.3f ms, plain + steps p50 %.3f ms, ratio %.2f", round, result.plainP50, result.stepsP50, ratio))
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
                              medianRatio: median, meanRouteEdges: edges, warmUpOnOtherPairs: warmUpOnOtherPairs,
                              backToBackSamePair: backToBackSamePair, loadBefore: loadBefore, loadAfter: loadAverage())
    }
}
