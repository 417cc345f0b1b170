import Foundation

/// Map matching by a hidden Markov model in the manner of Newson and Krumm (2009): candidates are directed road
/// positions near each point, emission is a Gaussian of the distance to the road, transition an exponential of |route
/// distance − great-circle distance| between consecutive points (with timestamps and a motor profile, plus the metres a
/// route would need beyond `MatchModel.speedTolerance` × the profile's speeds), and the Viterbi algorithm picks the
/// most likely sequence (within a beam, `MatchModel.beamWidth`). Route distances come from a length-bounded local
/// search per step (`TransitionSearch`) when the step's longest acceptable route is short, else from the hierarchy's
/// bounded bucket many-to-many table. An outlier fix does not end a path: a candidate with no possible transition stays
/// where it was while the fix lies within the search radius, and a fix that no candidate can reach is skipped (left
/// unmatched), as is the chain's last point when the fix can be reached without it. A second fix lying a little behind
/// the first on the road moves the chain's start back to it (nothing before the first fix says which of the two is
/// off), where a later such fix stands still. A trace splits into several matchings only at a time or distance gap, or
/// after `MatchModel.maximumSkippedPoints` skipped fixes in a row.
///
/// Lifetime: one per request (it holds the metric's bucket state and scratch arrays, reused for every step).
/// Thread safety: use from one thread at a time, with a router owned by that thread.
public final class MapMatcher {
    public let router: Router
    public let options: MatchOptions
    public let metric: RoutingMetric
    private let table: BucketManyToMany
    private let transitions: TransitionSearch
    private let finder: MatchCandidateFinder
    /// Segment lengths of the edges candidates lie on, measured once per request.
    private let lengths: SegmentLengthCache
    // Viterbi lattice, flat over all layers of the current chain: layer l's candidates are start[l]..<start[l + 1].
    // The object belongs to one thread, so its state skips dynamic exclusivity checks.
    @exclusivity(unchecked) private var snaps: [Snap] = []
    /// Each candidate's search starts, made once and used in the tables of both steps it takes part in.
    @exclusivity(unchecked) private var points: [MatrixPoint?] = []
    @exclusivity(unchecked) private var score: [Double] = []
    @exclusivity(unchecked) private var parent: [Int32] = []
    @exclusivity(unchecked) private var stepMetres: [Double] = []
    @exclusivity(unchecked) private var layerStart: [Int] = [0]
    @exclusivity(unchecked) private var layerPoint: [Int] = []
    /// The longest route accepted into each layer of the chain (0 for its first).
    @exclusivity(unchecked) private var layerLimit: [Double] = []
    /// The greatest distance of a layer's candidates from its fix: the radius of its local searches' `Goal`.
    @exclusivity(unchecked) private var layerReach: [Double] = []
    // Scratch.
    @exclusivity(unchecked) private var found: [Snap] = []
    @exclusivity(unchecked) private var foundPoints: [MatrixPoint?] = []
    @exclusivity(unchecked) private var nearest: [Snap] = []
    @exclusivity(unchecked) private var sources: [MatrixPoint?] = []
    private let planner: RoutePlanner
    /// Per candidate of the last layer: whether any transition from it to the new point's candidates is possible.
    @exclusivity(unchecked) private var continued: [Bool] = []
    /// Per candidate: a fix of the chain's second layer lying a little behind the first fix's candidate, which then
    /// moves back to it (the first fix, with nothing before it, is as likely the one that is off).
    @exclusivity(unchecked) private var pullsBack: [Bool] = []
    /// `MatchModel.speedTolerance` where it applies (a motor profile), else nil.
    private let speedTolerance: Double?

