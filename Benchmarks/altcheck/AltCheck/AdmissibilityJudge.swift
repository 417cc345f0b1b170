import NavGraphCore

/// The outcome for one returned alternative: unmatched, or which admissibility criteria it fails.
public struct Verdict: Sendable, Equatable {
    public var unmatched: MatchFailure?
    public var failsSharing = false
    public var failsStretch = false
    public var failsLocalOptimality = false
    /// Cost on navgraph's metric / navgraph's optimum, when matched.
    public var stretch: Double?

    public var passes: Bool { unmatched == nil && !failsSharing && !failsStretch && !failsLocalOptimality }
}

/// Judges any engine's alternatives by navgraph's admissibility criteria (`AlternativeOptions`: γ sharing,
/// duration-scaled ε stretch, α local optimality), all measured on navgraph's metric and relative to navgraph's
/// optimal cost, like `AlternativeRoutes` does. Sharing is with the engine's own primary and with its earlier
/// alternatives that passed, by full weight of the common directed edges (as `AdmissibilityCheck`). Local optimality
/// is checked exhaustively, as in the test checker: from every node, the longest window costing at most α·opt must
/// cost exactly its CCH distance.
public final class AdmissibilityJudge {
    let metric: RoutingMetric
    let options: AlternativeOptions
    let search: CCHSearch
    /// Not navgraph's criterion: a window may cost up to (1 + slack) × its shortest path and still pass. With slack
    /// only maximal windows are checked, so the relaxed test is approximate; with 0 (the default) it is exact.
    public let slack: Double
    private let graph: RoutingGraph

    public init(graph: RoutingGraph, metric: RoutingMetric, options: AlternativeOptions = AlternativeOptions(), slack: Double = 0) {
        self.metric = metric
        self.graph = graph
        self.options = options
        self.slack = slack
        search = CCHSearch(graph: graph)
    }

    /// Verdicts for an engine's routes in its order (primary first), given navgraph's optimum (ms) for the pair.
    /// The primary is judged too (stretch, local optimality; sharing does not apply), as a baseline for the metric.
    public func verdicts(_ routes: [Result<MatchedPath, MatchFailure>], optimum: Int?) -> [Verdict] {
        guard let optimum, optimum > 0 else { return routes.map { _ in Verdict(unmatched: .noOptimum) } }
        let sharingLimit = Int((options.maximumSharing * Double(optimum)).rounded(.down))
        let threshold = Int((options.localOptimality * Double(optimum)).rounded(.up))
        var accepted: [Set<Int>] = []
        return routes.enumerated().map { index, result in
            let path: MatchedPath
            switch result {
            case .failure(let failure): return Verdict(unmatched: failure)
            case .success(let matched): path = matched
            }
            if index > 0 && accepted.isEmpty { return Verdict(unmatched: .primary) }
            var verdict = Verdict(stretch: Double(path.cost) / Double(optimum))
            verdict.failsStretch = path.cost > options.maximumCost(shortest: optimum)
            verdict.failsSharing = accepted.contains { sharedWeight(path.nodes, $0) > sharingLimit }
            verdict.failsLocalOptimality = !isLocallyOptimal(path.nodes, threshold: threshold)
            if index == 0 || verdict.passes { accepted.append(Set(path.nodes)) }
            return verdict
        }
    }

    /// Weight (ms) of the nodes of `path` that lie in `other`.
    func sharedWeight(_ path: [Int], _ other: Set<Int>) -> Int {
        path.reduce(0) { $0 + (other.contains($1) ? Int(metric.nodeWeight[$1]) : 0) }
    }

    /// Whether every window of the path costing at most `threshold` (the nodes after its first one) is a shortest
    /// path. Only maximal windows are queried: a window inside one already checked is a subpath of a shortest path.
    public func isLocallyOptimal(_ nodes: [Int], threshold: Int) -> Bool {
        var prefix = [0]
        prefix.reserveCapacity(nodes.count)
        for (index, node) in nodes.enumerated() {
            let turn = index > 0 ? Int(metric.turnCost(graph, from: nodes[index - 1], to: node) ?? 0) : 0
            prefix.append(prefix[prefix.count - 1] + Int(metric.nodeWeight[node]) + turn)
        }
        // Window start..end costs prefix[end + 1] - prefix[start + 1].
        var end = 0, checkedEnd = 0
        for start in 0..<nodes.count {
            end = max(end, start)
            while end + 1 < nodes.count && prefix[end + 2] - prefix[start + 1] <= threshold { end += 1 }
            guard end > checkedEnd else { continue }
            checkedEnd = end
            let cost = prefix[end + 1] - prefix[start + 1]
            guard let (shortest, _) = search.distance(sources: [Endpoint(node: nodes[start], cost: 0)],
                                                      targets: [Endpoint(node: nodes[end], cost: 0)], metric: metric),
                  Double(cost) <= Double(shortest) * (1 + slack) else { return false }
        }
        return true
    }
}
