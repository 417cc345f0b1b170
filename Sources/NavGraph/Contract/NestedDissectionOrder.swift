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
        // Each graph below is dropped as soon as the next one is made from it (the order's peak is METIS's memory
        // next to the graphs still held).
        let graph: MetisGraph
        do {
            let (xadj, adjncy) = symmetricAdjacency(nodeCount: nodeCount, firstOut: firstOut, head: head)
            if adjncy.isEmpty { return ContiguousArray(0..<UInt32(nodeCount)) }
            graph = MetisGraph(xadj: xadj.map { idx_t($0) }, adjacency: adjncy.map { idx_t($0) })
        }
        _ = navgraph_thread_random_first(1)  // keeps the per-thread rand() that METIS relies on linked in
        let rank: [idx_t]
        if reduction == .none {
            rank = try order(consume graph, splitLevels: splitLevels, effort: effort)
        } else {
            let reduced = CoreReduction(consume graph, mode: reduction)
            rank = try reducedOrder(consume reduced, nodeCount: nodeCount, splitLevels: splitLevels, effort: effort)
        }
        navgraph_release_free_memory()  // what METIS freed on the worker threads stays in their malloc arenas otherwise
        return ContiguousArray(rank.map { UInt32($0) })
    }

    /// Rank of every node: the removed trees and chains first, in their elimination order, then the core's order.
    static func reducedOrder(_ reduction: consuming CoreReduction, nodeCount: Int, splitLevels: Int, effort: Effort) throws -> [idx_t] {
        var rank = [idx_t](repeating: 0, count: nodeCount)
        for (position, node) in reduction.bottom.enumerated() { rank[Int(node)] = idx_t(position) }
        let offset = idx_t(reduction.bottom.count)
        reduction.bottom = []
        let core = reduction.core
        reduction.core = MetisGraph(xadj: [0], adjacency: [])
        let coreNodeCount = core.nodeCount
        let coreRank: [idx_t] = coreNodeCount > 1 && !core.adjacency.isEmpty
            ? try order(consume core, splitLevels: splitLevels, effort: effort) : (0..<idx_t(coreNodeCount)).map { $0 }
        for (local, node) in reduction.coreNodes.enumerated() { rank[Int(node)] = offset + coreRank[local] }
        return rank
    }

    /// Rank of every node of `graph`: one METIS_NodeND call, or a separator and two concurrently ordered sides.
    static func order(_ graph: consuming MetisGraph, splitLevels: Int, effort: Effort) throws -> [idx_t] {
        guard splitLevels > 0, graph.nodeCount >= minimumSplitSize else { return try nodeND(consume graph, effort: effort) }
        let side = try separator(graph, effort: effort)
        let nodeCount = graph.nodeCount
        let parts = [OrderPart(graph.induced(side: side, 0)), OrderPart(graph.induced(side: side, 1))]
        _ = consume graph  // each side's thread holds the only copy of its subgraph
        PhaseWorkers.run(2) { index in
            guard let subgraph = parts[index].graph.take() else { return }
            do { parts[index].rank = try order(consume subgraph, splitLevels: splitLevels - 1, effort: effort) }
            catch { parts[index].error = error }
        }
        for part in parts { if let error = part.error { throw error } }
        var rank = [idx_t](repeating: 0, count: nodeCount)
        var offset = 0
        for part in parts {
            for (local, node) in part.nodes.enumerated() { rank[Int(node)] = idx_t(offset) + part.rank[local] }
            offset += part.nodes.count
        }
        for node in 0..<nodeCount where side[node] == 2 {
            rank[node] = idx_t(offset)
            offset += 1
        }
        return rank
    }

    /// METIS_NodeND on the whole graph: rank (METIS's iperm) of every node.
    static func nodeND(_ graph: consuming MetisGraph, effort: Effort) throws -> [idx_t] {
        let nodeCount = graph.nodeCount
        var count = idx_t(nodeCount)
        // Moved out rather than copied (METIS takes them as mutable pointers).
        var xadj: [idx_t] = [], adjacency: [idx_t] = []
        swap(&xadj, &graph.xadj)
        swap(&adjacency, &graph.adjacency)
        var options = defaultOptions(seed: effort.seed)
        options[Int(METIS_OPTION_NSEPS.rawValue)] = effort.nodeNDSeparatorTries
        var permutation = [idx_t](repeating: 0, count: nodeCount)
        var rank = [idx_t](repeating: 0, count: nodeCount)
        let status = METIS_NodeND(&count, &xadj, &adjacency, nil, &options, &permutation, &rank)
        guard status == METIS_OK.rawValue else {
            throw NavGraphError("METIS_NodeND failed with status \(status) on \(nodeCount) nodes")
        }
        return rank
    }

    /// METIS_ComputeVertexSeparator: 0 or 1 for the two sides, 2 for the separator, per node.
    static func separator(_ graph: MetisGraph, effort: Effort) throws -> [idx_t] {
        var count = idx_t(graph.nodeCount)
        var options = defaultOptions(seed: effort.seed)
        options[Int(METIS_OPTION_NSEPS.rawValue)] = effort.splitSeparatorTries
        var separatorSize: idx_t = 0
        var side = [idx_t](repeating: 0, count: graph.nodeCount)
        // METIS reads the graph without writing it (C numbering: nothing renumbered in place), so it is not copied.
        let status = graph.xadj.withUnsafeBufferPointer { xadj in
            graph.adjacency.withUnsafeBufferPointer { adjacency in
                METIS_ComputeVertexSeparator(&count, UnsafeMutablePointer(mutating: xadj.baseAddress),
                                             UnsafeMutablePointer(mutating: adjacency.baseAddress), nil, &options, &separatorSize, &side)
            }
        }
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

/// One side of a separator: its subgraph until its thread takes it, its nodes' ids in the graph split, and its order
/// (written by its thread, read after both finished).
private final class OrderPart: @unchecked Sendable {
    var graph: MetisGraph?
    let nodes: [idx_t]
    var rank: [idx_t] = []
    var error: (any Error)?

    init(_ part: (graph: MetisGraph, nodes: [idx_t])) { graph = part.graph; nodes = part.nodes }
}