    public init(router: Router, options: MatchOptions = MatchOptions()) {
        self.router = router
        self.options = options
        metric = router.engine.metric(avoid: options.avoid, mode: .strict, traffic: options.traffic, vehicle: options.vehicle)
        table = BucketManyToMany(router: router, metric: metric, attributes: .distance)
        table.strategy = .buckets
        table.threads = 1
        transitions = TransitionSearch(graph: router.graph, metric: metric)
        finder = MatchCandidateFinder(graph: router.graph, snapper: router.snapper)
        lengths = SegmentLengthCache(graph: router.graph)
        planner = RoutePlanner(graph: router.graph, costs: router.costs)
        let tolerance = options.model.speedTolerance
        speedTolerance = tolerance > 0 && router.graph.profile.roadSet == .motor ? tolerance : nil
    }

    /// Steps whose longest acceptable route is at most this long (metres) search locally (`TransitionSearch`, a few
    /// roads around each candidate); longer ones use the hierarchy's bucket table, whose cost does not grow with length.
    static let localSearchMetres = 800.0

    /// The σ of a point: its own, else the model's default.
    private func sigma(_ point: TracePoint) -> Double { max(0.5, point.sigma ?? MatchModel.defaultSigma) }

    /// The input points that take part: all, or with `tidy` those not bunched within `tidyMetres` of the last kept one.
    func keptPoints(_ trace: [TracePoint]) -> [Int] {
        guard options.tidy else { return Array(trace.indices) }
        var kept: [Int] = []
        for index in trace.indices {
            if let last = kept.last, index != trace.count - 1,
               Geo.haversine(trace[last].coordinate, trace[index].coordinate) < options.model.tidyMetres { continue }
            if let last = kept.last, index == trace.count - 1, kept.count > 1,
               Geo.haversine(trace[last].coordinate, trace[index].coordinate) < options.model.tidyMetres { kept.removeLast() }
            kept.append(index)
        }
        return kept
    }

    /// Matches a trace; points without a candidate, and matchings of a single point, are left unmatched. A point that
    /// cannot be joined to the chain is first tried without the chain's last point (which may have been the outlier);
    /// failing that it is skipped, and the trace splits only after `maximumSkippedPoints` skipped points in a row, or
    /// a time or distance gap, restarting at the first of them.
    public func match(_ trace: [TracePoint]) -> MatchResult {
        var matchings: [Matching] = []
        resetChain()
        let kept = keptPoints(trace)
        var position = 0
        var firstSkipped: Int?
        while position < kept.count {
            let index = kept[position]
            let point = trace[index]
            let sigma = sigma(point)
            let radius = max(options.model.minimumSearchRadius, options.model.searchSigmas * sigma)
            finder.candidates(around: point.coordinate, radius: radius, maximumEdges: options.model.maximumEdges, metric: metric,
                              lengths: lengths, nearest: &nearest, into: &found)
            if found.isEmpty { position += 1; continue }
            foundPoints.removeAll(keepingCapacity: true)
            for snap in found {
                foundPoints.append(lengths.withLengths(ofEdge: snap.edge) { table.point(snap, planner: planner, segmentLengths: $0) })
            }
            guard let last = layerPoint.last else {
                startChain(index, sigma: sigma)
                position += 1
                continue
            }
            let gap = breaksBetween(trace[last], point)
            if !gap && (addLayer(index, trace: trace, sigma: sigma) || addLayerDroppingLast(index, trace: trace, sigma: sigma)) {
                firstSkipped = nil
                position += 1
                continue
            }
            let skipStart = firstSkipped ?? position
            if !gap && position - skipStart < options.model.maximumSkippedPoints {
                firstSkipped = skipStart
                position += 1
                continue
            }
            // Split: close the chain and start afresh at the first point it could not take.
            finishChain(trace, into: &matchings)
            resetChain()
            firstSkipped = nil
            position = skipStart
        }
        finishChain(trace, into: &matchings)
        var placement = [(matching: Int, index: Int)?](repeating: nil, count: trace.count)
        for (m, matching) in matchings.enumerated() {
            for (position, point) in matching.pointIndices.enumerated() { placement[point] = (m, position) }
        }
        return MatchResult(matchings: matchings, metric: metric, placement: placement)
    }

