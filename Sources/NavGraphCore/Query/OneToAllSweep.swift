/// Travel times from a snapped point to every routing node, or from every routing node to it, on the hierarchy:
/// an elimination-tree upward search, then one downward sweep over all nodes in decreasing rank (PHAST).
///
/// Lifetime and threads: reusable for any number of sweeps on one graph; one thread at a time. Its node-sized
/// arrays are allocated once.
public final class OneToAllSweep {
    private let graph: RoutingGraph
    private let upward: UpwardSearch
    /// After `forward`: ms from the snap to the end of each node's edge, having left the snapped edge (nodes of
    /// the snapped edge are reached again only by a loop). After `backward`: ms from the end of each node's edge
    /// to the snap. `CCHMetric.infinity` or more where unreachable.
    public private(set) var label: ContiguousArray<UInt32>
    /// The snapped edge's routing nodes with the ms from their edge start to the snap.
    public private(set) var snapped: [(node: Int, partial: UInt32)] = []
    /// After `backward`: ms from the end of each snapped node's edge back round to the snap (a loop), if any.
    public private(set) var loop: [Int: UInt32] = [:]

    public init(graph: RoutingGraph) {
        self.graph = graph
        upward = UpwardSearch(graph: graph, width: 0)
        label = ContiguousArray(repeating: UInt32.max, count: graph.routingNodeCount)
    }

    /// Times from `snap`: every route leaves the snapped edge through one of its successors first.
    public func forward(from snap: Snap, metric: RoutingMetric, costs: EdgeCostModel) {
        let planner = RoutePlanner(graph: graph, costs: costs)
        snapped = planner.partialCosts(of: snap, metric: metric).map { ($0.key, $0.value) }.sorted { $0.node < $1.node }
        loop = [:]
        var seeds: [Int: UInt32] = [:]
        for (node, partial) in snapped {
            let remaining = metric.nodeWeight[node] - partial
            for arc in Int(graph.cch.turnFirstOut[node])..<Int(graph.cch.turnFirstOut[node + 1]) {
                let next = Int(graph.cch.turnHead[arc])
                let weight = metric.nodeWeight[next]
                guard weight < CCHMetric.infinity else { continue }
                let cost = remaining &+ metric.turnCost[arc] &+ weight
                if cost < seeds[next] ?? UInt32.max { seeds[next] = cost }
            }
        }
        let starts = seeds.sorted { $0.key < $1.key }.map { SearchStart(node: $0.key, cost: $0.value) }
        sweep(starts, up: metric.hierarchy.forward, down: metric.hierarchy.backward, shift: 0)
    }

    /// Times to `snap`: label is ms from the end of a node's edge to the snap (driving the snapped edge's start).
    public func backward(to snap: Snap, metric: RoutingMetric, costs: EdgeCostModel) {
        let planner = RoutePlanner(graph: graph, costs: costs)
        let point = MatrixPoint(snap: snap, metric: metric, planner: planner, attributes: nil)
        snapped = point.partial.map { ($0.node, $0.cost) }
        sweep(point.targets, up: metric.hierarchy.backward, down: metric.hierarchy.forward, shift: point.shift)
        // Snapped nodes keep -refund (shifted); subtract the shift everywhere, clamping the snapped nodes to 0.
        label.withUnsafeMutableBufferPointer { label in
            let shift = point.shift
            for node in 0..<label.count where label[node] < CCHMetric.infinity {
                label[node] = label[node] >= shift ? label[node] - shift : 0
            }
        }
        loop = [:]
        for (node, _) in snapped {
            var best = UInt32.max
            for arc in Int(graph.cch.turnFirstOut[node])..<Int(graph.cch.turnFirstOut[node + 1]) {
                let next = Int(graph.cch.turnHead[arc])
                let weight = metric.nodeWeight[next]
                guard weight < CCHMetric.infinity, label[next] < CCHMetric.infinity, !snapped.contains(where: { $0.node == next }) else { continue }
                best = min(best, metric.turnCost[arc] &+ weight &+ label[next])
            }
            if best < CCHMetric.infinity { loop[node] = best }
        }
    }

    /// Upward search from `starts` with `up` weights, then the sweep pulling `down` weights from higher neighbours.
    private func sweep(_ starts: [SearchStart], up: UnsafeBufferPointer<UInt32>, down: UnsafeBufferPointer<UInt32>, shift: UInt32) {
        upward.run(starts[...], weights: up)
        let cch = graph.cch
        label.withUnsafeMutableBufferPointer { label in
            for node in 0..<label.count { label[node] = UInt32.max }
            for node in upward.nodes { label[Int(node)] = upward.label[Int(node)] }
            let firstUp = cch.firstUp, upHead = cch.upHead
            var node = label.count - 1
            while node >= 0 {
                var best = label[node]
                for arc in Int(firstUp[node])..<Int(firstUp[node + 1]) {
                    let above = label[Int(upHead[arc])]
                    let weight = down[arc]
                    if above >= CCHMetric.infinity || weight >= CCHMetric.infinity { continue }
                    let candidate = above &+ weight
                    if candidate < best { best = candidate }
                }
                label[node] = best
                node -= 1
            }
        }
        upward.reset()
    }
}
