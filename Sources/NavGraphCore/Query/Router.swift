import Foundation

/// Which search answers queries: the hierarchy, or plain Dijkstra as the reference.
public enum SearchAlgorithm: String, Sendable, CaseIterable {
    case hierarchy = "ch"
    case dijkstra
}

/// Per-request routing options.
public struct RouteOptions: Sendable {
    /// Metres within which a waypoint must lie from a road.
    public var radius: Double = 1000
    /// Per-waypoint radii in metres (nil entries, or a missing list, fall back to `radius`).
    public var radii: [Double?]?
    public var avoid: AvoidSet = []
    public var avoidMode: AvoidMode = .strict
    public var algorithm: SearchAlgorithm = .hierarchy
    /// Number of alternatives wanted after the primary route.
    public var alternatives: Int = 0
    /// What makes an alternative acceptable, and how hard to look for one.
    public var alternative = AlternativeOptions()
    public var traffic: TrafficOverlay?
    public var waypointLabels: [String]?
    /// A truck's dimensions; edges whose limits it exceeds are not used.
    public var vehicle: VehicleDimensions?
    /// BCP-47 tag of the street names wanted: the ways' `name:XX` in its language where tagged ("de-CH" gives
    /// `name:de`), else `name`. nil keeps the local names.
    public var nameLanguage: String?
    /// Per-waypoint travel bearing there (departure at the start, arrival later); nil entries or list leave it free.
    public var bearings: [BearingFilter?]?
    /// Per-waypoint approach; `curb` keeps the waypoint on the kerb side (ignored by the foot profile).
    public var approaches: [Approach?]?
    /// No U-turn at via waypoints (each leg leaves a via in the direction the previous one reached it); nil: the profile's default.
    public var continueStraight: Bool?

    public init() {}
}

/// Answers route requests: a shared `RoutingEngine` plus one `QueryContext` of search state.
///
/// Lifetime: as long as its caller keeps it; cheap to make per thread from an engine (`init(engine:)`).
/// Thread safety: use a Router from one thread at a time (its search state is unlocked); share the engine,
/// which is Sendable, between threads instead.
public final class Router: @unchecked Sendable {
    public let engine: RoutingEngine
    public let graph: RoutingGraph
    public let snapper: Snapper
    package let costs: EdgeCostModel
    /// This router's search state.
    public let context: QueryContext
    /// Guidance step builder, kept so that its road bearing cache serves every query of this router.
    lazy var stepBuilder = StepBuilder(graph: graph)

    /// A router with a fresh engine (and metric cache) for the graph.
    public convenience init(graph: RoutingGraph) {
        self.init(engine: RoutingEngine(graph: graph))
    }

    /// A router sharing an engine (and its metric cache), with its own search state.
    public init(engine: RoutingEngine) {
        self.engine = engine
        graph = engine.graph
        snapper = engine.snapper
        costs = engine.costs
        context = QueryContext(graph: engine.graph)
    }

    /// The hierarchy search used for legs (and the point-to-point checks of alternatives).
    package var hierarchy: CCHSearch { context.hierarchy }

    /// Reusable state of alternative-route queries.
    var alternativeState: AlternativeSearchState { context.alternativeState }

    package func search(_ algorithm: SearchAlgorithm) -> ShortestPathSearch { context.search(algorithm) }

    /// The metric for an avoid set, mode and traffic overlay, customized once and cached by the engine.
    public func metric(avoid: AvoidSet, mode: AvoidMode, traffic: TrafficOverlay?) -> RoutingMetric {
        engine.metric(avoid: avoid, mode: mode, traffic: traffic)
    }

    /// Whether some direction of the edge is usable under the metric.
    func isUsable(edge: Int, metric: RoutingMetric) -> Bool {
        !usableDirections(edge: edge, metric: metric).isEmpty
    }

    /// The directions of the edge usable under the metric (a routing node of finite weight).
    func usableDirections(edge: Int, metric: RoutingMetric) -> SnapDirections {
        var directions: SnapDirections = []
        for direction in 0..<2 {
            let node = graph.routingNodeOfEdge[2 * edge + direction]
            if node >= 0 && metric.nodeWeight[Int(node)] < CCHMetric.infinity { directions.insert(.of(directedEdge: direction)) }
        }
        return directions
    }

