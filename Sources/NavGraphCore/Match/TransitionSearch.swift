import Foundation

/// Route lengths between the candidates of two consecutive trace points by a Dijkstra search on the turn graph from
/// each source candidate, bounded by cost (`MatchModel.costBound`) and by length: a step of map matching accepts no
/// route longer than its limit (tens to hundreds of metres), so each search stays among the few roads around its
/// start, where the hierarchy's upward searches would cover the whole elimination-tree path above it.
///
/// Each cell is the fastest route among those whose every node starts within `limitMetres` of the source (a
/// route that is fastest overall but longer than the limit is rejected by the step either way), measured with the
/// edges' stored lengths and the candidates' parts of their own edges. A target ahead on the source's own directed
/// edge is reached along it; a target behind it only by leaving and coming back (`allowLoops`). With a `Goal` (every
/// target within a radius of one fix), a node is not left when the straight line from its edge's end to the goal,
/// less the radius, would take the route past the limit: no target within the limit lies beyond it, so the search
/// covers an ellipse around the source and the fix instead of a disc around the source.
///
/// Lifetime: one per `MapMatcher` (its labels and heap are reused by every step).
/// Thread safety: one thread at a time.
final class TransitionSearch {
    private let graph: RoutingGraph
    private let metric: RoutingMetric
    // Labels of the current search: node → (cost, metres), in an open-addressing table cleared by stamp. The
    // object belongs to one thread, so its state skips dynamic exclusivity checks.
    @exclusivity(unchecked) private var slotNode = ContiguousArray<Int32>(repeating: -1, count: 1024)
    @exclusivity(unchecked) private var slotStamp = ContiguousArray<UInt32>(repeating: 0, count: 1024)
    @exclusivity(unchecked) private var slotCost = ContiguousArray<UInt32>(repeating: 0, count: 1024)
    @exclusivity(unchecked) private var slotMetres = ContiguousArray<Double>(repeating: 0, count: 1024)
    /// The node a label came from, or −2 − k when it came straight from the source's start k.
    @exclusivity(unchecked) private var slotParent = ContiguousArray<Int32>(repeating: -1, count: 1024)
    @exclusivity(unchecked) private var stamp: UInt32 = 0
    @exclusivity(unchecked) private var used = 0
    @exclusivity(unchecked) private var heap = MinHeap()
    /// A target's start: its node and column, the refund a label there overpays, the metres of its edge not driven
    /// (negated).
    private struct TargetStart { var node: Int; var column: Int; var refund: UInt32; var metres: Double }
    /// The current table's target starts (a few dozen: a linear scan is cheapest).
    @exclusivity(unchecked) private var targetStarts = ContiguousArray<TargetStart>()
    /// Bit `node & 63` is set for every node in `targetStarts`: most settled nodes skip the scan.
    @exclusivity(unchecked) private var targetBits: UInt64 = 0

    /// Where all of a table's targets lie: within `radius` metres (great circle) of `point`.
    struct Goal {
        var point: Coordinate
        var radius: Double
    }

    init(graph: RoutingGraph, metric: RoutingMetric) {
        self.graph = graph
        self.metric = metric
    }

    /// The table between `sources` and `targets` (points made for this metric with distance attributes): costs
    /// and metres, unreachable where no route qualifies.
    func compute(sources: [MatrixPoint?], targets: [MatrixPoint?], costBound: UInt32, limitMetres: Double,
                 allowLoops: Bool, goal: Goal? = nil) -> TravelMatrix {
        let columns = targets.count
        var cost = ContiguousArray<UInt32>(repeating: TravelMatrix.unreachable, count: sources.count * columns)
        var metres = ContiguousArray<Double>(repeating: 0, count: sources.count * columns)
        targetStarts.removeAll(keepingCapacity: true)
        targetBits = 0
        for (column, point) in targets.enumerated() {
            guard let point else { continue }
            for start in point.targets {
                targetBits |= 1 << UInt64(start.node & 63)
                // A target start's cost is `shift − refund`.
                targetStarts.append(TargetStart(node: start.node, column: column, refund: point.shift &- start.cost, metres: start.values.0))
            }
        }
        for (row, point) in sources.enumerated() {
            guard let point, !point.sources.isEmpty else { continue }
            let cells = row * columns
            // Targets ahead on a directed edge the source starts on: driven along it, nothing is faster. A target's
            // cost from its edge's start is the node's weight less its refund.
            for (node, departure) in point.partial where targetBits & (1 << UInt64(node & 63)) != 0 {
                for entry in targetStarts where entry.node == node {
                    let arrival = metric.nodeWeight[node] &- entry.refund
                    guard arrival >= departure, arrival - departure <= costBound, arrival - departure < cost[cells + entry.column],
                          let target = targets[entry.column] else { continue }
                    let d = Int(graph.routingEdge[node])
                    cost[cells + entry.column] = arrival - departure
                    metres[cells + entry.column] = position(target.snap, d) - position(point.snap, d)
                }
            }
            search(from: point, costBound: costBound, limitMetres: limitMetres, allowLoops: allowLoops, goal: goal) { node, label, length in
                guard targetBits & (1 << UInt64(node & 63)) != 0 else { return }
                for entry in targetStarts where entry.node == node {
                    let value = label &- entry.refund
                    if value < cost[cells + entry.column] {
                        cost[cells + entry.column] = value
                        metres[cells + entry.column] = length + entry.metres
                    }
                }
            }
        }
        return TravelMatrix(sourceCount: sources.count, destinationCount: columns, cost: cost, distance: metres,
                            exactDuration: nil, algorithm: "bounded Dijkstra per source")
    }