    /// Tries the point (candidates in `found`) after the layer before the chain's last, whose point may have been an
    /// outlier that led the chain astray; on success the last layer's point is left unmatched, else the chain is
    /// restored.
    private func addLayerDroppingLast(_ point: Int, trace: [TracePoint], sigma: Double) -> Bool {
        let layers = layerPoint.count
        guard layers >= 2, !breaksBetween(trace[layerPoint[layers - 2]], trace[point]) else { return false }
        let from = layerStart[layers - 1]
        let savedSnaps = Array(snaps[from...]), savedPoints = Array(points[from...]), savedScore = Array(score[from...])
        let savedParent = Array(parent[from...]), savedMetres = Array(stepMetres[from...]), savedPulls = Array(pullsBack[from...])
        let savedPoint = layerPoint[layers - 1], savedLimit = layerLimit[layers - 1], savedReach = layerReach[layers - 1]
        func truncate() {
            snaps.removeSubrange(from...); points.removeSubrange(from...); score.removeSubrange(from...)
            parent.removeSubrange(from...); stepMetres.removeSubrange(from...); pullsBack.removeSubrange(from...)
            layerStart.removeLast(); layerPoint.removeLast(); layerLimit.removeLast(); layerReach.removeLast()
        }
        truncate()
        if addLayer(point, trace: trace, sigma: sigma) { return true }
        snaps += savedSnaps; points += savedPoints; score += savedScore; parent += savedParent; stepMetres += savedMetres; pullsBack += savedPulls
        layerStart.append(snaps.count); layerPoint.append(savedPoint); layerLimit.append(savedLimit); layerReach.append(savedReach)
        return false
    }

    /// A time gap (with `gaps=split`) or a distance gap between consecutive points.
    private func breaksBetween(_ a: TracePoint, _ b: TracePoint) -> Bool {
        if options.splitGaps, let t0 = a.timestamp, let t1 = b.timestamp, t1 - t0 > options.model.maximumTimeGap { return true }
        return Geo.haversine(a.coordinate, b.coordinate) > options.model.maximumDistanceGap
    }

    private func resetChain() {
        snaps.removeAll(keepingCapacity: true); points.removeAll(keepingCapacity: true); score.removeAll(keepingCapacity: true)
        parent.removeAll(keepingCapacity: true); stepMetres.removeAll(keepingCapacity: true)
        pullsBack.removeAll(keepingCapacity: true)
        layerStart.removeAll(keepingCapacity: true); layerStart.append(0)
        layerPoint.removeAll(keepingCapacity: true)
        layerLimit.removeAll(keepingCapacity: true)
        layerReach.removeAll(keepingCapacity: true)
    }

    private static func emission(_ snap: Snap, sigma: Double) -> Double {
        let z = snap.distance / sigma
        return -0.5 * z * z
    }

    private func startChain(_ point: Int, sigma: Double) {
        for (snap, point) in zip(found, foundPoints) {
            snaps.append(snap)
            points.append(point)
            score.append(Self.emission(snap, sigma: sigma))
            parent.append(-1)
            stepMetres.append(0)
            pullsBack.append(false)
        }
        layerStart.append(snaps.count)
        layerPoint.append(point)
        layerLimit.append(0)
        layerReach.append(0)
    }