    /// The directions of the edge that have a routing node, whatever the metric.
    func routedDirections(edge: Int) -> SnapDirections {
        var directions: SnapDirections = []
        for direction in 0..<2 where graph.routingNodeOfEdge[2 * edge + direction] >= 0 { directions.insert(.of(directedEdge: direction)) }
        return directions
    }

    /// Snaps waypoint `index` (0-based), preferring edges the metric may use.
    public func snap(_ point: Coordinate, index: Int, options: RouteOptions, metric: RoutingMetric) throws -> Snap {
        try snapCandidates(point, index: index, options: options, metric: metric).snap
    }

    /// Snaps a waypoint; when it lands on an island, also returns the nearest main-network snap within the radius,
    /// and when its nearest road lies in a small component, that road's snap.
    public func snapCandidates(_ point: Coordinate, index: Int, options: RouteOptions, metric: RoutingMetric) throws -> SnapCandidates {
        guard point.isValid else {
            throw NavGraphError("waypoint \(index + 1) (\(point.lat),\(point.lon)) is not a valid coordinate")
        }
        var options = options
        if let radius = options.radii?[safe: index] ?? nil { options.radius = radius }
        let bearing = options.bearings?[safe: index] ?? nil
        let approach = graph.profile == .foot ? nil : options.approaches?[safe: index] ?? nil
        // As in OSRM, a trip starts or ends on a ferry, or on a private service road, only when no other road the
        // metric may use lies within the radius.
        if let snap = snapper.candidates(point, radius: options.radius, bearing: bearing, usableDirections: { [graph] edge in
            graph.isPreferredStart(edge: edge) ? usableDirections(edge: edge, metric: metric) : []
        }) { return approached(snap, input: point, approach: approach, metric: metric) }
        if let snap = snapper.candidates(point, radius: options.radius, bearing: bearing, usableDirections: {
            usableDirections(edge: $0, metric: metric)
        }) { return approached(snap, input: point, approach: approach, metric: metric) }
        if let snap = snapper.candidates(point, radius: options.radius, bearing: bearing, usableDirections: { routedDirections(edge: $0) }) {
            return approached(snap, input: point, approach: approach, metric: metric)
        }
        if let bearing, snapper.candidates(point, radius: options.radius, bearing: nil, usableDirections: { routedDirections(edge: $0) }) != nil {
            throw NavGraphError(String(format: "waypoint %d (%.6f,%.6f): no road direction within %.0f m runs at bearing %@",
                                       index + 1, point.lat, point.lon, options.radius, bearing.text), code: .noSegment)
        }
        var message = String(format: "waypoint %d (%.6f,%.6f) is more than %.0f m from the nearest road", index + 1, point.lat, point.lon, options.radius)
        if let distance = snapper.nearestDistance(point, limit: 50_000) {
            message = String(format: "waypoint %d (%.6f,%.6f) is %.0f m from the nearest road (limit %.0f m; raise it with --radius)",
                             index + 1, point.lat, point.lon, distance, options.radius)
        }
        let box = graph.metadata.bbox
        let swapped = Coordinate(lat: point.lon, lon: point.lat)
        if !box.contains(point) && box.contains(swapped) {
            message += String(format: "; latitude and longitude look swapped: %.6f,%.6f lies inside the graph", swapped.lat, swapped.lon)
        } else if !box.contains(point) {
            message += String(format: "; the graph covers lat %.4f..%.4f, lon %.4f..%.4f", box.minLat, box.maxLat, box.minLon, box.maxLon)
        }
        throw NavGraphError(message, code: .noSegment)
    }

