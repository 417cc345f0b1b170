/// Many-to-many travel-time costs on the customized hierarchy by elimination-tree buckets: one upward sweep per
/// target leaves its distances in buckets at the target's ancestors; one upward sweep per source then meets
/// them at its own ancestors. Costs equal the point-to-point hierarchy search's for every pair whose ends lie
/// on different road edges (same-edge pairs need the point-to-point rules, see `RoutePlanner`).
///
/// Lifetime: one table request. Thread safety: none; it owns its scratch arrays.
struct BucketTable {
    let graph: RoutingGraph
    let metric: RoutingMetric
    private var distance: [UInt32]
    private var onPath: [Bool]
    private var visited: [Int32] = []

    init(graph: RoutingGraph, metric: RoutingMetric) {
        self.graph = graph
        self.metric = metric
        distance = [UInt32](repeating: UInt32.max, count: graph.cch.nodeCount)
        onPath = [Bool](repeating: false, count: graph.cch.nodeCount)
    }

    /// Search endpoints of a snap: each usable direction of its edge with the cost to finish it (as a source)
    /// or the refund for stopping at the snap (as a target); both equal weight − cost up to the snap.
    private func endpoints(_ snap: Snap, planner: RoutePlanner) -> [Endpoint] {
        planner.partialCosts(of: snap, metric: metric).map { Endpoint(node: $0.key, cost: metric.nodeWeight[$0.key] - $0.value) }
    }

    /// Upward sweep over the ancestors of the start nodes with the given arc weights; returns the visited nodes
    /// in increasing rank with their distances (distance arrays are cleared again before returning).
    private mutating func sweep(_ starts: [(node: Int, cost: UInt32)], weights: UnsafeBufferPointer<UInt32>) -> [(node: Int32, distance: UInt32)] {
        let cch = graph.cch
        visited.removeAll(keepingCapacity: true)
        for start in starts {
            var node = start.node
            while node >= 0 && !onPath[node] {
                onPath[node] = true
                visited.append(Int32(node))
                node = Int(cch.parent[node])
            }
        }
        visited.sort()
        for start in starts where start.cost < distance[start.node] { distance[start.node] = start.cost }
        var result: [(node: Int32, distance: UInt32)] = []
        result.reserveCapacity(visited.count)
        for node32 in visited {
            let node = Int(node32)
            let base = distance[node]
            if base < CCHMetric.infinity {
                result.append((node32, base))
                for arc in Int(cch.firstUp[node])..<Int(cch.firstUp[node + 1]) {
                    let weight = weights[arc]
                    if weight >= CCHMetric.infinity { continue }
                    let head = Int(cch.upHead[arc])
                    let candidate = base &+ weight
                    if candidate < distance[head] { distance[head] = candidate }
                }
            }
        }
        for node32 in visited { distance[Int(node32)] = UInt32.max; onPath[Int(node32)] = false }
        return result
    }

    /// Cost in milliseconds for each source × destination, nil where unreachable or where both ends lie on one edge.
    mutating func costs(sources: [Snap], destinations: [Snap], costs: EdgeCostModel) -> [[Int?]] {
        let planner = RoutePlanner(graph: graph, costs: costs)
        // Buckets: per hierarchy node, (destination column, distance to it including the shift) entries.
        var bucketFirst: [Int32: Int] = [:]
        var bucketNext: [Int] = [], bucketColumn: [Int32] = [], bucketDistance: [UInt64] = []
        var shifts: [UInt64] = []
        for (column, destination) in destinations.enumerated() {
            let targets = endpoints(destination, planner: planner)
            let shift = targets.map(\.cost).max() ?? 0
            shifts.append(UInt64(shift))
            for (node, value) in sweep(targets.map { ($0.node, shift - $0.cost) }, weights: metric.hierarchy.backward) {
                bucketNext.append(bucketFirst[node] ?? -1)
                bucketFirst[node] = bucketColumn.count
                bucketColumn.append(Int32(column))
                bucketDistance.append(UInt64(value))
            }
        }
        var result = [[Int?]](repeating: [Int?](repeating: nil, count: destinations.count), count: sources.count)
        var best = [UInt64](repeating: UInt64.max, count: destinations.count)
        for (row, source) in sources.enumerated() {
            for index in best.indices { best[index] = UInt64.max }
            let starts = endpoints(source, planner: planner).map { ($0.node, $0.cost) }
            for (node, forward) in sweep(starts, weights: metric.hierarchy.forward) {
                var entry = bucketFirst[node] ?? -1
                while entry >= 0 {
                    let column = Int(bucketColumn[entry])
                    let total = UInt64(forward) + bucketDistance[entry]
                    if total < best[column] { best[column] = total }
                    entry = bucketNext[entry]
                }
            }
            for column in destinations.indices where destinations[column].edge != source.edge {
                let total = best[column]
                guard total != UInt64.max, total < UInt64(CCHMetric.infinity) + shifts[column] else { continue }
                result[row][column] = Int(total) - Int(shifts[column])
            }
        }
        return result
    }
}
