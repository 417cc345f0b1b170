/// Plain Dijkstra on the turn graph (arc a into v costs turnCost[a] + nodeWeight[v]): the reference every speed-up is checked against.
public final class DijkstraSearch: ShortestPathSearch {
    private let graph: RoutingGraph
    private var distance: ContiguousArray<UInt32>
    private var predecessor: ContiguousArray<Int32>
    private var touched = ContiguousArray<Int32>()
    private var heap = MinHeap()

    public init(graph: RoutingGraph) {
        self.graph = graph
        distance = ContiguousArray(repeating: UInt32.max, count: graph.routingNodeCount)
        predecessor = ContiguousArray(repeating: -1, count: graph.routingNodeCount)
    }

    public func search(sources: [Endpoint], targets: [Endpoint], metric: RoutingMetric) -> SearchResult? {
        reset()
        let maximumRefund = targets.map(\.cost).max() ?? 0
        var targetRefund: [Int: UInt32] = [:]
        for target in targets { targetRefund[target.node] = min(targetRefund[target.node] ?? UInt32.max, target.cost) }
        for source in sources where source.cost < distance[source.node] {
            if distance[source.node] == UInt32.max { touched.append(Int32(source.node)) }
            distance[source.node] = source.cost
            predecessor[source.node] = -1
            heap.push(source.cost, Int32(source.node))
        }
        var best = Int.max, bestNode = -1
        let firstOut = graph.cch.turnFirstOut, head = graph.cch.turnHead
        while let (key, node32) = heap.pop() {
            let node = Int(node32)
            if key != distance[node] { continue }
            if Int(key) - Int(maximumRefund) >= best { break }
            if let refund = targetRefund[node], Int(key) - Int(refund) < best {
                best = Int(key) - Int(refund)
                bestNode = node
            }
            for arc in Int(firstOut[node])..<Int(firstOut[node + 1]) {
                let next = Int(head[arc])
                let weight = metric.nodeWeight[next]
                if weight >= CCHMetric.infinity { continue }
                let candidate = key &+ weight &+ metric.turnCost[arc]
                if candidate < distance[next] {
                    if distance[next] == UInt32.max { touched.append(Int32(next)) }
                    distance[next] = candidate
                    predecessor[next] = Int32(node)
                    heap.push(candidate, Int32(next))
                }
            }
        }
        guard bestNode >= 0 else { return nil }
        var nodes: [Int] = []
        var cursor = bestNode
        while cursor >= 0 { nodes.append(cursor); cursor = Int(predecessor[cursor]) }
        return SearchResult(cost: best, nodes: nodes.reversed())
    }

    private func reset() {
        for node in touched { distance[Int(node)] = UInt32.max; predecessor[Int(node)] = -1 }
        touched.removeAll(keepingCapacity: true)
        heap.removeAll()
    }
}

/// A binary min-heap of (key, node) pairs with lazy deletion.
struct MinHeap {
    private var keys = ContiguousArray<UInt32>()
    private var nodes = ContiguousArray<Int32>()

    package var isEmpty: Bool { keys.isEmpty }

    package mutating func removeAll() { keys.removeAll(keepingCapacity: true); nodes.removeAll(keepingCapacity: true) }

    package mutating func push(_ key: UInt32, _ node: Int32) {
        keys.append(key); nodes.append(node)
        // Sift up over the buffers: every index stays below `count`, so no bounds checks are needed per step.
        keys.withUnsafeMutableBufferPointer { keys in
            nodes.withUnsafeMutableBufferPointer { nodes in
                var child = keys.count - 1
                while child > 0 {
                    let parent = (child &- 1) >> 1
                    if keys[parent] <= key { break }
                    keys[child] = keys[parent]; nodes[child] = nodes[parent]
                    child = parent
                }
                keys[child] = key; nodes[child] = node
            }
        }
    }

    mutating func pop() -> (UInt32, Int32)? {
        guard let topKey = keys.first, let topNode = nodes.first else { return nil }
        let lastKey = keys.removeLast(), lastNode = nodes.removeLast()
        if !keys.isEmpty {
            // Sift the last entry down from the root, moving smaller children up (indices below `count`).
            keys.withUnsafeMutableBufferPointer { keys in
                nodes.withUnsafeMutableBufferPointer { nodes in
                    let count = keys.count
                    var parent = 0
                    while true {
                        let left = 2 &* parent &+ 1
                        if left >= count { break }
                        var smallest = left
                        if left &+ 1 < count && keys[left &+ 1] < keys[left] { smallest = left &+ 1 }
                        if lastKey <= keys[smallest] { break }
                        keys[parent] = keys[smallest]; nodes[parent] = nodes[smallest]
                        parent = smallest
                    }
                    keys[parent] = lastKey; nodes[parent] = lastNode
                }
            }
        }
        return (topKey, topNode)
    }
}