    /// The candidates with a `curb` approach applied to each snap: only the direction that has the input point on
    /// the kerb side, unless that leaves no usable direction (a oneway, or a bearing that wants the other way).
    private func approached(_ candidates: SnapCandidates, input: Coordinate, approach: Approach?, metric: RoutingMetric) -> SnapCandidates {
        guard approach == .curb else { return candidates }
        func curb(_ snap: Snap) -> Snap {
            guard let kerb = Approach.curbDirections(of: snap, input: input, side: DrivingSide(at: snap.point), graph: graph) else { return snap }
            let kept = snap.directions.intersection(kerb)
            guard !kept.intersection(usableDirections(edge: snap.edge, metric: metric)).isEmpty else { return snap }
            var narrowed = snap
            narrowed.directions = kept
            return narrowed
        }
        var result = candidates
        result.snap = curb(candidates.snap)
        result.mainFallback = candidates.mainFallback.map(curb)
        result.nearestInSmallComponent = candidates.nearestInSmallComponent.map(curb)
        return result
    }

    /// Routes through the waypoints in order.
    public func route(_ waypoints: [Coordinate], options: RouteOptions = RouteOptions()) throws -> RouteResponse {
        guard waypoints.count >= 2 else { throw NavGraphError("a route needs at least 2 waypoints, got \(waypoints.count)") }
        let metric = engine.metric(avoid: options.avoid, mode: options.avoidMode, traffic: options.traffic, vehicle: options.vehicle)
        let candidates = try waypoints.enumerated().map { try snapCandidates($0.element, index: $0.offset, options: options, metric: metric) }
        var snaps = candidates.map(\.snap)
        var paths: [LegPath]
        // Every waypoint nearest to the same small component: the route stays in it when it can (OSRM's rule).
        if let nearest = SmallComponentRule.snaps(candidates), let inside = legPaths(through: nearest, metric: metric, algorithm: options.algorithm) {
            snaps = nearest
            paths = inside
        } else {
            paths = try legPathsWithFallbacks(candidates, snaps: &snaps, options: options, metric: metric)
        }
        if snaps.count > 2, options.continueStraight ?? graph.profile.continuesStraightAtWaypoints {
            (paths, snaps) = straightThrough(paths, snaps: snaps, metric: metric, algorithm: options.algorithm)
        }
        let names = graph.nameLanguage(for: options.nameLanguage)
        let legs = paths.map { buildLeg($0, metric: metric, names: names) }
        let used = options.avoidMode == .prefer ? usedClasses(legs, avoid: options.avoid) : []
        let primary = Route(legs: legs, isAlternate: false, avoided: options.avoid.listed, usedAvoidedClasses: used)
        var routes = [primary]
        if options.alternatives > 0 {
            routes += AlternativeRoutes(router: self, metric: metric, options: options)
                .alternatives(primary: primary, snaps: snaps, count: options.alternatives)
        }
        var response = RouteResponse(
            waypoints: snaps.enumerated().map { index, snap in
                RouteWaypoint(input: waypoints[index], snapped: snap.point, snapDistance: snap.distance,
                              roadName: graph.string(graph.name(edge: snap.edge, in: names)), label: options.waypointLabels?[safe: index])
            },
            routes: routes)
        response.snaps = snaps
        return response
    }

    /// Each leg's path between consecutive snaps, or nil when one leg has none.
    func legPaths(through snaps: [Snap], metric: RoutingMetric, algorithm: SearchAlgorithm) -> [LegPath]? {
        var paths: [LegPath] = []
        for (source, target) in zip(snaps, snaps.dropFirst()) {
            guard let path = legPath(from: source, to: target, metric: metric, algorithm: algorithm) else { return nil }
            paths.append(path)
        }
        return paths
    }

