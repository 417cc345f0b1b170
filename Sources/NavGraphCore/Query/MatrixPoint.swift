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

    package init(snap: Snap, metric: RoutingMetric, planner: RoutePlanner, attributes: PathAttributes?) {
        self.snap = snap
        let graph = planner.graph
        let partial = planner.partialCosts(of: snap, metric: metric).map { ($0.key, $0.value) }.sorted { $0.0 < $1.0 }
        let shift = partial.map { metric.nodeWeight[$0.0] - $0.1 }.max() ?? 0
        var sources: [SearchStart] = [], targets: [SearchStart] = []
        for (node, cost) in partial {
            let d = Int(graph.routingEdge[node])
            let position = planner.position(of: snap, onDirectedEdge: d)
            let refund = metric.nodeWeight[node] - cost
            var remaining = (0.0, 0.0), driven = (0.0, 0.0)
            if let attributes {
                attributes.piece(directedEdge: d, from: position, to: graph.edgeLength[d >> 1], into: &remaining)
                attributes.piece(directedEdge: d, from: 0, to: position, into: &driven)
                let whole = attributes.nodeValue(node)
                driven.0 -= whole.0
                driven.1 -= whole.1
            }
            sources.append(SearchStart(node: node, cost: refund, values: remaining))
            targets.append(SearchStart(node: node, cost: shift - refund, values: driven))
        }
        self.partial = partial.map { (node: $0.0, cost: $0.1) }
        self.shift = shift
        self.sources = sources
        self.targets = targets
    }
}
