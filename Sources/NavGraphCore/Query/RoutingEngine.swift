import Foundation

/// The shareable, read-only part of routing: the mapped graph, the snapper, the cost model and a locked,
/// bounded cache of customized metrics.
///
/// Lifetime: one per loaded graph file, for as long as the file is mapped. Thread safety: every member is
/// immutable except the metric cache, which is guarded by a lock, so one engine serves any number of threads.
/// Search state lives in `QueryContext`, one per thread.
public final class RoutingEngine: Sendable {
    public let graph: RoutingGraph
    public let snapper: Snapper
    package let costs: EdgeCostModel
    package let freeFlowWeights: ContiguousArray<UInt32>
    private let cache: MetricCache
    /// Receives one line per vehicle customization (counts and timings), e.g. to print it on stderr.
    private let log: (@Sendable (String) -> Void)?

    /// What a customized metric depends on: the avoid set, the avoid mode, the traffic generation (0 = none) and the
    /// vehicle's dimensions (nil = none given). The profile is the engine's graph's (one engine per profile).
    public struct MetricKey: Hashable, Sendable {
        public var avoid: AvoidSet
        public var mode: AvoidMode
        public var trafficGeneration: UInt64
        public var vehicle: VehicleDimensions? = nil
    }

    /// Bytes of customized hierarchies the metric cache may hold (it keeps at least two metrics).
    public static let cacheBudgetBytes = 4 << 30

    /// The profile this engine routes for.
    public var profile: ProfileID { graph.profile }

    /// `cacheCapacity` bounds the customized metrics kept besides the free-flow one (least recently used go first); so
    /// does `cacheBudgetBytes`.
    /// `log` receives one line per truck dimension customization.
    public init(graph: RoutingGraph, cacheCapacity: Int = 16, log: (@Sendable (String) -> Void)? = nil) {
        self.graph = graph
        self.log = log
        snapper = Snapper(graph: graph)
        costs = EdgeCostModel(graph: graph)
        freeFlowWeights = RoutingMetric.freeFlowWeights(graph)
        // At most about 4 GB of customized hierarchies (weights and middle hints), however many the caller allows.
        let metricBytes = max(1, CCHMetric.bytesPerArc * graph.cch.arcCount)
        cache = MetricCache(capacity: min(cacheCapacity, max(2, Self.cacheBudgetBytes / metricBytes)),
                            freeFlow: RoutingMetric(graph: graph, nodeWeight: freeFlowWeights, hierarchy: graph.freeFlowMetric))
    }