    /// The legs with no U-turn at any via waypoint, and the snaps with each via narrowed to the direction the route
    /// passes it in (so that alternatives keep it). The legs found one by one already qualify when each via is left
    /// in the direction it was reached (they are then the cheapest); otherwise a dynamic programme over the legs picks,
    /// per via, the direction of passage: per leg and pair of end directions, the cheapest leg between them. When
    /// no route passes every via without turning back, the legs found one by one stand.
    func straightThrough(_ paths: [LegPath], snaps: [Snap], metric: RoutingMetric, algorithm: SearchAlgorithm) -> ([LegPath], [Snap]) {
        func direction(_ node: Int?) -> SnapDirections? { node.map { .of(directedEdge: Int(graph.routingEdge[$0])) } }
        func passages(_ paths: [LegPath]) -> [SnapDirections]? {
            var passed: [SnapDirections] = []
            for (arriving, leaving) in zip(paths, paths.dropFirst()) {
                guard let arrival = direction(arriving.nodes.last), arrival == direction(leaving.nodes.first) else { return nil }
                passed.append(arrival)
            }
            return passed
        }
        func narrowed(_ passed: [SnapDirections], _ paths: [LegPath]) -> ([LegPath], [Snap]) {
            var snaps = snaps, paths = paths
            for (offset, passage) in passed.enumerated() {
                snaps[offset + 1].directions = passage
                paths[offset].target.directions = passage
                paths[offset + 1].source.directions = passage
            }
            return (paths, snaps)
        }
        guard paths.count == snaps.count - 1 else { return (paths, snaps) }
        if let passed = passages(paths) { return narrowed(passed, paths) }
        // States per waypoint: the ends keep their directions, a via is passed one way or the other.
        let states: [[Snap]] = snaps.indices.map { index in
            guard index > 0 && index < snaps.count - 1 else { return [snaps[index]] }
            return snaps[index].directions.intersection(usableDirections(edge: snaps[index].edge, metric: metric)).members.map { passage in
                var snap = snaps[index]
                snap.directions = passage
                return snap
            }
        }
        // Per state of the current waypoint: the cheapest legs so far that end in it.
        var best: [(cost: Int, paths: [LegPath])?] = [(0, [])]
        for leg in 0..<(snaps.count - 1) {
            var next = [(cost: Int, paths: [LegPath])?](repeating: nil, count: states[leg + 1].count)
            for (from, reached) in best.enumerated() {
                guard let reached else { continue }
                for (to, target) in states[leg + 1].enumerated() {
                    guard let path = legPath(from: states[leg][from], to: target, metric: metric, algorithm: algorithm) else { continue }
                    let cost = reached.cost + path.cost
                    if next[to].map({ cost < $0.cost }) ?? true { next[to] = (cost, reached.paths + [path]) }
                }
            }
            best = next
        }
        guard let chosen = best.compactMap({ $0 }).min(by: { $0.cost < $1.cost })?.paths, let passed = passages(chosen) else {
            return (paths, snaps)
        }
        return narrowed(passed, chosen)
    }

    /// Each leg's path between the usual snaps; an island that cannot reach its neighbour gives way to the main network.
    private func legPathsWithFallbacks(_ candidates: [SnapCandidates], snaps: inout [Snap], options: RouteOptions,
                                       metric: RoutingMetric) throws -> [LegPath] {
        var paths: [LegPath] = []
        for index in 0..<(snaps.count - 1) {
            var path = legPath(from: snaps[index], to: snaps[index + 1], metric: metric, algorithm: options.algorithm)
            // An island that cannot reach the next waypoint gives way to the main network within the radius.
            if path == nil, let fallback = candidates[index + 1].mainFallback {
                path = legPath(from: snaps[index], to: fallback, metric: metric, algorithm: options.algorithm)
                if path != nil { snaps[index + 1] = fallback }
            }
            if path == nil, paths.isEmpty, let fallback = candidates[index].mainFallback {
                let target = candidates[index + 1].mainFallback ?? snaps[index + 1]
                path = legPath(from: fallback, to: target, metric: metric, algorithm: options.algorithm)
                    ?? legPath(from: fallback, to: snaps[index + 1], metric: metric, algorithm: options.algorithm)
                if let found = path { snaps[index] = fallback; snaps[index + 1] = found.target }
            }
            guard let path else { throw unreachableError(leg: index, snaps: snaps, options: options) }
            paths.append(path)
        }
        return paths
    }

    /// A leg's cheapest path: search cost and the snapped ends, before geometry is built.
    public struct LegPath: Sendable {
        public var cost: Int
        public var nodes: [Int]
        public var source: Snap
        public var target: Snap

        public init(cost: Int, nodes: [Int], source: Snap, target: Snap) {
            self.cost = cost; self.nodes = nodes; self.source = source; self.target = target
        }
    }

