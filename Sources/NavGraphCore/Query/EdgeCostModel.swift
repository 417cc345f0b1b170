/// Traffic on individual OSM segments: a travel-time factor and a congestion value per segment and direction,
/// in dense arrays indexed by segment key so that lookups on the query path cost no hashing.
public final class TrafficOverlay: @unchecked Sendable {
    /// Time factor per key; 0 means no data.
    private var factors = ContiguousArray<Double>()
    /// Congestion per key; 255 means unknown.
    private var congestions = ContiguousArray<UInt8>()
    public let label: String
    /// Unique id of this overlay, the value metric caches key on; fill the overlay before its first use.
    public let generation: UInt64 = TrafficGeneration.next()
    /// Segments (per direction) that carry data.
    public private(set) var segmentCount = 0

    public init(label: String) { self.label = label }

    /// Key of a segment: shape point index of its first point (in edge order) * 2 + direction (0 along the edge, 1 against).
    @inline(__always) public static func key(segment: Int, direction: Int) -> Int { segment * 2 + direction }

    /// Sets one segment: `timeFactor` multiplies free-flow time (infinity closes it); congestion is 0–100 or nil.
    public func set(segment: Int, direction: Int, timeFactor: Double, congestion value: UInt8?) {
        let key = Self.key(segment: segment, direction: direction)
        if key >= factors.count {
            factors.append(contentsOf: repeatElement(0, count: key + 1 - factors.count))
            congestions.append(contentsOf: repeatElement(255, count: key + 1 - congestions.count))
        }
        if factors[key] == 0 { segmentCount += 1 }
        factors[key] = timeFactor
        congestions[key] = value ?? 255
    }

    /// Time factor of a segment key, or nil without data.
    @inline(__always) public func factor(key: Int) -> Double? {
        key < factors.count && factors[key] != 0 ? factors[key] : nil
    }

    /// Congestion of a segment key, or nil when unknown.
    @inline(__always) public func congestion(key: Int) -> UInt8? {
        key < congestions.count && congestions[key] != 255 ? congestions[key] : nil
    }
}

/// One segment of a directed edge in driving order, with its free-flow and current travel times.
public struct EdgeSegment {
    /// Shape point indices of the segment's start and end in driving order.
    public var from: Int
    public var to: Int
    public var length: Double
    /// Milliseconds at free flow.
    public var typical: Double
    /// Milliseconds with traffic (infinity if closed).
    public var current: Double
    public var congestion: UInt8?
}

/// Per-segment travel times of directed edges under a metric's traffic, and partial edge costs.
public struct EdgeCostModel: Sendable {
    public let graph: RoutingGraph

    public init(graph: RoutingGraph) { self.graph = graph }

    /// Segments of directed edge d in driving order.
    public func segments(directedEdge d: Int, traffic: TrafficOverlay?) -> [EdgeSegment] {
        var result: [EdgeSegment] = []
        result.reserveCapacity(Int(graph.edgeShapeFirst[(d >> 1) + 1] - graph.edgeShapeFirst[d >> 1]) - 1)
        forEachSegment(directedEdge: d, traffic: traffic) { result.append($0) }
        return result
    }

    /// Calls `body` with each segment of directed edge d in driving order, without building an array (leg building).
    @inline(__always)
    public func forEachSegment(directedEdge d: Int, traffic: TrafficOverlay?, _ body: (EdgeSegment) -> Void) {
        let edge = d >> 1, forward = d & 1 == 0
        let first = Int(graph.edgeShapeFirst[edge]), last = Int(graph.edgeShapeFirst[edge + 1]) - 1
        let total = graph.edgeLength[edge]
        let edgeTime = Double(graph.freeFlowTime(directedEdge: d))
        // Each segment starts where the last ended: its start point's cosine is carried over (same value).
        var previous = Coordinate(lat: 0, lon: 0), previousCos = 0.0
        for step in 0..<(last - first) {
            // Wrapping: both ends stay within the edge's validated shape range.
            let start = forward ? first &+ step : last &- step
            let end = forward ? start &+ 1 : start &- 1
            if step == 0 { previous = graph.coordinate(shapePoint: start); previousCos = Geo.cosLatitude(previous) }
            let next = graph.coordinate(shapePoint: end), nextCos = Geo.cosLatitude(next)
            let length = Geo.haversine(previous, next, cosLatA: previousCos, cosLatB: nextCos)
            previous = next
            previousCos = nextCos
            let typical = total > 0 ? edgeTime * length / total : edgeTime / Double(last - first)
            var current = typical
            var congestion: UInt8?
            if let traffic {
                let key = TrafficOverlay.key(segment: min(start, end), direction: forward ? 0 : 1)
                if let factor = traffic.factor(key: key) { current = typical * factor }
                congestion = traffic.congestion(key: key)
            }
            body(EdgeSegment(from: start, to: end, length: length, typical: typical, current: current, congestion: congestion))
        }
    }

    /// Travel time of directed edge d in ms with traffic, or nil if a segment is closed.
    public func currentTime(directedEdge d: Int, traffic: TrafficOverlay) -> UInt32? {
        let total = segments(directedEdge: d, traffic: traffic).reduce(0.0) { $0 + $1.current }
        return total.isFinite ? UInt32(max(1, min(Double(CCHMetric.infinity - 1), total.rounded()))) : nil
    }

    /// The share of a routing node's weight spent before `metres` along directed edge d, rounded to ms.
    public func cost(directedEdge d: Int, upTo metres: Double, metric: RoutingMetric) -> UInt32 {
        let node = Int(graph.routingNodeOfEdge[d])
        let weight = metric.nodeWeight[node]
        // One pass, no array: the total and the part before `metres` are summed side by side, each in segment order.
        var total = 0.0, before = 0.0, travelled = 0.0, reached = false
        forEachSegment(directedEdge: d, traffic: metric.traffic) { part in
            total += part.current
            guard !reached else { return }
            if travelled + part.length <= metres { before += part.current; travelled += part.length; return }
            if part.length > 0 { before += part.current * max(0, metres - travelled) / part.length }
            reached = true
        }
        guard total > 0, total.isFinite else { return 0 }
        return UInt32(min(Double(weight), (Double(weight) * before / total).rounded()))
    }
}
