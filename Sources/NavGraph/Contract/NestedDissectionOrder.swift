import CMetis
import CThreadRandom
import Dispatch

/// Metric-independent node order for the customizable contraction hierarchy: METIS nested dissection. Large graphs
/// are split by METIS vertex separators first (`splitLevels` deep) and the parts ordered on concurrent threads.
/// Dead-end trees and degree-2 chains are removed first and ordered below the core (`CoreReduction`).
public enum NestedDissectionOrder {
    /// Parts smaller than this are ordered by one METIS_NodeND call rather than split further.
    static let minimumSplitSize = 20_000

    /// How hard METIS tries: separators computed per split (the smallest is kept) and per METIS_NodeND level,
    /// and the random seed (nil: METIS's default).
    public struct Effort: Sendable {
        public var splitSeparatorTries: Int32 = 1
        public var nodeNDSeparatorTries: Int32 = 2
        public var seed: Int32?
        public init(splitSeparatorTries: Int32 = 1, nodeNDSeparatorTries: Int32 = 2, seed: Int32? = nil) {
            self.splitSeparatorTries = splitSeparatorTries
            self.nodeNDSeparatorTries = nodeNDSeparatorTries
            self.seed = seed
        }
    }

    /// Returns rank[v] for every node of the undirected graph given by directed arcs (symmetrized here).
    /// `splitLevels` 0 orders the whole graph with one METIS_NodeND call; each further level splits every part
    /// by a vertex separator (ranked above both sides) and orders the two sides concurrently. `reduction` says what
    /// is ordered below the core (`.none`: METIS gets the whole graph).
    public static func compute(nodeCount: Int, firstOut: ContiguousArray<UInt32>, head: ContiguousArray<UInt32>,
                               splitLevels: Int = 2, reduction: CoreReduction.Mode = .treesAndChains,
                               effort: Effort = Effort()) throws -> ContiguousArray<UInt32> {
        guard nodeCount > 1 else { return ContiguousArray(0..<UInt32(nodeCount)) }
        let (xadj, adjncy) = symmetricAdjacency(nodeCount: nodeCount, firstOut: firstOut, head: head)
        if adjncy.isEmpty { return ContiguousArray(0..<UInt32(nodeCount)) }
        _ = navgraph_thread_random_first(1)  // keeps the per-thread rand() that METIS relies on linked in
        let graph = MetisGraph(xadj: xadj.map { idx_t($0) }, adjacency: adjncy.map { idx_t($0) })
        let rank = reduction == .none ? try order(graph, splitLevels: splitLevels, effort: effort)
            : try reducedOrder(CoreReduction(graph, mode: reduction), nodeCount: nodeCount, splitLevels: splitLevels, effort: effort)
        navgraph_release_free_memory()  // what METIS freed on the worker threads stays in their malloc arenas otherwise
        return ContiguousArray(rank.map { UInt32($0) })
    }

    /// Rank of every node: the removed trees and chains first, in their elimination order, then the core's order.
    static func reducedOrder(_ reduction: CoreReduction, nodeCount: Int, splitLevels: Int, effort: Effort) throws -> [idx_t] {
        var rank = [idx_t](repeating: 0, count: nodeCount)
        for (position, node) in reduction.bottom.enumerated() { rank[Int(node)] = idx_t(position) }
        let coreRank: [idx_t] = reduction.core.nodeCount > 1 && !reduction.core.adjacency.isEmpty
            ? try order(reduction.core, splitLevels: splitLevels, effort: effort) : (0..<idx_t(reduction.core.nodeCount)).map { $0 }
        let offset = idx_t(reduction.bottom.count)
        for (local, node) in reduction.coreNodes.enumerated() { rank[Int(node)] = offset + coreRank[local] }
        return rank
    }

    /// Rank of every node of `graph`: one METIS_NodeND call, or a separator and two concurrently ordered sides.
    static func order(_ graph: MetisGraph, splitLevels: Int, effort: Effort) throws -> [idx_t] {
        guard splitLevels > 0, graph.nodeCount >= minimumSplitSize else { return try nodeND(graph, effort: effort) }
        let side = try separator(graph, effort: effort)
        let sides = [graph.induced(side: side, 0), graph.induced(side: side, 1)]
        let results = [OrderResult(), OrderResult()]
        PhaseWorkers.run(2) { index in
            do { results[index].rank = try order(sides[index].graph, splitLevels: splitLevels - 1, effort: effort) }
            catch { results[index].error = error }
        }
        for result in results { if let error = result.error { throw error } }
        var rank = [idx_t](repeating: 0, count: graph.nodeCount)
        var offset = 0
        for (index, part) in sides.enumerated() {
            for (local, node) in part.nodes.enumerated() { rank[Int(node)] = idx_t(offset) + results[index].rank[local] }
            offset += part.nodes.count
        }
        for node in 0..<graph.nodeCount where side[node] == 2 {
            rank[node] = idx_t(offset)
            offset += 1
        }
        return rank
    }