    /// Adds the point's candidates (in `found`) as the next layer; false when none can be reached from the last one.
    private func addLayer(_ point: Int, trace: [TracePoint], sigma: Double) -> Bool {
        let last = layerPoint.count - 1
        let from = layerStart[last], to = layerStart[last + 1]
        sources.removeAll(keepingCapacity: true)
        // Candidates whose path so far is far less likely than the best one's are not continued (a beam).
        var best = -Double.infinity
        for i in from..<to { best = max(best, score[i]) }
        let floor = best - options.model.beamWidth
        for i in from..<to { sources.append(score[i] > -.infinity && score[i] >= floor ? points[i] : nil) }
        // Two tables: previous → current for the transitions, and current → previous to recognise a fix that lies a
        // little behind the previous one.
        let straight = Geo.haversine(trace[layerPoint[last]].coordinate, trace[point].coordinate)
        let beta = options.model.beta(sigma: sigma, straight: straight)
        let tolerance = max(5, options.model.standstillSigmas * sigma)
        var limit = straight * 3 + options.model.maximumDetour
        let elapsed = trace[point].timestamp.flatMap { t1 in trace[layerPoint[last]].timestamp.map { t1 - $0 } }
        if let elapsed { limit = min(limit, elapsed * options.model.maximumSpeed + 2 * tolerance) }
        let forward: TravelMatrix
        let reach = found.reduce(0) { max($0, $1.distance) }
        if limit <= Self.localSearchMetres {
            let goal = TransitionSearch.Goal(point: trace[point].coordinate, radius: reach)
            forward = transitions.compute(sources: sources, targets: foundPoints, costBound: options.model.costBound(metres: limit),
                                          limitMetres: limit, allowLoops: true, goal: goal)
        } else {
            table.costBound = options.model.costBound(metres: limit)
            forward = table.compute(sourcePoints: sources, targetPoints: foundPoints, planner: planner, loopMetres: limit)
        }
        let backward = transitions.compute(sources: foundPoints, targets: sources, costBound: options.model.costBound(metres: tolerance),
                                           limitMetres: tolerance, allowLoops: false)
        var any = false
        let previousCount = to - from, columns = found.count
        func metres(_ matrix: TravelMatrix, _ row: Int, _ column: Int, width: Int) -> Double? {
            let cell = row * width + column
            guard matrix.cost[cell] != TravelMatrix.unreachable else { return nil }
            return matrix.distance?[cell]
        }
        continued.removeAll(keepingCapacity: true)
        continued.append(contentsOf: repeatElement(false, count: previousCount))
        for (j, candidate) in found.enumerated() {
            var best = -Double.infinity, bestParent: Int32 = -1, bestMetres = 0.0, bestStill = false
            for i in from..<to where score[i] > -.infinity && score[i] >= floor {
                var distance = metres(forward, i - from, j, width: columns) ?? .infinity
                var still = false
                if let back = metres(backward, j, i - from, width: previousCount), back <= tolerance, back < distance {
                    distance = 0
                    still = true
                }
                guard distance <= limit else { continue }
                continued[i - from] = true
                // Metres the route needs beyond what its own speeds allow in the time between the fixes.
                var tooFast = 0.0
                if let speedTolerance, !still, let elapsed, let seconds = forward.duration(i - from, j), seconds > 0 {
                    tooFast = max(0, distance - (distance / seconds * elapsed * speedTolerance + sigma))
                }
                let value = score[i] - (abs(distance - straight) + tooFast) / beta
                if value > best { best = value; bestParent = Int32(i); bestMetres = distance; bestStill = still }
            }
            if bestParent >= 0 { any = true }
            let pullBack = bestStill && last == 0
            if bestStill && !pullBack {
                // Standing still: the point is matched where its predecessor was, and later steps start from there.
                var still = snaps[Int(bestParent)]
                still.distance = Geo.haversine(trace[point].coordinate, still.point)
                snaps.append(still)
                points.append(points[Int(bestParent)])
            } else {
                snaps.append(candidate)
                points.append(foundPoints[j])
            }
            score.append(bestParent >= 0 ? best + Self.emission(candidate, sigma: sigma) : -.infinity)
            parent.append(bestParent)
            stepMetres.append(bestMetres)
            pullsBack.append(pullBack)
        }
        // A candidate none of whose transitions is possible may have met an outlier fix: within the search radius of the
        // fix it stays where it was, a standstill scored by its own distance to the fix, rather than its path ending.
        let radius = max(options.model.minimumSearchRadius, options.model.searchSigmas * sigma)
        for i in from..<to where score[i] > -.infinity && score[i] >= floor && !continued[i - from] {
            var still = snaps[i]
            still.distance = Geo.haversine(trace[point].coordinate, still.point)
            guard still.distance <= radius else { continue }
            snaps.append(still)
            points.append(points[i])
            score.append(score[i] - straight / beta + Self.emission(still, sigma: sigma))
            parent.append(Int32(i))
            stepMetres.append(0)
            pullsBack.append(false)
            any = true
        }
        if !any {
            snaps.removeLast(columns); points.removeLast(columns); score.removeLast(columns); parent.removeLast(columns); stepMetres.removeLast(columns)
            pullsBack.removeLast(columns)
            return false
        }
        layerStart.append(snaps.count)
        layerPoint.append(point)
        layerLimit.append(limit)
        layerReach.append(reach)
        return true
    }

