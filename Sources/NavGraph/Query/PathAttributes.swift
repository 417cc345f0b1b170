/// What a many-to-many query carries along each chosen fastest path besides its cost.
public struct PathAttributeSet: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Metres driven.
    public static let distance = PathAttributeSet(rawValue: 1)
    /// Exact seconds of the segments driven (unrounded, without avoid penalties), as legs report them.
    public static let duration = PathAttributeSet(rawValue: 2)
}

/// Metres and exact milliseconds of routing nodes and of hierarchy arcs along their unpacked paths, for one metric.
///
/// Each value is summed the way `buildLeg` sums a leg's annotations, so a path's attributes equal the leg's
/// distance and duration (up to the order of floating-point additions). Immutable once built: safe to share
/// between threads.
final class PathAttributes: @unchecked Sendable {
    /// Number of attributes carried (1 or 2) and which: slot 0 is distance if present, else duration.
    let kinds: PathAttributeSet
    let width: Int
    /// Value of driving each routing node's whole directed edge, `width` values per node.
    let node: ContiguousArray<Double>
    /// Value of each CCH arc's unpacked path upward (low to high) and downward, `width` values per arc.
    let up: ContiguousArray<Double>
    let down: ContiguousArray<Double>
    private let graph: RoutingGraph
    private let traffic: TrafficOverlay?
    private let metric: RoutingMetric

    /// The metric's cost of the cheapest turn from routing node `from` into `to`.
    private func turnCost(from: Int, to: Int) -> UInt32? { metric.turnCost(graph, from: from, to: to) }

    init(graph: RoutingGraph, metric: RoutingMetric, kinds: PathAttributeSet) {
        self.graph = graph
        self.kinds = kinds
        self.metric = metric
        traffic = metric.traffic
        let width = kinds.contains(.distance) && kinds.contains(.duration) ? 2 : 1
        self.width = width
        let cch = graph.cch
        var node = ContiguousArray<Double>(repeating: 0, count: max(1, cch.nodeCount * width))
        let traffic = metric.traffic
        let nodeCount = cch.nodeCount
        node.withUnsafeMutableBufferPointer { buffer in
            let shared = SharedBuffer(buffer)
            let workers = Parallel.workerCount
            Parallel.run(workers) { worker in
                var index = worker
                while index < nodeCount {
                    let d = Int(graph.routingEdge[index])
                    let (metres, milliseconds) = PathAttributes.piece(graph, directedEdge: d, from: 0, to: graph.edgeLength[d >> 1], traffic: traffic)
                    PathAttributes.store(metres, milliseconds, kinds: kinds, into: shared.pointer, at: index * width)
                    index += workers
                }
            }
        }
        self.node = node
        var up = ContiguousArray<Double>(repeating: 0, count: max(1, cch.arcCount * width))
        var down = up
        let forwardVia = metric.hierarchy.forwardVia, backwardVia = metric.hierarchy.backwardVia
        let firstUp = cch.firstUp, upHead = cch.upHead
        // Input arcs: the node entered (high going up, low going down).
        for low in 0..<nodeCount {
            for arc in Int(firstUp[low])..<Int(firstUp[low + 1]) {
                let high = Int(upHead[arc])
                for slot in 0..<width {
                    if forwardVia[arc] < 0 { up[arc * width + slot] = node[high * width + slot] }
                    if backwardVia[arc] < 0 { down[arc * width + slot] = node[low * width + slot] }
                }
            }
        }
        // Durations include the cost of the turn each input arc stands for: the cheapest turn arc onto it, as
        // customization chose it (turn cost + entered edge's weight).
        if kinds.contains(.duration) {
            let slot = width - 1
            var bestForward = ContiguousArray<UInt64>(repeating: UInt64.max, count: max(1, cch.arcCount))
            var bestBackward = bestForward
            for tail in 0..<nodeCount {
                for turn in Int(cch.turnFirstOut[tail])..<Int(cch.turnFirstOut[tail + 1]) {
                    let entered = metric.nodeWeight[Int(cch.turnHead[turn])]
                    let code = cch.inputArc[turn]
                    guard entered < CCHMetric.infinity, code != UInt32.max else { continue }
                    let turnCost = metric.turnCost[turn]
                    let weight = UInt64(entered) + UInt64(turnCost)
                    let arc = Int(code >> 1)
                    if code & 1 == 0 {
                        if weight < bestForward[arc] && forwardVia[arc] < 0 {
                            bestForward[arc] = weight
                            up[arc * width + slot] = node[Int(cch.turnHead[turn]) * width + slot] + Double(TurnCosts.duration(ofArcCost: turnCost))
                        }
                    } else if weight < bestBackward[arc] && backwardVia[arc] < 0 {
                        bestBackward[arc] = weight
                        down[arc * width + slot] = node[Int(cch.turnHead[turn]) * width + slot] + Double(TurnCosts.duration(ofArcCost: turnCost))
                    }
                }
            }
        }
        // Shortcuts, over lower triangles bottom-up as customization enumerates them: when x is processed, the arcs
        // leaving x upward are final. The shortcut y -> z takes the triangle whose middle node the metric chose.
        var arcOfNeighbor = ContiguousArray<Int32>(repeating: -1, count: max(1, nodeCount))
        for x in 0..<nodeCount {
            let begin = Int(firstUp[x]), end = Int(firstUp[x + 1])
            if end - begin < 2 { continue }
            for arc in begin..<end { arcOfNeighbor[Int(upHead[arc])] = Int32(arc) }
            let middle = Int32(x)
            for lowerArc in begin..<end {
                let y = Int(upHead[lowerArc])
                for topArc in Int(firstUp[y])..<Int(firstUp[y + 1]) {
                    let upChosen = forwardVia[topArc] == middle, downChosen = backwardVia[topArc] == middle
                    guard upChosen || downChosen else { continue }
                    let otherArc = Int(arcOfNeighbor[Int(upHead[topArc])])
                    if otherArc < 0 { continue }
                    for slot in 0..<width {
                        // y -> x -> z: down x-y, then up x-z; z -> x -> y: down x-z, then up x-y.
                        if upChosen { up[topArc * width + slot] = down[lowerArc * width + slot] + up[otherArc * width + slot] }
                        if downChosen { down[topArc * width + slot] = down[otherArc * width + slot] + up[lowerArc * width + slot] }
                    }
                }
            }
            for arc in begin..<end { arcOfNeighbor[Int(upHead[arc])] = -1 }
        }
        self.up = up
        self.down = down
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
    func piece(directedEdge d: Int, from: Double, to: Double, into values: inout (Double, Double)) {
        let (metres, milliseconds) = PathAttributes.piece(graph, directedEdge: d, from: from, to: to, traffic: traffic)
        if kinds.contains(.distance) {
            values = (metres, kinds.contains(.duration) ? milliseconds : 0)
        } else {
            values = (milliseconds, 0)
        }
    }

    /// Metres and milliseconds of directed edge d between `from` and `to` metres, with `buildLeg`'s arithmetic
    /// (segments as `EdgeCostModel.segments` makes them, without allocating).
    static func piece(_ graph: RoutingGraph, directedEdge d: Int, from: Double, to: Double, traffic: TrafficOverlay?) -> (Double, Double) {
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

    /// Attributes of a whole leg given as routing nodes from source to target, as `buildLeg` sums them.
    func path(_ nodes: [Int], source: Snap, target: Snap, planner: RoutePlanner) -> (Double, Double) {
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
