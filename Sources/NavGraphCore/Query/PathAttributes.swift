/// What a many-to-many query carries along each chosen fastest path besides its cost.
public struct PathAttributeSet: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Metres driven.
    public static let distance = PathAttributeSet(rawValue: 1)
    /// Exact seconds of the segments driven (unrounded, without avoid penalties), as legs report them.
    public static let duration = PathAttributeSet(rawValue: 2)
}

/// Metres and exact milliseconds of routing nodes, and of hierarchy arcs along their unpacked paths, for one metric.
///
/// Each value is summed the way `buildLeg` sums a leg's annotations, so a path's attributes equal the leg's
/// distance and duration (up to the order of floating-point additions). Nothing is precomputed: searches ask for
/// the arcs of their search trees only, through a per-thread `ArcValueMemo`, so small tables pay for the arcs
/// they use instead of a pass over the whole hierarchy. Immutable: safe to share between threads.
final class PathAttributes: @unchecked Sendable {
    /// Number of attributes carried (1 or 2) and which: slot 0 is distance if present, else duration.
    package let kinds: PathAttributeSet
    package let width: Int
    package let graph: RoutingGraph
    package let metric: RoutingMetric
    private let traffic: TrafficOverlay?

    /// The metric's cost of the cheapest turn from routing node `from` into `to`.
    private func turnCost(from: Int, to: Int) -> UInt32? { metric.turnCost(graph, from: from, to: to) }

    package init(graph: RoutingGraph, metric: RoutingMetric, kinds: PathAttributeSet) {
        self.graph = graph
        self.kinds = kinds
        self.metric = metric
        traffic = metric.traffic
        width = kinds.contains(.distance) && kinds.contains(.duration) ? 2 : 1
    }

    /// Value of driving routing node `node`'s whole directed edge, in slot order.
    @inline(__always)
    func nodeValue(_ node: Int) -> (Double, Double) {
        let d = Int(graph.routingEdge[node])
        var values = (0.0, 0.0)
        piece(directedEdge: d, from: 0, to: graph.edgeLength[d >> 1], into: &values)
        return values
    }

    /// Value of input arc `arc` (lower end `low`, upper end `high`) driven up (into `high`) or down (into `low`), in
    /// slot order: the entered node's edge and, for durations, the cost of the turn the arc stands for: the
    /// cheapest turn arc onto it as customization chose it (turn cost + entered edge's weight, first in turn order
    /// among equals).
    func inputArcValue(_ arc: Int, low: Int, high: Int, up: Bool) -> (Double, Double) {
        var values = nodeValue(up ? high : low)
        guard kinds.contains(.duration) else { return values }
        let cch = graph.cch
        let code = UInt32(arc << 1 | (up ? 0 : 1))
        var best = UInt64.max
        for tail in [low, high] {
            for turn in Int(cch.turnFirstOut[tail])..<Int(cch.turnFirstOut[tail + 1]) where cch.inputArc[turn] == code {
                let head = Int(cch.turnHead[turn])
                let weight = metric.nodeWeight[head]
                guard weight < CCHMetric.infinity else { continue }
                let total = UInt64(weight) + UInt64(metric.turnCost[turn])
                guard total < best else { continue }
                best = total
                let headValues = nodeValue(head)
                let turnDuration = Double(TurnCosts.duration(ofArcCost: metric.turnCost[turn]))
                if width == 1 { values.0 = headValues.0 + turnDuration } else { values.1 = headValues.1 + turnDuration }
            }
        }
        return values
    }

    @inline(__always)
    static func store(_ metres: Double, _ milliseconds: Double, kinds: PathAttributeSet, into buffer: UnsafeMutablePointer<Double>, at offset: Int) {
        if kinds.contains(.distance) {
            buffer[offset] = metres
            if kinds.contains(.duration) { buffer[offset + 1] = milliseconds }
        } else {
            buffer[offset] = milliseconds
        }
    }

    /// Attributes of driving directed edge d from `from` to `to` metres along it, into `values` (`width` slots).
    package func piece(directedEdge d: Int, from: Double, to: Double, into values: inout (Double, Double)) {
        let (metres, milliseconds) = PathAttributes.piece(graph, directedEdge: d, from: from, to: to, traffic: traffic)
        if kinds.contains(.distance) {
            values = (metres, kinds.contains(.duration) ? milliseconds : 0)
        } else {
            values = (milliseconds, 0)
        }
    }

    /// Metres and milliseconds of directed edge d between `from` and `to` metres, with `buildLeg`'s arithmetic
    /// (segments as `EdgeCostModel.segments` makes them, without allocating).
    package static func piece(_ graph: RoutingGraph, directedEdge d: Int, from: Double, to: Double, traffic: TrafficOverlay?) -> (Double, Double) {
        let edge = d >> 1, forward = d & 1 == 0
        let first = Int(graph.edgeShapeFirst[edge]), last = Int(graph.edgeShapeFirst[edge + 1]) - 1
        let total = graph.edgeLength[edge]
        let edgeTime = Double(graph.freeFlowTime(directedEdge: d))
        var travelled = 0.0, metres = 0.0, milliseconds = 0.0
        for step in 0..<max(0, last - first) {
            let start = forward ? first + step : last - step
            let end = forward ? start + 1 : start - 1
            let length = Geo.haversine(graph.coordinate(shapePoint: start), graph.coordinate(shapePoint: end))
            let typical = total > 0 ? edgeTime * length / total : edgeTime / Double(last - first)
            var current = typical
            if let traffic, let factor = traffic.factor(key: TrafficOverlay.key(segment: min(start, end), direction: forward ? 0 : 1)) {
                current = typical * factor
            }
            let pieceStart = max(from, travelled), pieceEnd = min(to, travelled + length)
            if pieceEnd > pieceStart {
                let share = (pieceEnd - pieceStart) / length
                metres += pieceEnd - pieceStart
                milliseconds += current * share
            }
            travelled += length
        }
        return (metres, milliseconds)
    }

