/// One-to-many costs by restricted elimination-tree sweeps (RPHAST): the targets' ancestors in the elimination
/// tree form the only nodes a downward path to a target can use, so after each source's upward search one sweep
/// over that set in decreasing rank gives the exact cost to every target. Cheaper than buckets when few sources
/// face many targets; it gives costs only (the bucket engine gives the leg's own path attributes).
///
/// Lifetime and threads: one per table; `costs` runs its rows on all cores, each worker with its own labels.
final class TargetSweep {
    /// The restricted set in decreasing rank, and its arcs as positions within it: the upper neighbours of
    /// `nodes[i]` are `head[first[i]..<first[i + 1]]` with downward weights `weight[…]`.
    private(set) var nodes = ContiguousArray<Int32>()
    private var first = ContiguousArray<UInt32>()
    private var head = ContiguousArray<UInt32>()
    private var weight = ContiguousArray<UInt32>()
    /// Position of each node in `nodes` (-1 outside the set).
    private var position: ContiguousArray<Int32>

    /// Upward arcs of the restricted set: one source's sweep reads each once.
    private(set) var arcCount = 0
    /// Upward arcs summed over the targets' own search spaces (what building their buckets would relax).
    private(set) var targetSearchArcs = 0
    private let graph: RoutingGraph

    /// The set of ancestors of `targets`' search starts.
    package init(graph: RoutingGraph, targets: [MatrixPoint?]) {
        self.graph = graph
        let cch = graph.cch
        position = ContiguousArray(repeating: -1, count: max(1, cch.nodeCount))
        for point in targets {
            for start in point?.targets ?? [] {
                var node = start.node
                while node >= 0 {
                    let degree = Int(cch.firstUp[node + 1] - cch.firstUp[node])
                    targetSearchArcs += degree
                    if position[node] < 0 {
                        position[node] = 0
                        nodes.append(Int32(node))
                        arcCount += degree
                    }
                    node = Int(cch.parent[node])
                }
            }
        }
    }

    /// Orders the set and gathers its arcs with the `down` weights (backward weights for a forward table).
    func prepare(down: UnsafeBufferPointer<UInt32>) {
        let cch = graph.cch
        nodes.sort(by: >)
        for (index, node) in nodes.enumerated() { position[Int(node)] = Int32(index) }
        first.reserveCapacity(nodes.count + 1)
        head.reserveCapacity(arcCount)
        weight.reserveCapacity(arcCount)
        first.append(0)
        for node32 in nodes {
            let node = Int(node32)
            for arc in Int(cch.firstUp[node])..<Int(cch.firstUp[node + 1]) where down[arc] < CCHMetric.infinity {
                head.append(UInt32(position[Int(cch.upHead[arc])]))
                weight.append(down[arc])
            }
            first.append(UInt32(head.count))
        }
    }

    /// Fills `best` (one entry per position) with the cost from the upward search's labels to every node of the set.
    package func sweep(from search: UpwardSearch, into best: UnsafeMutableBufferPointer<UInt32>) {
        for index in 0..<best.count { best[index] = UInt32.max }
        for node32 in search.nodes {
            let index = Int(position[Int(node32)])
            if index >= 0 { best[index] = search.label[Int(node32)] }
        }
        first.withUnsafeBufferPointer { first in
            head.withUnsafeBufferPointer { head in
                weight.withUnsafeBufferPointer { weight in
                    for index in 0..<best.count {
                        var value = best[index]
                        for arc in Int(first[index])..<Int(first[index + 1]) {
                            let above = best[Int(head[arc])]
                            if above >= CCHMetric.infinity { continue }
                            let candidate = above &+ weight[arc]
                            if candidate < value { value = candidate }
                        }
                        best[index] = value
                    }
                }
            }
        }
    }

    /// Position of routing node `node` in the set (-1 if outside).
    @inline(__always) package func index(of node: Int) -> Int { Int(position[node]) }
}
