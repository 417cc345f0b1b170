import NavGraphCore
import CMetis

/// The core of a weighted junction graph, which is cut instead of the whole graph: dead-end trees are folded into
/// the junction they hang from, and each chain of degree-2 junctions between two core junctions becomes one edge
/// weighted by the chain's lightest edge (where a cut through the chain goes). The core is a fraction of the graph,
/// and its cuts are the graph's best cuts. `lift` turns a bisection of the core into one of the whole graph with
/// the same cut weight. Built and used by one thread for one split.
package struct JunctionGraphCore {
    /// The core graph (junction weights include what was folded into each junction); loop counts are not kept.
    package var core = WeightedJunctionGraph()
    /// Index in the whole graph of every core junction.
    package var coreJunctions: [idx_t] = []
    /// Folded tree junctions in the order they were removed, each with the junction it hung from (-1: none left).
    private var peeled: [(junction: idx_t, parent: idx_t)] = []
    /// Chain members, chain after chain; each chain lists its ends and how many members (from the first end) go
    /// with the first end when the chain is cut at its lightest edge.
    private var chainMembers: [idx_t] = []
    private var chains: [(end: idx_t, otherEnd: idx_t, start: Int, count: Int, withFirstEnd: Int)] = []

    package init(_ graph: WeightedJunctionGraph) {
        let count = graph.junctionCount
        var degree = [Int32](repeating: 0, count: count)
        for junction in 0..<count { degree[junction] = Int32(graph.xadj[junction + 1] - graph.xadj[junction]) }
        var removed = [Bool](repeating: false, count: count)
        var weight = graph.junctionWeight
        // Trees: junctions of degree ≤ 1, repeatedly, each folded into its one remaining neighbour.
        var stack: [idx_t] = []
        for junction in 0..<count where degree[junction] <= 1 { stack.append(idx_t(junction)) }
        while let junction = stack.popLast() {
            let index = Int(junction)
            if removed[index] { continue }
            removed[index] = true
            var parent: idx_t = -1
            for arc in Int(graph.xadj[index])..<Int(graph.xadj[index + 1]) where !removed[Int(graph.adjacency[arc])] {
                parent = graph.adjacency[arc]
                degree[Int(parent)] -= 1
                if degree[Int(parent)] == 1 { stack.append(parent) }
            }
            if parent >= 0 { weight[Int(parent)] += weight[index] }
            peeled.append((junction, parent))
        }
        // Chains: maximal paths of degree-2 junctions between core junctions of degree ≥ 3.
        var visited = [Bool](repeating: false, count: count)
        var chainEdges: [(idx_t, idx_t, idx_t)] = []
        /// The live neighbours of a degree-2 junction and the weights of the edges to them.
        func liveNeighbors(_ junction: Int) -> ((Int, idx_t), (Int, idx_t)) {
            var found = ((-1, idx_t(0)), (-1, idx_t(0)))
            for arc in Int(graph.xadj[junction])..<Int(graph.xadj[junction + 1]) where !removed[Int(graph.adjacency[arc])] {
                if found.0.0 < 0 { found.0 = (Int(graph.adjacency[arc]), graph.edgeWeight[arc]) } else {
                    found.1 = (Int(graph.adjacency[arc]), graph.edgeWeight[arc]); break
                }
            }
            return found
        }
        var path: [idx_t] = [], edges: [idx_t] = []
        /// Walks from `junction` away from `previous`; appends the degree-2 junctions passed and the edge weights
        /// crossed, and returns the core junction reached (nil: a cycle of degree-2 junctions).
        func walk(from previous: Int, to junction: Int, weight: idx_t, start: Int) -> Int? {
            var previous = previous, current = junction
            edges.append(weight)
            while degree[current] == 2 && !removed[current] {
                if current == start { return nil }
                visited[current] = true
                path.append(idx_t(current))
                let (first, second) = liveNeighbors(current)
                let next = first.0 == previous ? second : first
                edges.append(next.1)
                previous = current
                current = next.0
            }
            return current
        }
        for junction in 0..<count where degree[junction] == 2 && !removed[junction] && !visited[junction] {
            visited[junction] = true
            let (left, right) = liveNeighbors(junction)
            path.removeAll(keepingCapacity: true); edges.removeAll(keepingCapacity: true)
            guard let leftEnd = walk(from: junction, to: left.0, weight: left.1, start: junction) else { continue }
            path.reverse(); edges.reverse()
            path.append(idx_t(junction))
            guard let rightEnd = walk(from: junction, to: right.0, weight: right.1, start: junction) else { continue }
            // path: the members from leftEnd's side to rightEnd's; edges[i] joins member i - 1 (or leftEnd) to member i.
            var lightest = 0
            for index in edges.indices where edges[index] < edges[lightest] { lightest = index }
            let start = chainMembers.count
            for (index, member) in path.enumerated() {
                removed[Int(member)] = true
                chainMembers.append(member)
                weight[index < lightest ? leftEnd : rightEnd] += weight[Int(member)]
            }
            chains.append((idx_t(leftEnd), idx_t(rightEnd), start, path.count, lightest))
            if leftEnd != rightEnd { chainEdges.append((idx_t(leftEnd), idx_t(rightEnd), edges[lightest])) }
        }
        buildCore(graph, removed: removed, weight: weight, chainEdges: chainEdges)
    }

    /// The junctions left, their edges among themselves and one edge per chain; parallel edges merged (weights added).
    private mutating func buildCore(_ graph: WeightedJunctionGraph, removed: [Bool], weight: [idx_t], chainEdges: [(idx_t, idx_t, idx_t)]) {
        var local = [idx_t](repeating: -1, count: graph.junctionCount)
        for junction in 0..<graph.junctionCount where !removed[junction] {
            local[junction] = idx_t(coreJunctions.count)
            coreJunctions.append(idx_t(junction))
        }
        var extraFirst = [Int](repeating: 0, count: coreJunctions.count + 1)
        for (a, b, _) in chainEdges {
            extraFirst[Int(local[Int(a)]) + 1] += 1
            extraFirst[Int(local[Int(b)]) + 1] += 1
        }
        for index in 0..<coreJunctions.count { extraFirst[index + 1] += extraFirst[index] }
        var extra = [(idx_t, idx_t)](repeating: (0, 0), count: extraFirst[coreJunctions.count])
        var fill = extraFirst
        for (a, b, w) in chainEdges {
            let la = Int(local[Int(a)]), lb = Int(local[Int(b)])
            extra[fill[la]] = (idx_t(lb), w); fill[la] += 1
            extra[fill[lb]] = (idx_t(la), w); fill[lb] += 1
        }
        core.xadj.reserveCapacity(coreJunctions.count + 1)
        var list: [(idx_t, idx_t)] = []
        for (index, junction) in coreJunctions.enumerated() {
            list.removeAll(keepingCapacity: true)
            for arc in Int(graph.xadj[Int(junction)])..<Int(graph.xadj[Int(junction) + 1]) {
                let neighbor = local[Int(graph.adjacency[arc])]
                if neighbor >= 0 { list.append((neighbor, graph.edgeWeight[arc])) }
            }
            list.append(contentsOf: extra[extraFirst[index]..<extraFirst[index + 1]])
            list.sort { $0.0 < $1.0 }
            for (neighbor, w) in list where neighbor != idx_t(index) {
                if let last = core.adjacency.last, core.adjacency.count > Int(core.xadj[index]), last == neighbor {
                    core.edgeWeight[core.edgeWeight.count - 1] += w
                } else {
                    core.adjacency.append(neighbor)
                    core.edgeWeight.append(w)
                }
            }
            core.xadj.append(idx_t(core.adjacency.count))
            core.junctionWeight.append(max(1, weight[Int(junction)]))
            core.loopNodes.append(0)
        }
    }

    /// The side of every junction of the whole graph, from the side of every core junction: chain members go with
    /// the end on their side of the chain's lightest edge, tree junctions with the junction they hung from.
    package func lift(coreSide: [idx_t], junctionCount: Int) -> [idx_t] {
        var side = [idx_t](repeating: 0, count: junctionCount)
        for (index, junction) in coreJunctions.enumerated() { side[Int(junction)] = coreSide[index] }
        for chain in chains {
            for index in 0..<chain.count {
                side[Int(chainMembers[chain.start + index])] = side[Int(index < chain.withFirstEnd ? chain.end : chain.otherEnd)]
            }
        }
        for (junction, parent) in peeled.reversed() where parent >= 0 { side[Int(junction)] = side[Int(parent)] }
        return side
    }
}