    /// The route `compute` scores between two points, as a leg: its cost and routing nodes from the source's start
    /// node to the target's; nil when none qualifies under the bounds (pass the goal `compute` had).
    func path(from source: MatrixPoint, to target: MatrixPoint, costBound: UInt32, limitMetres: Double,
              goal: Goal? = nil) -> (cost: Int, nodes: [Int])? {
        var best: (cost: UInt32, node: Int, direct: Bool)?
        for (node, departure) in source.partial {
            guard let arrival = target.partial.first(where: { $0.node == node })?.cost, arrival >= departure,
                  arrival - departure <= costBound, best.map({ arrival - departure < $0.cost }) ?? true else { continue }
            best = (arrival - departure, node, true)
        }
        search(from: source, costBound: costBound, limitMetres: limitMetres, allowLoops: true, goal: goal) { node, label, _ in
            for start in target.targets where start.node == node {
                let value = label &- (target.shift &- start.cost)
                if best.map({ value < $0.cost }) ?? true { best = (value, node, false) }
            }
        }
        guard let best else { return nil }
        if best.direct { return (Int(best.cost), [best.node]) }
        var nodes = [best.node], cursor = best.node
        while true {
            let slot = find(cursor)
            guard slot >= 0 else { return nil }
            let parent = Int(slotParent[slot])
            if parent <= -2 {
                nodes.append(source.sources[-2 - parent].node)
                break
            }
            nodes.append(parent)
            cursor = parent
        }
        return (Int(best.cost), nodes.reversed())
    }

    /// Metres from the start of directed edge d to a snap on it.
    private func position(_ snap: Snap, _ d: Int) -> Double {
        d & 1 == 0 ? snap.offset : graph.edgeLength[snap.edge] - snap.offset
    }

    /// Settles nodes in cost order from the point's source starts (whose own nodes are left first: a label there
    /// means a loop back onto the edge, reported only with `allowLoops`), calling `settled(node, cost, metres)`
    /// with the cost and length up to the end of the node's edge.
    private func search(from point: MatrixPoint, costBound: UInt32, limitMetres: Double, allowLoops: Bool, goal: Goal?,
                        settled: (Int, UInt32, Double) -> Void) {
        clear()
        let firstOut = graph.cch.turnFirstOut, head = graph.cch.turnHead
        let toGoal = goal.map(GoalDistance.init)
        for (index, start) in point.sources.enumerated()
        where start.values.0 + (toGoal?.atLeast(fromEndOf: start.node, graph) ?? 0) <= limitMetres {
            relax(from: start.node, parent: Int32(-2 - index), cost: start.cost, metres: start.values.0, costBound: costBound,
                  firstOut: firstOut, head: head)
        }
        // A point has a start per direction it may be left in: at most two.
        let firstStart = point.sources.first?.node ?? -1, lastStart = point.sources.last?.node ?? -1
        while let (key, node32) = heap.pop() {
            let node = Int(node32)
            let slot = find(node)
            guard slot >= 0, slotCost[slot] == key else { continue }
            let length = slotMetres[slot]
            if allowLoops || (node != firstStart && node != lastStart) { settled(node, key, length) }
            // Every target beyond this node lies further than the part of the route up to its edge's end, and at
            // least the straight line from there to the goal's circle further still.
            if length + (toGoal?.atLeast(fromEndOf: node, graph) ?? 0) <= limitMetres {
                relax(from: node, parent: node32, cost: key, metres: length, costBound: costBound, firstOut: firstOut, head: head)
            }
        }
    }