    /// METIS_NodeND on the whole graph: rank (METIS's iperm) of every node.
    static func nodeND(_ graph: MetisGraph, effort: Effort) throws -> [idx_t] {
        var xadj = graph.xadj, adjacency = graph.adjacency
        var count = idx_t(graph.nodeCount)
        var options = defaultOptions(seed: effort.seed)
        options[Int(METIS_OPTION_NSEPS.rawValue)] = effort.nodeNDSeparatorTries
        var permutation = [idx_t](repeating: 0, count: graph.nodeCount)
        var rank = [idx_t](repeating: 0, count: graph.nodeCount)
        let status = METIS_NodeND(&count, &xadj, &adjacency, nil, &options, &permutation, &rank)
        guard status == METIS_OK.rawValue else {
            throw NavGraphError("METIS_NodeND failed with status \(status) on \(graph.nodeCount) nodes")
        }
        return rank
    }

    /// METIS_ComputeVertexSeparator: 0 or 1 for the two sides, 2 for the separator, per node.
    static func separator(_ graph: MetisGraph, effort: Effort) throws -> [idx_t] {
        var xadj = graph.xadj, adjacency = graph.adjacency
        var count = idx_t(graph.nodeCount)
        var options = defaultOptions(seed: effort.seed)
        options[Int(METIS_OPTION_NSEPS.rawValue)] = effort.splitSeparatorTries
        var separatorSize: idx_t = 0
        var side = [idx_t](repeating: 0, count: graph.nodeCount)
        let status = METIS_ComputeVertexSeparator(&count, &xadj, &adjacency, nil, &options, &separatorSize, &side)
        guard status == METIS_OK.rawValue else {
            throw NavGraphError("METIS_ComputeVertexSeparator failed with status \(status) on \(graph.nodeCount) nodes")
        }
        return side
    }

    static func defaultOptions(seed: Int32?) -> [idx_t] {
        var options = [idx_t](repeating: 0, count: Int(METIS_NOPTIONS))
        METIS_SetDefaultOptions(&options)
        options[Int(METIS_OPTION_NUMBERING.rawValue)] = 0
        if let seed { options[Int(METIS_OPTION_SEED.rawValue)] = idx_t(seed) }
        return options
    }

    /// Undirected CSR without self loops or duplicates.
    static func symmetricAdjacency(nodeCount: Int, firstOut: ContiguousArray<UInt32>, head: ContiguousArray<UInt32>)
        -> (ContiguousArray<Int>, ContiguousArray<UInt32>) {
        var degree = ContiguousArray<Int>(repeating: 0, count: nodeCount + 1)
        for tail in 0..<nodeCount {
            for arc in Int(firstOut[tail])..<Int(firstOut[tail + 1]) where Int(head[arc]) != tail {
                degree[tail + 1] += 1
                degree[Int(head[arc]) + 1] += 1
            }
        }
        for node in 0..<nodeCount { degree[node + 1] += degree[node] }
        var neighbors = ContiguousArray<UInt32>(repeating: 0, count: degree[nodeCount])
        var fill = degree
        for tail in 0..<nodeCount {
            for arc in Int(firstOut[tail])..<Int(firstOut[tail + 1]) where Int(head[arc]) != tail {
                let other = Int(head[arc])
                neighbors[fill[tail]] = UInt32(other); fill[tail] += 1
                neighbors[fill[other]] = UInt32(tail); fill[other] += 1
            }
        }
        // Sort and deduplicate each list.
        var xadj = ContiguousArray<Int>([0])
        xadj.reserveCapacity(nodeCount + 1)
        var compact = ContiguousArray<UInt32>()
        compact.reserveCapacity(neighbors.count)
        for node in 0..<nodeCount {
            let list = neighbors[degree[node]..<degree[node + 1]].sorted()
            var previous: UInt32?
            for neighbor in list where neighbor != previous {
                compact.append(neighbor)
                previous = neighbor
            }
            xadj.append(compact.count)
        }
        return (xadj, compact)
    }
}

/// An undirected graph in METIS's CSR form (both directions of every edge, no self loops).
struct MetisGraph: Sendable {
    var xadj: [idx_t]
    var adjacency: [idx_t]
    var nodeCount: Int { xadj.count - 1 }

    /// The subgraph induced by the nodes on one side of a separator, and those nodes' ids in this graph.
    func induced(side: [idx_t], _ wanted: idx_t) -> (graph: MetisGraph, nodes: [idx_t]) {
        var local = [idx_t](repeating: -1, count: nodeCount)
        var nodes: [idx_t] = []
        for node in 0..<nodeCount where side[node] == wanted {
            local[node] = idx_t(nodes.count)
            nodes.append(idx_t(node))
        }
        var subXadj: [idx_t] = [0]
        subXadj.reserveCapacity(nodes.count + 1)
        var subAdjacency: [idx_t] = []
        for node in nodes {
            for arc in Int(xadj[Int(node)])..<Int(xadj[Int(node) + 1]) where local[Int(adjacency[arc])] >= 0 {
                subAdjacency.append(local[Int(adjacency[arc])])
            }
            subXadj.append(idx_t(subAdjacency.count))
        }
        return (MetisGraph(xadj: subXadj, adjacency: subAdjacency), nodes)
    }
}

/// One concurrently computed part order (written by one thread, read after both finished).
private final class OrderResult: @unchecked Sendable {
    var rank: [idx_t] = []
    var error: (any Error)?
}