    /// Distinct road edges among a layer's candidates that the Viterbi pass could still reach.
    private func plausibleEdges(layer: Int) -> Int {
        var edges: [Int] = []
        for i in layerStart[layer]..<layerStart[layer + 1] where score[i] > -.infinity && !edges.contains(snaps[i].edge) {
            edges.append(snaps[i].edge)
        }
        return max(1, edges.count)
    }

    /// The route of a chosen step: the one its local search scored (`TransitionSearch.path`), else the leg.
    private func stepPath(from parent: Int, to candidate: Int, layer: Int, previousSnap: Snap, snap: Snap,
                          trace: [TracePoint]) -> Router.LegPath? {
        let limit = layerLimit[layer]
        let goal = TransitionSearch.Goal(point: trace[layerPoint[layer]].coordinate, radius: layerReach[layer])
        if limit <= Self.localSearchMetres, let source = points[parent], let target = points[candidate],
           let found = transitions.path(from: source, to: target, costBound: options.model.costBound(metres: limit),
                                        limitMetres: limit, goal: goal) {
            return Router.LegPath(cost: found.cost, nodes: found.nodes, source: previousSnap, target: snap)
        }
        return router.legPath(from: previousSnap, to: snap, metric: metric, algorithm: .hierarchy)
    }

    /// Backtracks the current chain into a matching (kept when it has two points or more).
    private func finishChain(_ trace: [TracePoint], into matchings: inout [Matching]) {
        let layers = layerPoint.count
        guard layers >= 2 else { return }
        let from = layerStart[layers - 1], to = layerStart[layers]
        var best = from
        for i in from..<to where score[i] > score[best] { best = i }
        guard score[best] > -.infinity else { return }
        var chosen: [Int] = []
        var node = best
        while node >= 0 {
            chosen.append(node)
            node = Int(parent[node])
        }
        chosen.reverse()
        guard chosen.count == layers else { return }
        var matching = Matching()
        for (layer, candidate) in chosen.enumerated() {
            let snap = snaps[candidate]
            // The first fix's candidate moved back to where the second fix lies on the road: an empty first step.
            let pulledBack = layer == 1 && pullsBack[candidate]
            if pulledBack { matching.snaps[0] = snap }
            let point = layerPoint[layer]
            if let previousPoint = matching.pointIndices.last, let previousSnap = matching.snaps.last {
                guard let path = pulledBack ? router.legPath(from: snap, to: snap, metric: metric, algorithm: .hierarchy)
                    : stepPath(from: chosen[layer - 1], to: candidate, layer: layer, previousSnap: previousSnap, snap: snap,
                               trace: trace) else {
                    // Should not happen (the table found a path); close the matching here and start afresh.
                    if matching.pointIndices.count >= 2 { matchings.append(matching) }
                    matching = Matching()
                    matching.pointIndices = [point]
                    matching.snaps = [snap]
                    matching.alternatives = [plausibleEdges(layer: layer) - 1]
                    continue
                }
                matching.paths.append(path)
                matching.routeMetres += stepMetres[candidate]
                matching.straightMetres += Geo.haversine(trace[previousPoint].coordinate, trace[point].coordinate)
            }
            matching.pointIndices.append(point)
            matching.snaps.append(snap)
            matching.alternatives.append(plausibleEdges(layer: layer) - 1)
        }
        if matching.pointIndices.count >= 2 { matchings.append(matching) }
    }
}