    /// Offers each turn out of `node` (reached at `cost`, `metres` up to its edge's end).
    @inline(__always)
    private func relax(from node: Int, parent: Int32, cost: UInt32, metres: Double, costBound: UInt32,
                       firstOut: UnsafeBufferPointer<UInt32>, head: UnsafeBufferPointer<UInt32>) {
        for arc in Int(firstOut[node])..<Int(firstOut[node + 1]) {
            let next = Int(head[arc])
            let weight = metric.nodeWeight[next]
            guard weight < CCHMetric.infinity else { continue }
            let candidate = UInt64(cost) + UInt64(weight) + UInt64(metric.turnCost[arc])
            guard candidate <= UInt64(costBound) else { continue }
            let length = metres + graph.edgeLength[Int(graph.routingEdge[next]) >> 1]
            let slot = insert(next)
            if UInt32(candidate) < slotCost[slot] {
                slotCost[slot] = UInt32(candidate)
                slotMetres[slot] = length
                slotParent[slot] = parent
                heap.push(UInt32(candidate), Int32(next))
            }
        }
    }

    /// A lower bound of the route metres from the end of a node's edge to any target of a `Goal`: the straight line to
    /// the goal less its radius, measured on a local plane and shortened by 0.5 % and 1 m, which more than covers that
    /// plane's error against the great circle over a search's few kilometres (edge lengths are great-circle sums).
    private struct GoalDistance {
        let latE7: Double, lonE7: Double, radius: Double
        /// Metres per 10⁻⁷ degree north, and east at the goal's latitude.
        let northScale: Double, eastScale: Double

        init(_ goal: Goal) {
            latE7 = goal.point.lat * 1e7
            lonE7 = goal.point.lon * 1e7
            radius = goal.radius
            northScale = Geo.earthRadius * Double.pi / 180 / 1e7
            eastScale = northScale * cos(goal.point.lat * Double.pi / 180)
        }

        @inline(__always)
        func atLeast(fromEndOf node: Int, _ graph: RoutingGraph) -> Double {
            let d = Int(graph.routingEdge[node]), edge = d >> 1
            let end = d & 1 == 0 ? Int(graph.edgeShapeFirst[edge + 1]) - 1 : Int(graph.edgeShapeFirst[edge])
            let north = (Double(graph.shapeLatE7[end]) - latE7) * northScale
            let east = (Double(graph.shapeLonE7[end]) - lonE7) * eastScale
            return max(0, (north * north + east * east).squareRoot() * 0.995 - 1 - radius)
        }
    }

    /// Starts a new search: every slot is free again.
    private func clear() {
        heap.removeAll()
        stamp &+= 1
        if stamp == 0 {
            for index in slotStamp.indices { slotStamp[index] = 0 }
            stamp = 1
        }
        used = 0
    }

    @inline(__always) private func hash(_ node: Int) -> Int { (node &* -7_046_029_254_386_353_131) >> 20 }

    /// The slot holding `node`'s label in this search, or -1.
    private func find(_ node: Int) -> Int {
        let mask = slotNode.count - 1
        var slot = hash(node) & mask
        while slotStamp[slot] == stamp {
            if slotNode[slot] == Int32(truncatingIfNeeded: node) { return slot }
            slot = (slot + 1) & mask
        }
        return -1
    }

    /// The slot of `node`'s label, claimed with no label yet (cost `UInt32.max`) when it has none.
    private func insert(_ node: Int) -> Int {
        if (used + 1) * 2 > slotNode.count { grow() }
        let mask = slotNode.count - 1
        var slot = hash(node) & mask
        while slotStamp[slot] == stamp {
            if slotNode[slot] == Int32(truncatingIfNeeded: node) { return slot }
            slot = (slot + 1) & mask
        }
        slotNode[slot] = Int32(truncatingIfNeeded: node)
        slotStamp[slot] = stamp
        slotCost[slot] = UInt32.max
        used += 1
        return slot
    }

    /// Doubles the table, moving this search's labels.
    private func grow() {
        let old = (node: slotNode, stamp: slotStamp, cost: slotCost, metres: slotMetres, parent: slotParent)
        let capacity = slotNode.count * 2
        slotNode = ContiguousArray(repeating: -1, count: capacity)
        slotStamp = ContiguousArray(repeating: 0, count: capacity)
        slotCost = ContiguousArray(repeating: 0, count: capacity)
        slotMetres = ContiguousArray(repeating: 0, count: capacity)
        slotParent = ContiguousArray(repeating: -1, count: capacity)
        let mask = capacity - 1
        for index in old.node.indices where old.stamp[index] == stamp {
            var slot = hash(Int(old.node[index])) & mask
            while slotStamp[slot] == stamp { slot = (slot + 1) & mask }
            slotNode[slot] = old.node[index]
            slotStamp[slot] = stamp
            slotCost[slot] = old.cost[index]
            slotMetres[slot] = old.metres[index]
            slotParent[slot] = old.parent[index]
        }
    }
}
