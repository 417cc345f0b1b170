/// A snapped matrix point as search starts: as a source (the rest of its edge to drive) and as a target
/// (the part of its edge not driven is refunded), with the partial edge costs legs use (`RoutePlanner`).
/// Immutable once made, so tables and threads share it freely (map matching uses each candidate's in two steps).
final class MatrixPoint: Sendable {
    package let snap: Snap
    /// Forward search starts: cost and attributes from the snap to the end of each usable direction's edge.
    package let sources: [SearchStart]
    /// Backward search starts: `shift` − the refund of each usable direction, attributes of the part driven
    /// minus the whole edge (arcs add the whole edge they enter).
    package let targets: [SearchStart]
    /// The largest refund, added to every backward label so that labels stay unsigned (as `CCHSearch` does).
    package let shift: UInt32
    /// Cost from the start of each usable direction's edge to the snap.
    package let partial: [(node: Int, cost: UInt32)]

    /// `segmentLengths`: the snapped edge's segment lengths for `PathAttributes.split`, when the caller has them.
    package init(snap: Snap, metric: RoutingMetric, planner: RoutePlanner, attributes: PathAttributes?,
                 segmentLengths: UnsafeBufferPointer<Double>? = nil) {
        self.snap = snap
        let graph = planner.graph
        // Per usable direction (as `RoutePlanner.partialCosts` picks them), in node order: the cost from the edge
        // start to the snap and the attributes of the parts after and before it (the latter minus the whole edge).
        var directions: [(node: Int, cost: UInt32, remaining: (Double, Double), driven: (Double, Double))] = []
        for direction in 0..<2 {
            let d = 2 * snap.edge + direction
            guard snap.directions.contains(.of(directedEdge: d)) else { continue }
            let node = Int(graph.routingNodeOfEdge[d])
            guard node >= 0, metric.nodeWeight[node] < CCHMetric.infinity else { continue }
            let position = planner.position(of: snap, onDirectedEdge: d)
            if let attributes {
                let split = attributes.split(directedEdge: d, at: position, segmentLengths: segmentLengths)
                directions.append((node, split.cost, split.after, (split.before.0 - split.whole.0, split.before.1 - split.whole.1)))
            } else {
                directions.append((node, planner.costs.cost(directedEdge: d, upTo: position, metric: metric), (0, 0), (0, 0)))
            }
        }
        directions.sort { $0.node < $1.node }
        let shift = directions.map { metric.nodeWeight[$0.node] - $0.cost }.max() ?? 0
        var sources: [SearchStart] = [], targets: [SearchStart] = []
        for direction in directions {
            let refund = metric.nodeWeight[direction.node] - direction.cost
            sources.append(SearchStart(node: direction.node, cost: refund, values: direction.remaining))
            targets.append(SearchStart(node: direction.node, cost: shift - refund, values: direction.driven))
        }
        self.partial = directions.map { (node: $0.node, cost: $0.cost) }
        self.shift = shift
        self.sources = sources
        self.targets = targets
    }
}
