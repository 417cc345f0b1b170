/// Per-router scratch state of alternative-route queries, reused between requests.
final class AlternativeSearchState {
    /// Via-node search, kept apart from the router's leg search so that local-optimality queries do not clobber it.
    package let via: CCHSearch
    package var candidates = ContiguousArray<CCHSearch.ViaCandidate>()
    /// Candidates that survive the sharing estimate, with their ranking key.
    package var ranked = ContiguousArray<(key: Int, candidate: CCHSearch.ViaCandidate)>()
    /// Per routing node: bit 0 set on the primary leg, bit k on the leg's k-th accepted alternative.
    var routeBits: ContiguousArray<UInt16>
    /// Per routing node: the leg stamp of the last unpacked candidate path through it.
    package var seen: ContiguousArray<UInt32>
    /// Per routing node: the stamp of the last path checked for repeated roads through it.
    var onPath: ContiguousArray<UInt32>
    var legStamp: UInt32 = 0
    var pathStamp: UInt32 = 0
    package var path: [Int] = []

    package init(graph: RoutingGraph) {
        via = CCHSearch(graph: graph)
        routeBits = ContiguousArray(repeating: 0, count: graph.routingNodeCount)
        seen = ContiguousArray(repeating: 0, count: graph.routingNodeCount)
        onPath = ContiguousArray(repeating: 0, count: graph.routingNodeCount)
    }
}