    /// A snap's view of directed edge d in one pass over its segments: the metric's cost from the edge start to
    /// `position` metres (`EdgeCostModel.cost(directedEdge:upTo:metric:)`) and, in slot order, the attributes of the
    /// parts before and after it and of the whole edge (`piece`), each with the same arithmetic as those functions,
    /// so the values are identical; a matrix point needs all four, and each of those walks every segment.
    /// `segmentLengths`, when given, holds the edge's segment lengths in stored order as `Geo.haversine` computes them
    /// (`SegmentLengthCache`), which the walk then reads instead of measuring.
    package func split(directedEdge d: Int, at position: Double, segmentLengths: UnsafeBufferPointer<Double>? = nil)
        -> (cost: UInt32, before: (Double, Double), after: (Double, Double), whole: (Double, Double)) {
        let edge = d >> 1, forward = d & 1 == 0
        let first = Int(graph.edgeShapeFirst[edge]), last = Int(graph.edgeShapeFirst[edge + 1]) - 1
        let total = graph.edgeLength[edge]
        let edgeTime = Double(graph.freeFlowTime(directedEdge: d))
        var travelled = 0.0
        var before = (0.0, 0.0), after = (0.0, 0.0), whole = (0.0, 0.0)
        // The cost's own sums (`EdgeCostModel.cost`), over the same segment times: this object's traffic is its metric's.
        var costTotal = 0.0, costBefore = 0.0, costTravelled = 0.0, costDone = false
        @inline(__always) func add(_ sum: inout (Double, Double), from: Double, to: Double, length: Double, current: Double) {
            let pieceStart = max(from, travelled), pieceEnd = min(to, travelled + length)
            if pieceEnd > pieceStart {
                sum.0 += pieceEnd - pieceStart
                sum.1 += current * ((pieceEnd - pieceStart) / length)
            }
        }
        let segments = max(0, last - first)
        for step in 0..<segments {
            let start = forward ? first + step : last - step
            let end = forward ? start + 1 : start - 1
            let length = segmentLengths.map { $0[forward ? step : segments - 1 - step] }
                ?? Geo.haversine(graph.coordinate(shapePoint: start), graph.coordinate(shapePoint: end))
            let typical = total > 0 ? edgeTime * length / total : edgeTime / Double(last - first)
            let key = TrafficOverlay.key(segment: min(start, end), direction: forward ? 0 : 1)
            var current = typical
            if let traffic, let factor = traffic.factor(key: key) { current = typical * factor }
            add(&before, from: 0, to: position, length: length, current: current)
            add(&after, from: position, to: total, length: length, current: current)
            add(&whole, from: 0, to: total, length: length, current: current)
            costTotal += current
            if !costDone {
                if costTravelled + length <= position {
                    costBefore += current
                    costTravelled += length
                } else {
                    if length > 0 { costBefore += current * max(0, position - costTravelled) / length }
                    costDone = true
                }
            }
            travelled += length
        }
        let weight = metric.nodeWeight[Int(graph.routingNodeOfEdge[d])]
        let cost = costTotal > 0 && costTotal.isFinite ? UInt32(min(Double(weight), (Double(weight) * costBefore / costTotal).rounded())) : 0
        func slots(_ value: (Double, Double)) -> (Double, Double) {
            kinds.contains(.distance) ? (value.0, kinds.contains(.duration) ? value.1 : 0) : (value.1, 0)
        }
        return (cost, slots(before), slots(after), slots(whole))
    }

    /// Attributes of a whole leg given as routing nodes from source to target, as `buildLeg` sums them.
    package func path(_ nodes: [Int], source: Snap, target: Snap, planner: RoutePlanner) -> (Double, Double) {
        var total = (0.0, 0.0)
        let durationSlot = kinds.contains(.distance) ? 1 : 0
        for (index, node) in nodes.enumerated() {
            if index > 0, kinds.contains(.duration), let turn = turnCost(from: nodes[index - 1], to: node).map(TurnCosts.duration(ofArcCost:)) {
                if durationSlot == 0 { total.0 += Double(turn) } else { total.1 += Double(turn) }
            }
            let d = Int(graph.routingEdge[node])
            let from = index == 0 ? planner.position(of: source, onDirectedEdge: d) : 0
            let to = index == nodes.count - 1 ? planner.position(of: target, onDirectedEdge: d) : graph.edgeLength[d >> 1]
            var values = (0.0, 0.0)
            piece(directedEdge: d, from: from, to: to, into: &values)
            total.0 += values.0; total.1 += values.1
        }
        return total
    }
}
