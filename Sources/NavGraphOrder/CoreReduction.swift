import NavGraphCore
import CMetis

/// Shrinks an undirected graph before nested dissection: dead-end trees (repeatedly removed nodes of degree ≤ 1) and
/// chains of degree-2 nodes between two core nodes are taken out and ordered at the bottom; each chain is replaced by
/// one edge between its ends (the fill its elimination adds), so the core keeps the connectivity METIS must cut.
/// Any order gives an exact CCH; this one adds no fill below the core and keeps chains to logarithmic tree depth.
public struct CoreReduction {
    /// What is removed: nothing, dead-end trees only, or trees and degree-2 chains.
    public enum Mode: String, Sendable { case none, trees, treesAndChains }

    /// Removed nodes in elimination order: trees leaf-first, then every chain in path-dissection order.
    package var bottom: [idx_t] = []
    /// Original id of every core node (core node i is `coreNodes[i]`).
    package var coreNodes: [idx_t] = []
    /// The core: the remaining nodes, their remaining edges and one edge per removed chain (no loops, no duplicates).
    package var core = MetisGraph(xadj: [0], adjacency: [])

    package init(_ graph: MetisGraph, mode: Mode = .treesAndChains) {
        let nodeCount = graph.nodeCount
        var degree = [Int32](repeating: 0, count: nodeCount)
        for node in 0..<nodeCount { degree[node] = Int32(graph.xadj[node + 1] - graph.xadj[node]) }
        var removed = [Bool](repeating: false, count: nodeCount)
        if mode != .none { peelTrees(graph, degree: &degree, removed: &removed) }
        let chainEdges = mode == .treesAndChains ? removeChains(graph, degree: degree, removed: &removed) : []
        buildCore(graph, removed: removed, chainEdges: chainEdges)
    }

    /// Removes nodes of degree ≤ 1 until none is left, in that order (each has at most one neighbour left when removed).
    private mutating func peelTrees(_ graph: MetisGraph, degree: inout [Int32], removed: inout [Bool]) {
        var stack: [idx_t] = []
        for node in 0..<graph.nodeCount where degree[node] <= 1 { stack.append(idx_t(node)) }
        while let node = stack.popLast() {
            let index = Int(node)
            if removed[index] { continue }
            removed[index] = true
            bottom.append(node)
            for arc in Int(graph.xadj[index])..<Int(graph.xadj[index + 1]) {
                let neighbor = Int(graph.adjacency[arc])
                if removed[neighbor] { continue }
                degree[neighbor] -= 1
                if degree[neighbor] == 1 { stack.append(idx_t(neighbor)) }
            }
        }
    }

    /// Removes every maximal path of degree-2 nodes whose two ends are core nodes of degree ≥ 3 (the ends may be the
    /// same node); a cycle made only of degree-2 nodes stays in the core. Returns the end pairs to join in the core.
    private mutating func removeChains(_ graph: MetisGraph, degree: [Int32], removed: inout [Bool]) -> [(idx_t, idx_t)] {
        var chainEdges: [(idx_t, idx_t)] = []
        var visited = [Bool](repeating: false, count: graph.nodeCount)
        var chain: [idx_t] = []
        func liveNeighbors(_ node: Int) -> (Int, Int) {
            var found = (-1, -1)
            for arc in Int(graph.xadj[node])..<Int(graph.xadj[node + 1]) {
                let neighbor = Int(graph.adjacency[arc])
                if removed[neighbor] { continue }
                if found.0 < 0 { found.0 = neighbor } else { found.1 = neighbor; break }
            }
            return found
        }
        /// Walks from `node` away from `previous` through degree-2 nodes; appends them and returns the end reached.
        func walk(from previous: Int, to node: Int, start: Int) -> Int? {
            var previous = previous, current = node
            while degree[current] == 2 && !removed[current] {
                if current == start { return nil }  // a cycle of degree-2 nodes
                visited[current] = true
                chain.append(idx_t(current))
                let (first, second) = liveNeighbors(current)
                let next = first == previous ? second : first
                previous = current
                current = next
            }
            return current
        }
        for node in 0..<graph.nodeCount where degree[node] == 2 && !removed[node] && !visited[node] {
            visited[node] = true
            let (left, right) = liveNeighbors(node)
            chain.removeAll(keepingCapacity: true)
            guard let leftEnd = walk(from: node, to: left, start: node) else { continue }
            chain.reverse()
            chain.append(idx_t(node))
            guard let rightEnd = walk(from: node, to: right, start: node) else { continue }
            for member in chain { removed[Int(member)] = true }
            appendDissected(chain[...])
            if leftEnd != rightEnd { chainEdges.append((idx_t(leftEnd), idx_t(rightEnd))) }
        }
        return chainEdges
    }

    /// Orders a path so that its middle node comes last and each half is ordered the same way first.
    private mutating func appendDissected(_ path: ArraySlice<idx_t>) {
        guard !path.isEmpty else { return }
        let middle = path.startIndex + path.count / 2
        appendDissected(path[path.startIndex..<middle])
        appendDissected(path[(middle + 1)...])
        bottom.append(path[middle])
    }

    /// The subgraph induced by the nodes not removed, plus the chain edges; adjacency lists sorted and deduplicated.
    private mutating func buildCore(_ graph: MetisGraph, removed: [Bool], chainEdges: [(idx_t, idx_t)]) {
        var local = [idx_t](repeating: -1, count: graph.nodeCount)
        for node in 0..<graph.nodeCount where !removed[node] {
            local[node] = idx_t(coreNodes.count)
            coreNodes.append(idx_t(node))
        }
        var extraFirst = [Int](repeating: 0, count: coreNodes.count + 1)
        for (a, b) in chainEdges {
            extraFirst[Int(local[Int(a)]) + 1] += 1
            extraFirst[Int(local[Int(b)]) + 1] += 1
        }
        for index in 0..<coreNodes.count { extraFirst[index + 1] += extraFirst[index] }
        var extra = [idx_t](repeating: 0, count: extraFirst[coreNodes.count])
        var fill = extraFirst
        for (a, b) in chainEdges {
            let la = Int(local[Int(a)]), lb = Int(local[Int(b)])
            extra[fill[la]] = idx_t(lb); fill[la] += 1
            extra[fill[lb]] = idx_t(la); fill[lb] += 1
        }
        var xadj: [idx_t] = [0]
        xadj.reserveCapacity(coreNodes.count + 1)
        var adjacency: [idx_t] = []
        var list: [idx_t] = []
        for (index, node) in coreNodes.enumerated() {
            list.removeAll(keepingCapacity: true)
            for arc in Int(graph.xadj[Int(node)])..<Int(graph.xadj[Int(node) + 1]) {
                let neighbor = local[Int(graph.adjacency[arc])]
                if neighbor >= 0 { list.append(neighbor) }
            }
            list.append(contentsOf: extra[extraFirst[index]..<extraFirst[index + 1]])
            list.sort()
            var previous: idx_t = -1
            for neighbor in list where neighbor != previous && neighbor != idx_t(index) {
                adjacency.append(neighbor)
                previous = neighbor
            }
            xadj.append(idx_t(adjacency.count))
        }
        core = MetisGraph(xadj: xadj, adjacency: adjacency)
    }
}