/// Alternative routes by the via-node method on the hierarchy's search spaces (X-CHV of Abraham et al.):
/// every node in both the source's and the target's search space whose exact source → node → target cost is
/// within the stretch bound is a candidate; candidates are unpacked cheapest first (skipping nodes on paths
/// already seen), screened for repeated roads and sharing, ranked by 2 × cost + shared cost, and the best
/// ones that pass the local-optimality test (T-test) are returned. With several waypoints, whole-trip
/// alternative k uses each leg's k-th alternative where there is one and the primary leg elsewhere.
package struct AlternativeRoutes {
    package let router: Router
    package let metric: RoutingMetric
    package let options: RouteOptions

    /// A screened candidate path of one leg.
    private struct Candidate {
        package var nodes: [Int]
        package var via: Int
        package var cost: Int
        var sharedWithPrimary: Int
        var score: Int { 2 * cost + sharedWithPrimary }
    }

    package func alternatives(primary: Route, snaps: [Snap], count: Int) -> [Route] {
        guard count > 0, snaps.count == primary.legs.count + 1 else { return [] }
        let graph = router.graph
        let perLeg: [[Router.LegPath]] = primary.legs.indices.map { index in
            legAlternatives(from: snaps[index], to: snaps[index + 1], primary: primary.legs[index].routingNodes, count: count)
        }
        var routes: [Route] = []
        let names = primary.legs.first?.nameLanguage   // the primary's street-name language, resolved once
        for rank in 0..<count {
            guard perLeg.contains(where: { $0.count > rank }) else { break }
            let legs = primary.legs.indices.map { index in
                perLeg[index].count > rank ? router.buildLeg(perLeg[index][rank], metric: metric, names: names) : primary.legs[index]
            }
            let used = options.avoidMode == .prefer ? router.usedClasses(legs, avoid: options.avoid) : []
            var route = Route(legs: legs, isAlternate: true, avoided: options.avoid.listed, usedAvoidedClasses: used)
            (route.divergeCoordinate, route.mergeCoordinate) = divergeAndMerge(route, primary: primary)
            routes.append(route)
        }
        return routes.sorted { $0.duration < $1.duration }
    }

    /// Up to `count` admissible alternatives of one leg, best first.
    func legAlternatives(from source: Snap, to target: Snap, primary: [Int], count: Int) -> [Router.LegPath] {
        // Same-edge legs start from the edge's successors (see RoutePlanner), which the checks below do not model.
        guard source.edge != target.edge, !primary.isEmpty else { return [] }
        let graph = router.graph, settings = options.alternative
        let endpoints = RoutePlanner(graph: graph, costs: router.costs).endpoints(from: source, to: target, metric: metric)
        guard !endpoints.sources.isEmpty, !endpoints.targets.isEmpty else { return [] }
        let state = router.alternativeState
        state.candidates.removeAll(keepingCapacity: true)
        guard let shortest = state.via.viaCandidates(sources: endpoints.sources, targets: endpoints.targets, metric: metric,
                                                     maximumCost: { settings.maximumCost(shortest: $0) }, into: &state.candidates),
              shortest > 0 else { return [] }
        for node in primary { state.routeBits[node] |= 1 }
        var accepted: [Candidate] = []
        defer {
            for node in primary { state.routeBits[node] = 0 }
            for alternative in accepted { for node in alternative.nodes { state.routeBits[node] = 0 } }
        }
        let check = AdmissibilityCheck(graph: graph, metric: metric, search: router.hierarchy)
        let sharingLimit = Int((settings.maximumSharing * Double(shortest)).rounded(.down))
        let pool = screenedCandidates(state: state, check: check, sharingLimit: sharingLimit,
                                      maximumUnpacked: settings.maximumUnpacked(count: count))
        let threshold = Int((settings.localOptimality * Double(shortest)).rounded(.up))
        var shared = [Int](repeating: 0, count: 16)
        let maximumTested = settings.maximumTested(count: count)
        var tested = 0
        for candidate in pool {
            if accepted.count == min(count, 15) || tested == maximumTested { break }
            for index in shared.indices { shared[index] = 0 }
            check.addSharedWeights(candidate.nodes, bits: state.routeBits, into: &shared)
            if shared.contains(where: { $0 > sharingLimit }) { continue }
            tested += 1
            guard check.isLocallyOptimal(candidate.nodes, viaIndex: candidate.via, threshold: threshold) else { continue }
            accepted.append(candidate)
            for node in candidate.nodes { state.routeBits[node] |= UInt16(1) << UInt16(accepted.count) }
        }
        return accepted.map { Router.LegPath(cost: $0.cost, nodes: $0.nodes, source: source, target: target) }
    }

    /// Ranks via candidates by 2 × cost + estimated sharing (see `CCHSearch.sharedEstimate`), dropping those on the
    /// primary or estimated to share too much; unpacks them in that order (skipping nodes on paths already
    /// unpacked) and keeps the paths that repeat no road and share at most the limit with the primary, best first.
    private func screenedCandidates(state: AlternativeSearchState, check: AdmissibilityCheck, sharingLimit: Int,
                                    maximumUnpacked: Int) -> [Candidate] {
        state.ranked.removeAll(keepingCapacity: true)
        state.routeBits.withUnsafeBufferPointer { bits in
            for candidate in state.candidates where bits[Int(candidate.node)] & 1 == 0 {
                let shared = state.via.sharedEstimate(via: Int(candidate.node), marks: bits)
                if shared <= sharingLimit { state.ranked.append((2 * candidate.cost + shared, candidate)) }
            }
        }
        state.ranked.sort { $0.key < $1.key }
        state.legStamp &+= 1
        if state.legStamp == 0 { state.seen.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }; state.legStamp = 1 }
        var pool: [Candidate] = []
        var unpacked = 0
        var shared = [Int](repeating: 0, count: 16)
        for (_, candidate) in state.ranked {
            if unpacked == maximumUnpacked { break }
            let via = Int(candidate.node)
            if state.seen[via] == state.legStamp { continue }
            state.via.viaPath(through: via, metric: metric, into: &state.path)
            unpacked += 1
            for node in state.path { state.seen[node] = state.legStamp }
            state.pathStamp &+= 1
            if state.pathStamp == 0 { state.onPath.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }; state.pathStamp = 1 }
            if check.repeatsRoad(state.path, stamps: &state.onPath, stamp: state.pathStamp) { continue }
            shared[0] = 0
            check.addSharedWeights(state.path, bits: state.routeBits, into: &shared)
            guard shared[0] <= sharingLimit, let viaIndex = state.path.firstIndex(of: via) else { continue }
            pool.append(Candidate(nodes: state.path, via: viaIndex, cost: candidate.cost, sharedWithPrimary: shared[0]))
        }
        return pool.sorted { $0.score < $1.score }
    }

    /// Where the alternative first leaves the primary and where it last rejoins it.
    func divergeAndMerge(_ route: Route, primary: Route) -> (Coordinate?, Coordinate?) {
        let differing = route.legs.indices.filter { route.legs[$0].directedEdges != primary.legs[$0].directedEdges }
        guard let first = differing.first, let last = differing.last else { return (nil, nil) }
        let graph = router.graph
        func start(ofDirectedEdge d: Int) -> Coordinate {
            let edge = d >> 1
            return graph.coordinate(shapePoint: d & 1 == 0 ? Int(graph.edgeShapeFirst[edge]) : Int(graph.edgeShapeFirst[edge + 1]) - 1)
        }
        let leaving = route.legs[first].directedEdges, reference = primary.legs[first].directedEdges
        let prefix = zip(leaving, reference).prefix { $0 == $1 }.count
        let diverge = prefix == 0 || prefix >= leaving.count ? route.legs[first].coordinates.first : start(ofDirectedEdge: leaving[prefix])
        let joining = route.legs[last].directedEdges, referenceEnd = primary.legs[last].directedEdges
        let suffix = zip(joining.reversed(), referenceEnd.reversed()).prefix { $0 == $1 }.count
        let merge = suffix == 0 || suffix >= joining.count ? route.legs[last].coordinates.last : start(ofDirectedEdge: joining[joining.count - suffix])
        return (diverge, merge)
    }
}

