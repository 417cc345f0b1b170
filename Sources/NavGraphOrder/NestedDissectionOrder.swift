import CMetis
import CHeapTrim
import CMetisRandom
import Dispatch
import Foundation
import NavGraphCore

/// Metric-independent node order for the customizable contraction hierarchy: METIS nested dissection. Large graphs
/// are split by METIS vertex separators first (`splitLevels` deep) and the parts ordered by one worker thread per
/// core, largest part first.
/// Dead-end trees and degree-2 chains are removed first and ordered below the core (`CoreReduction`).
public enum NestedDissectionOrder {
    /// Parts smaller than this are ordered by one METIS_NodeND call rather than split further.
    package static let minimumSplitSize = 20_000

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
    /// by a vertex separator (ranked above both sides), and the sides are ordered on the worker threads. `reduction` says what
    /// is ordered below the core (`.none`: METIS gets the whole graph).
    public static func compute(nodeCount: Int, firstOut: ContiguousArray<UInt32>, head: ContiguousArray<UInt32>,
                               splitLevels: Int = 2, reduction: CoreReduction.Mode = .treesAndChains,
                               effort: Effort = Effort()) throws -> ContiguousArray<UInt32> {
        guard nodeCount > 1 else { return ContiguousArray(0..<UInt32(nodeCount)) }
        // Each graph below is dropped as soon as the next one is made from it (the order's peak is METIS's memory
        // next to the graphs still held).
        let graph: MetisGraph
        do {
            let symmetric = symmetricAdjacency(nodeCount: nodeCount, firstOut: firstOut, head: head)
            if symmetric.adjacency.isEmpty { return ContiguousArray(0..<UInt32(nodeCount)) }
            graph = symmetric
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
    package static func reducedOrder(_ reduction: consuming CoreReduction, nodeCount: Int, splitLevels: Int, effort: Effort) throws -> [idx_t] {
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

    /// Rank of every node of `graph`: one METIS_NodeND call, or a separator ranked above two sides that are ordered
    /// the same way. The parts wait in a queue that the worker threads take largest first, so that one large part
    /// does not run alone at the end while the other core is idle. Every METIS call seeds its own random numbers, so
    /// the order does not depend on which thread runs which part.
    package static func order(_ graph: consuming MetisGraph, splitLevels: Int, effort: Effort) throws -> [idx_t] {
        let nodeCount = graph.nodeCount
        guard splitLevels > 0, nodeCount >= minimumSplitSize else { return try nodeND(consume graph, effort: effort) }
        let queue = DissectionQueue(nodeCount: nodeCount)
        queue.add(DissectionPart(graph: consume graph, nodes: nil, firstRank: 0, splitLevels: splitLevels))
        PhaseWorkers.run(Parallel.workerCount) { _ in queue.drain(effort: effort) }
        return try queue.result()
    }

    /// METIS_NodeND on the whole graph: rank (METIS's iperm) of every node.
    package static func nodeND(_ graph: consuming MetisGraph, effort: Effort) throws -> [idx_t] {
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
    package static func separator(_ graph: MetisGraph, effort: Effort) throws -> [idx_t] {
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

    package static func defaultOptions(seed: Int32?) -> [idx_t] {
        var options = [idx_t](repeating: 0, count: Int(METIS_NOPTIONS))
        METIS_SetDefaultOptions(&options)
        options[Int(METIS_OPTION_NUMBERING.rawValue)] = 0
        if let seed { options[Int(METIS_OPTION_SEED.rawValue)] = idx_t(seed) }
        return options
    }

    /// Undirected CSR without self loops or duplicates, each list sorted.
    package static func symmetricAdjacency(nodeCount: Int, firstOut: ContiguousArray<UInt32>, head: ContiguousArray<UInt32>) -> MetisGraph {
        var first = [idx_t](repeating: 0, count: nodeCount + 1)
        for tail in 0..<nodeCount {
            for arc in Int(firstOut[tail])..<Int(firstOut[tail + 1]) where Int(head[arc]) != tail {
                first[tail + 1] += 1
                first[Int(head[arc]) + 1] += 1
            }
        }
        for node in 0..<nodeCount { first[node + 1] += first[node] }
        var neighbors = [idx_t](repeating: 0, count: Int(first[nodeCount]))
        var fill = first
        for tail in 0..<nodeCount {
            for arc in Int(firstOut[tail])..<Int(firstOut[tail + 1]) where Int(head[arc]) != tail {
                let other = Int(head[arc])
                neighbors[Int(fill[tail])] = idx_t(other); fill[tail] += 1
                neighbors[Int(fill[other])] = idx_t(tail); fill[other] += 1
            }
        }
        fill = []
        // Each list sorted in place and moved down over the duplicates dropped before it.
        var xadj = [idx_t](repeating: 0, count: nodeCount + 1)
        var written = 0
        neighbors.withUnsafeMutableBufferPointer { list in
            for node in 0..<nodeCount {
                let start = Int(first[node]), end = Int(first[node + 1])
                var slice = UnsafeMutableBufferPointer(rebasing: list[start..<end])
                slice.sort()
                var previous: idx_t = -1
                for index in start..<end where list[index] != previous {
                    previous = list[index]
                    list[written] = previous
                    written += 1
                }
                xadj[node + 1] = idx_t(written)
            }
        }
        neighbors.removeLast(neighbors.count - written)
        return MetisGraph(xadj: xadj, adjacency: neighbors)
    }
}

/// An undirected graph in METIS's CSR form (both directions of every edge, no self loops).
package struct MetisGraph: Sendable {
    package var xadj: [idx_t]
    package var adjacency: [idx_t]
    package var nodeCount: Int { xadj.count - 1 }

    /// The subgraph induced by the nodes on one side of a separator, and those nodes' ids in this graph.
    package func induced(side: [idx_t], _ wanted: idx_t) -> (graph: MetisGraph, nodes: [idx_t]) {
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

/// A part of the graph being ordered: its subgraph, its nodes' ids in the whole graph (nil: it is the whole graph),
/// the first rank its nodes take, and how many more times it may be split before METIS_NodeND orders it.
package struct DissectionPart: Sendable {
    package var graph: MetisGraph
    package var nodes: [idx_t]?
    package var firstRank: Int
    package var splitLevels: Int

    /// Id in the whole graph of this part's node `local`.
    package func wholeGraphNode(_ local: Int) -> Int { nodes.map { Int($0[local]) } ?? local }
}

/// The parts of a nested dissection still to order, shared by the worker threads, and the ranks written so far (each
/// part writes its own nodes' ranks only). Lives for one `NestedDissectionOrder.order` call.
private final class DissectionQueue: @unchecked Sendable {
    private let parts = LargestFirstQueue<DissectionPart> { $0.graph.adjacency.count }
    private let rankLock = NSLock()
    private var rank: [idx_t]

    package init(nodeCount: Int) { rank = [idx_t](repeating: 0, count: nodeCount) }

    package func add(_ part: consuming DissectionPart) { parts.add(part) }

    /// Orders parts, the largest waiting first, until none waits and none is being split.
    package func drain(effort: NestedDissectionOrder.Effort) {
        parts.drain { part in try process(part, effort: effort) }
    }

    /// Splits the part by a separator (queuing both sides) or orders it with METIS_NodeND.
    private func process(_ part: consuming DissectionPart, effort: NestedDissectionOrder.Effort) throws {
        let nodeCount = part.graph.nodeCount
        if part.splitLevels == 0 || nodeCount < NestedDissectionOrder.minimumSplitSize {
            var part = part, graph = MetisGraph(xadj: [], adjacency: [])
            swap(&graph, &part.graph)  // moved, not shared, so that METIS may write the arrays without a copy
            let local = try NestedDissectionOrder.nodeND(consume graph, effort: effort)
            rankLock.lock()
            for index in 0..<nodeCount { rank[part.wholeGraphNode(index)] = idx_t(part.firstRank) + local[index] }
            rankLock.unlock()
            return
        }
        let side = try NestedDissectionOrder.separator(part.graph, effort: effort)
        var sides: [DissectionPart] = []
        var firstRank = part.firstRank
        for wanted in [idx_t(0), 1] {
            let (graph, local) = part.graph.induced(side: side, wanted)
            let nodes = part.nodes.map { whole in local.map { whole[Int($0)] } } ?? local
            sides.append(DissectionPart(graph: graph, nodes: nodes, firstRank: firstRank, splitLevels: part.splitLevels - 1))
            firstRank += local.count
        }
        rankLock.lock()
        for node in 0..<nodeCount where side[node] == 2 {
            rank[part.wholeGraphNode(node)] = idx_t(firstRank)
            firstRank += 1
        }
        rankLock.unlock()
        for side in sides { add(side) }
    }

    /// The ranks, or the first error a part met.
    package func result() throws -> [idx_t] {
        try parts.checkFailure()
        rankLock.lock(); defer { rankLock.unlock() }
        return rank
    }
}