    /// The cache key of a request: avoid mode only matters when something is avoided.
    public static func key(avoid: AvoidSet, mode: AvoidMode, traffic: TrafficOverlay?, vehicle: VehicleDimensions? = nil) -> MetricKey {
        MetricKey(avoid: avoid, mode: avoid.isEmpty ? .strict : mode, trafficGeneration: traffic?.generation ?? 0,
                  vehicle: vehicle.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The metric for an avoid set, mode and traffic overlay, customized once and cached.
    /// Two threads asking for the same new key at once may both customize; the first result is kept.
    public func metric(avoid: AvoidSet, mode: AvoidMode, traffic: TrafficOverlay?, vehicle: VehicleDimensions? = nil) -> RoutingMetric {
        let key = Self.key(avoid: avoid, mode: mode, traffic: traffic, vehicle: vehicle)
        if let cached = cache.lookup(key) { return cached }
        return cache.insert(key, customize(avoid: avoid, mode: key.mode, traffic: traffic, vehicle: key.vehicle))
    }

    /// Number of metrics currently cached (the free-flow one included).
    public var cachedMetricCount: Int { cache.count }

    /// Whether any segment of directed edge d carries traffic data in its direction.
    private func hasTraffic(directedEdge d: Int, _ traffic: TrafficOverlay) -> Bool {
        let edge = d >> 1, direction = d & 1
        let first = Int(graph.edgeShapeFirst[edge]), last = Int(graph.edgeShapeFirst[edge + 1]) - 1
        for point in first..<max(first, last) where traffic.factor(key: TrafficOverlay.key(segment: point, direction: direction)) != nil {
            return true
        }
        return false
    }

    /// A truck dimension set only closes the few edges whose limits it exceeds: the metric without dimensions (cached)
    /// is re-customized for them by `PartialCustomization`, which gives the metric a full customization would.
    private func customize(avoid: AvoidSet, mode: AvoidMode, vehicle: VehicleDimensions, traffic: TrafficOverlay?) -> RoutingMetric {
        let wallStart = Date(), cpuStart = ProcessMemory.cpuSeconds
        let base = metric(avoid: avoid, mode: mode, traffic: traffic)
        var weights = base.nodeWeight
        var raised: [Int] = []
        let edges = VehicleLimitCheck(graph: graph).violatingEdges(vehicle)
        // Every routing node of a closed edge: a via-way restriction gives its via edges more than one.
        var closed = ContiguousArray<Bool>(repeating: false, count: graph.edgeCount)
        for edge in edges { closed[edge] = true }
        if !edges.isEmpty {
            for node in 0..<graph.routingNodeCount where closed[Int(graph.routingEdge[node] >> 1)] && weights[node] < CCHMetric.infinity {
                weights[node] = CCHMetric.infinity
                raised.append(node)
            }
        }
        let (hierarchy, report) = weights.withUnsafeBufferPointer { weights in
            base.turnCost.withUnsafeBufferPointer {
                PartialCustomization.recustomize(graph.cch, base: base.hierarchy, nodeWeight: weights, turnCost: $0, raised: raised)
            }
        }
        log?(String(format: "truck dimensions %@: %d edges over a limit, %d routing nodes closed, %d of %d hierarchy arcs recomputed (%d seeds, %d changed, %d triangle lookups) in %.3f s (CPU %.3f s; copying the base metric %.3f s)",
                    vehicle.description, edges.count, raised.count, report.recomputedArcs, graph.cch.arcCount, report.seedArcs, report.changedArcs, report.triangleLookups,
                    Date().timeIntervalSince(wallStart), ProcessMemory.cpuSeconds - cpuStart, report.copySeconds))
        return RoutingMetric(nodeWeight: weights, turnCost: base.turnCost, hierarchy: hierarchy, traffic: traffic)
    }

    private func customize(avoid: AvoidSet, mode: AvoidMode, traffic: TrafficOverlay?, vehicle: VehicleDimensions?) -> RoutingMetric {
        if let vehicle { return customize(avoid: avoid, mode: mode, vehicle: vehicle, traffic: traffic) }
        var weights = freeFlowWeights
        if let traffic {
            for node in 0..<graph.routingNodeCount where weights[node] < CCHMetric.infinity {
                let d = Int(graph.routingEdge[node])
                // Edges without traffic data keep their free-flow time (what currentTime would return for them),
                // so only covered edges pay for the per-segment sums.
                guard hasTraffic(directedEdge: d, traffic) else {
                    weights[node] = max(1, min(CCHMetric.infinity - 1, weights[node]))
                    continue
                }
                weights[node] = costs.currentTime(directedEdge: d, traffic: traffic) ?? CCHMetric.infinity
            }
        }
        if !avoid.isEmpty {
            for node in 0..<graph.routingNodeCount where weights[node] < CCHMetric.infinity {
                let edge = Int(graph.routingEdge[node] >> 1)
                guard !avoid.matches(roadClass: graph.roadClass(edge: edge), flags: graph.flags(edge: edge)).isEmpty else { continue }
                if mode == .strict {
                    weights[node] = CCHMetric.infinity
                } else {
                    weights[node] = UInt32(min(UInt64(CCHMetric.infinity - 1),
                                               UInt64(weights[node]) * UInt64(AvoidMode.preferFactor) + UInt64(AvoidMode.preferPenaltyMilliseconds)))
                }
            }
        }
        return RoutingMetric.customized(graph, nodeWeight: weights, traffic: traffic)
    }
}

/// A bounded least-recently-used map from metric keys to customized metrics, guarded by a lock; the free-flow
/// metric is pinned. Lifetime: owned by one RoutingEngine. Thread safety: all access goes through the lock.
final class MetricCache: @unchecked Sendable {
    private let lock = NSLock()
    private let capacity: Int
    private let freeFlow: RoutingMetric
    private var entries: [RoutingEngine.MetricKey: (metric: RoutingMetric, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0

    package init(capacity: Int, freeFlow: RoutingMetric) {
        self.capacity = max(1, capacity)
        self.freeFlow = freeFlow
    }

    private static let freeFlowKey = RoutingEngine.MetricKey(avoid: [], mode: .strict, trafficGeneration: 0)

    package var count: Int { lock.withLock { entries.count + 1 } }

    package func lookup(_ key: RoutingEngine.MetricKey) -> RoutingMetric? {
        if key == Self.freeFlowKey { return freeFlow }
        return lock.withLock {
            guard let entry = entries[key] else { return nil }
            clock &+= 1
            entries[key] = (entry.metric, clock)
            return entry.metric
        }
    }

    /// Stores a metric unless another thread stored one for the key first; returns the stored one.
    package func insert(_ key: RoutingEngine.MetricKey, _ metric: RoutingMetric) -> RoutingMetric {
        lock.withLock {
            clock &+= 1
            if let existing = entries[key] {
                entries[key] = (existing.metric, clock)
                return existing.metric
            }
            if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                entries[oldest] = nil
            }
            entries[key] = (metric, clock)
            return metric
        }
    }
}

/// Reusable search state of one thread: hierarchy and Dijkstra searches and the alternative-route scratch arrays.
/// Lifetime: as long as its thread (or pool slot) serves queries; sized for one graph. Thread safety: none —
/// use it from one thread at a time (a Router owns one; the server checks one out per request).
public final class QueryContext {
    package let graph: RoutingGraph
    private(set) lazy var hierarchy = CCHSearch(graph: graph)
    private(set) lazy var dijkstra = DijkstraSearch(graph: graph)
    private(set) lazy var alternativeState = AlternativeSearchState(graph: graph)

    public init(graph: RoutingGraph) { self.graph = graph }

    package func search(_ algorithm: SearchAlgorithm) -> ShortestPathSearch {
        algorithm == .hierarchy ? hierarchy : dijkstra
    }
}

/// Unique ids of traffic overlays, so caches key metrics by value rather than by object identity.
enum TrafficGeneration {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var last: UInt64 = 0

    package static func next() -> UInt64 {
        lock.withLock { last += 1; return last }
    }
}