    /// The cheapest path between two snaps under a metric.
    public func legPath(from source: Snap, to target: Snap, metric: RoutingMetric, algorithm: SearchAlgorithm) -> LegPath? {
        let planner = RoutePlanner(graph: graph, costs: costs)
        let endpoints = planner.endpoints(from: source, to: target, metric: metric)
        var best: LegPath?
        if let direct = endpoints.direct { best = LegPath(cost: direct.cost, nodes: [direct.node], source: source, target: target) }
        if !endpoints.sources.isEmpty, !endpoints.targets.isEmpty,
           let found = search(algorithm).search(sources: endpoints.sources, targets: endpoints.targets, metric: metric),
           best.map({ found.cost < $0.cost }) ?? true {
            var nodes = found.nodes
            if let first = nodes.first, let origin = endpoints.sourceOrigin[first], origin != first { nodes.insert(origin, at: 0) }
            best = LegPath(cost: found.cost, nodes: nodes, source: source, target: target)
        }
        // A path through a turn this profile's restrictions forbid is no path.
        if let found = best, found.cost >= Int(ProfileTurnCosts.forbiddenTurn) { return nil }
        return best
    }

    private func unreachableError(leg: Int, snaps: [Snap], options: RouteOptions) -> NavGraphError {
        let prefix = "no route from waypoint \(leg + 1) to \(leg + 2)"
        if snaps[leg].directions != .both || snaps[leg + 1].directions != .both {
            var free = (snaps[leg], snaps[leg + 1])
            free.0.directions = .both
            free.1.directions = .both
            let routed = engine.metric(avoid: options.avoid, mode: options.avoidMode, traffic: options.traffic, vehicle: options.vehicle)
            if legPath(from: free.0, to: free.1, metric: routed, algorithm: .hierarchy) != nil {
                return NavGraphError("\(prefix) in the directions the bearings and approaches allow there", code: .noRoute)
            }
        }
        if !options.avoid.isEmpty && options.avoidMode == .strict {
            let open = metric(avoid: [], mode: .strict, traffic: options.traffic)
            if legPath(from: snaps[leg], to: snaps[leg + 1], metric: open, algorithm: .hierarchy) != nil {
                let culprits = options.avoid.listed.filter { name in
                    guard let single = AvoidSet.names.first(where: { $0.0 == name })?.1 else { return false }
                    let relaxed = metric(avoid: options.avoid.subtracting(single), mode: .strict, traffic: options.traffic)
                    return legPath(from: snaps[leg], to: snaps[leg + 1], metric: relaxed, algorithm: .hierarchy) != nil
                }
                let named = culprits.isEmpty ? options.avoid.listed.joined(separator: ", ") : culprits.joined(separator: " or ")
                return NavGraphError("\(prefix) avoids \(options.avoid.listed.joined(separator: ", ")); the destination is only reachable using \(named)", code: .noRoute)
            }
        }
        if let vehicle = options.vehicle, !vehicle.isEmpty {
            let open = engine.metric(avoid: options.avoid, mode: options.avoidMode, traffic: options.traffic)
            if let path = legPath(from: snaps[leg], to: snaps[leg + 1], metric: open, algorithm: .hierarchy) {
                let edges = path.nodes.map { Int(graph.routingEdge[$0] >> 1) }
                let limit = VehicleLimitCheck(graph: graph).firstViolation(vehicle, edges: edges) ?? "the vehicle's dimensions"
                return NavGraphError("\(prefix): the destination is only reachable past a limit the vehicle exceeds: \(limit)", code: .noRoute)
            }
        }
        let by = graph.profile == .car ? "by car" : "by \(graph.profile.rawValue)"
        return NavGraphError("\(prefix): the destination cannot be reached \(by) from the origin (different road network components)", code: .noRoute)
    }

    func usedClasses(_ legs: [RouteLeg], avoid: AvoidSet) -> [String] {
        var hit: AvoidSet = []
        for leg in legs {
            for d in leg.directedEdges { hit.formUnion(avoid.matches(roadClass: graph.roadClass(edge: d >> 1), flags: graph.flags(edge: d >> 1))) }
        }
        return hit.listed
    }
}

extension Array {
    package subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
