import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Routes consecutive pairs of `points` with the hierarchy and with Dijkstra on one metric and expects equal costs and
/// well-formed hierarchy paths. Returns how many pairs snapped and how many of those had a route.
func compareHierarchyWithDijkstra(router: Router, metric: RoutingMetric, points: [Coordinate], options: RouteOptions,
                                  label: String) throws -> (compared: Int, reachable: Int) {
    var compared = 0, reachable = 0
    for pair in 0..<(points.count / 2) {
        guard let source = try? router.snap(points[2 * pair], index: 0, options: options, metric: metric),
              let target = try? router.snap(points[2 * pair + 1], index: 1, options: options, metric: metric) else { continue }
        let fast = router.legPath(from: source, to: target, metric: metric, algorithm: .hierarchy)
        let reference = router.legPath(from: source, to: target, metric: metric, algorithm: .dijkstra)
        compared += 1
        #expect(fast?.cost == reference?.cost, "pair \(pair) on \(label): hierarchy \(String(describing: fast?.cost)) vs Dijkstra \(String(describing: reference?.cost))")
        guard let fast else { continue }
        reachable += 1
        try checkPath(fast, graph: router.graph, metric: metric, router: router)
    }
    return (compared, reachable)
}

/// Checks that a path is a chain of allowed turns and that its edge and turn weights add up to the reported cost.
func checkPath(_ path: Router.LegPath, graph: RoutingGraph, metric: RoutingMetric, router: Router) throws {
    let costs = EdgeCostModel(graph: graph)
    for (from, to) in zip(path.nodes, path.nodes.dropFirst()) {
        let arcs = Int(graph.cch.turnFirstOut[from])..<Int(graph.cch.turnFirstOut[from + 1])
        #expect(arcs.contains { Int(graph.cch.turnHead[$0]) == to }, "no turn from routing node \(from) to \(to)")
    }
    guard let first = path.nodes.first, let last = path.nodes.last else {
        Issue.record("empty path")
        return
    }
    func position(_ snap: Snap, _ node: Int) -> Double {
        let d = Int(graph.routingEdge[node])
        return d & 1 == 0 ? snap.offset : graph.edgeLength[snap.edge] - snap.offset
    }
    #expect(Int(graph.routingEdge[first]) >> 1 == path.source.edge)
    #expect(Int(graph.routingEdge[last]) >> 1 == path.target.edge)
    let departure = Int(costs.cost(directedEdge: Int(graph.routingEdge[first]), upTo: position(path.source, first), metric: metric))
    let arrival = Int(costs.cost(directedEdge: Int(graph.routingEdge[last]), upTo: position(path.target, last), metric: metric))
    var total = Int(metric.nodeWeight[first]) - departure
    for (from, node) in zip(path.nodes, path.nodes.dropFirst()) {
        total += Int(metric.nodeWeight[node]) + Int(metric.turnCost(graph, from: from, to: node) ?? 0)
    }
    total -= Int(metric.nodeWeight[last]) - arrival
    #expect(total == path.cost, "path weights add up to \(total), reported \(path.cost)")
}
