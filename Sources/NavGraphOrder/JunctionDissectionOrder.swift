import CMetis
import CMemoryAccess
import CHeapTrim
import CMetisRandom
import Foundation
import NavGraphCore

/// Metric-independent order of a turn graph by nested dissection of its junction graph. A routing node lies on a
/// road edge between two junctions, and a turn joins two routing nodes at a junction, so the routing nodes on the
/// edges an edge cut of the junction graph cuts separate the turn graph; they are ranked above both sides. The cuts
/// come from inertial flow (`InertialFlowCut`) on the junction graph's core (`JunctionGraphCore`), edges weighted by
/// their routing nodes so that the cut weight is the separator's size. Parts with at most `leafSize` routing nodes
/// are ordered as before: their turn subgraph, core reduction and METIS_NodeND. Any order gives an exact CCH; this
/// one has smaller search spaces than METIS alone and takes less time (Benchmarks/IMPORT.md, "Design, phase by phase").
public enum JunctionDissectionOrder {
    /// Parts with at most this many routing nodes are ordered on their turn subgraph by METIS.
    public static let defaultLeafSize = 1_000

    /// Every junction's position on a plane (x: longitude scaled by the cosine of the mean latitude, y: latitude),
    /// from the first and last points of the edges' shapes; for the inertial flow cuts.
    public static func junctionPlane(_ network: RoadNetwork) -> (x: [Float], y: [Float]) {
        var x = [Float](repeating: 0, count: network.nodeCount), y = x
        var latitudeSum = 0.0
        for edge in 0..<network.edgeCount {
            let first = Int(network.edgeShapeFirst[edge]), last = Int(network.edgeShapeFirst[edge + 1]) - 1
            x[Int(network.edgeFrom[edge])] = Float(network.shapeLonE7[first]) / 1e7
            y[Int(network.edgeFrom[edge])] = Float(network.shapeLatE7[first]) / 1e7
            x[Int(network.edgeTo[edge])] = Float(network.shapeLonE7[last]) / 1e7
            y[Int(network.edgeTo[edge])] = Float(network.shapeLatE7[last]) / 1e7
            latitudeSum += Double(network.shapeLatE7[first]) / 1e7
        }
        let scale = Float(cos(latitudeSum / Double(max(1, network.edgeCount)) * .pi / 180))
        for index in x.indices { x[index] *= scale }
        return (x, y)
    }

    /// Whether the junctions are spread on the plane (DIMACS graphs put them all at one point), so that cuts can
    /// follow directions on it.
    public static func hasPositions(_ plane: (x: [Float], y: [Float])) -> Bool {
        guard let minX = plane.x.min(), let minY = plane.y.min() else { return false }
        return plane.x.max() != minX || plane.y.max() != minY
    }

    /// Returns rank[v] for every routing node of `turns`; `edgeFrom`/`edgeTo` are the road network's junctions
    /// (routing node v lies on edge `turns.directedEdge[v] >> 1`) and `plane` their positions (`junctionPlane`).
    /// Without positions (every junction at one point, as in DIMACS graphs) it is METIS nested dissection alone.
    /// Runs on one worker thread per core.
    public static func compute(turns: TurnGraph, edgeFrom: ContiguousArray<UInt32>, edgeTo: ContiguousArray<UInt32>,
                               junctionCount: Int, plane: (x: [Float], y: [Float]), leafSize: Int = defaultLeafSize,
                               effort: NestedDissectionOrder.Effort = .init()) throws -> ContiguousArray<UInt32> {
        let nodeCount = turns.nodeCount
        guard nodeCount > 1 else { return ContiguousArray(0..<UInt32(nodeCount)) }
        guard hasPositions(plane) else {
            return try NestedDissectionOrder.compute(nodeCount: nodeCount, firstOut: turns.firstOut, head: turns.head, effort: effort)
        }
        _ = navgraph_thread_random_first(1)  // keeps the per-thread rand() that METIS relies on linked in
        let incidence = JunctionIncidence(turns: turns, edgeFrom: edgeFrom, edgeTo: edgeTo, junctionCount: junctionCount)
        let whole = incidence.junctionGraph(plane: plane)
        let dissection = JunctionDissection(turns: turns, incidence: incidence, plane: plane, leafSize: leafSize, effort: effort)
        dissection.add(JunctionPart(graph: whole.graph, junctions: whole.junctions, id: dissection.newPartID(),
                                    firstRank: 0, routingNodeCount: nodeCount))
        PhaseWorkers.run(Parallel.workerCount) { _ in dissection.drain() }
        let rank = try dissection.result()
        navgraph_release_free_memory()
        return rank
    }
}

/// The routing nodes at each junction: for junction j, `routingNode[first[j] ..< first[j + 1]]` lie on edges from j
/// to `otherEnd[...]` (a loop's routing nodes are listed once). Read-only once built.
package struct JunctionIncidence: Sendable {
    package var first: [Int]
    package var routingNode: [UInt32]
    package var otherEnd: [UInt32]

    package init(turns: TurnGraph, edgeFrom: ContiguousArray<UInt32>, edgeTo: ContiguousArray<UInt32>, junctionCount: Int) {
        first = [Int](repeating: 0, count: junctionCount + 1)
        for node in 0..<turns.nodeCount {
            let edge = Int(turns.directedEdge[node] >> 1)
            let from = Int(edgeFrom[edge]), to = Int(edgeTo[edge])
            first[from + 1] += 1
            if to != from { first[to + 1] += 1 }
        }
        for junction in 0..<junctionCount { first[junction + 1] += first[junction] }
        routingNode = [UInt32](repeating: 0, count: first[junctionCount])
        otherEnd = [UInt32](repeating: 0, count: first[junctionCount])
        var fill = first
        for node in 0..<turns.nodeCount {
            let edge = Int(turns.directedEdge[node] >> 1)
            let from = Int(edgeFrom[edge]), to = Int(edgeTo[edge])
            routingNode[fill[from]] = UInt32(node); otherEnd[fill[from]] = UInt32(to); fill[from] += 1
            if to != from { routingNode[fill[to]] = UInt32(node); otherEnd[fill[to]] = UInt32(from); fill[to] += 1 }
        }
    }

    /// The weighted junction graph of every junction with a routing node, and those junctions' ids, numbered along a
    /// Hilbert curve over `plane` so that neighbours on the map are near in memory (the flows run much faster).
    package func junctionGraph(plane: (x: [Float], y: [Float])) -> (graph: WeightedJunctionGraph, junctions: [idx_t]) {
        let junctionCount = first.count - 1
        var junctions: [idx_t] = []
        for junction in 0..<junctionCount where first[junction + 1] > first[junction] { junctions.append(idx_t(junction)) }
        if let minX = plane.x.min(), let maxX = plane.x.max(), let minY = plane.y.min(), let maxY = plane.y.max() {
            let scale = 65_535 / max(maxX - minX, maxY - minY, 1e-9)
            let key = junctions.map { junction -> UInt32 in
                HilbertCurve.index(x: UInt32((plane.x[Int(junction)] - minX) * scale), y: UInt32((plane.y[Int(junction)] - minY) * scale))
            }
            let order = junctions.indices.sorted { key[$0] < key[$1] }
            junctions = order.map { junctions[$0] }
        }
        var local = [idx_t](repeating: -1, count: junctionCount)
        for (index, junction) in junctions.enumerated() { local[Int(junction)] = idx_t(index) }
        return (WeightedJunctionGraph(junctions: junctions, incidence: self, localOf: { local[$0] }), junctions)
    }
}

/// Position along a Hilbert curve over a 65,536 × 65,536 grid.
package enum HilbertCurve {
    package static func index(x: UInt32, y: UInt32) -> UInt32 {
        var x = min(x, 65_535), y = min(y, 65_535), index: UInt32 = 0
        var size: UInt32 = 32_768
        while size > 0 {
            let rx: UInt32 = (x & size) > 0 ? 1 : 0, ry: UInt32 = (y & size) > 0 ? 1 : 0
            index += size * size * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 { x = size &* 2 &- 1 &- x; y = size &* 2 &- 1 &- y }
                swap(&x, &y)
            }
            size >>= 1
        }
        return index
    }
}

/// A junction graph in METIS's weighted CSR form: an edge per pair of adjacent junctions, weighted by the routing
/// nodes on the road edges between them; a junction weighted by the routing nodes it touches (a loop's twice), and
/// the routing nodes on its loops.
package struct WeightedJunctionGraph: Sendable {
    package var xadj: [idx_t] = [0]
    package var adjacency: [idx_t] = []
    package var edgeWeight: [idx_t] = []
    package var junctionWeight: [idx_t] = []
    package var loopNodes: [idx_t] = []
    package var junctionCount: Int { xadj.count - 1 }

    package init() {}

    /// The graph on `junctions` (ids into `incidence`), where `localOf` gives a junction's index in `junctions` or -1.
    package init(junctions: [idx_t], incidence: JunctionIncidence, localOf: (Int) -> idx_t) {
        xadj.reserveCapacity(junctions.count + 1)
        junctionWeight.reserveCapacity(junctions.count)
        loopNodes.reserveCapacity(junctions.count)
        var neighbors: [(idx_t, idx_t)] = []
        for junction in junctions {
            var weight: idx_t = 0, loops: idx_t = 0
            neighbors.removeAll(keepingCapacity: true)
            for index in incidence.first[Int(junction)]..<incidence.first[Int(junction) + 1] {
                let other = Int(incidence.otherEnd[index])
                if other == Int(junction) { loops += 1; weight += 2; continue }
                weight += 1
                let neighbor = localOf(other)
                if neighbor >= 0 { neighbors.append((neighbor, 1)) }
            }
            neighbors.sort { $0.0 < $1.0 }
            var index = 0
            while index < neighbors.count {
                var next = index + 1
                while next < neighbors.count && neighbors[next].0 == neighbors[index].0 { next += 1 }
                adjacency.append(neighbors[index].0)
                edgeWeight.append(idx_t(next - index))
                index = next
            }
            xadj.append(idx_t(adjacency.count))
            junctionWeight.append(max(1, weight))
            loopNodes.append(loops)
        }
    }

    /// Routing nodes on edges inside the graph: each edge weight is listed at both ends.
    package var routingNodeCount: Int { (edgeWeight.reduce(0) { $0 + Int($1) }) / 2 + loopNodes.reduce(0) { $0 + Int($1) } }

    /// The subgraph induced by the junctions whose `side` is `wanted`, and their indices in this graph.
    package func induced(side: [idx_t], _ wanted: idx_t) -> (graph: WeightedJunctionGraph, members: [Int]) {
        var local = [idx_t](repeating: -1, count: junctionCount)
        var members: [Int] = []
        for junction in 0..<junctionCount where side[junction] == wanted {
            local[junction] = idx_t(members.count)
            members.append(junction)
        }
        var graph = WeightedJunctionGraph()
        graph.xadj.reserveCapacity(members.count + 1)
        for junction in members {
            for arc in Int(xadj[junction])..<Int(xadj[junction + 1]) where local[Int(adjacency[arc])] >= 0 {
                graph.adjacency.append(local[Int(adjacency[arc])])
                graph.edgeWeight.append(edgeWeight[arc])
            }
            graph.xadj.append(idx_t(graph.adjacency.count))
            graph.junctionWeight.append(junctionWeight[junction])
            graph.loopNodes.append(loopNodes[junction])
        }
        return (graph, members)
    }
}

/// A part of the junction-graph dissection: its junction graph, the junctions' ids, its id in `partOf`, the first
/// rank of its routing nodes and how many it has (those on edges with both ends in the part).
package struct JunctionPart: Sendable {
    package var graph: WeightedJunctionGraph
    package var junctions: [idx_t]
    package var id: Int32
    package var firstRank: Int
    package var routingNodeCount: Int
}

/// The parts still to split or order, shared by the worker threads, with the part of every junction and the ranks
/// written so far (each part writes its own routing nodes' ranks and its own junctions' part ids only; ids are read
/// with relaxed atomics, since a neighbouring part may be rewriting its own). Lives for one `compute` call.
private final class JunctionDissection: @unchecked Sendable {
    private let parts = LargestFirstQueue<JunctionPart> { $0.routingNodeCount }
    private let idLock = NSLock()
    private var nextPartID: Int32 = 0
    private let turns: TurnGraph
    private let incidence: JunctionIncidence
    private let leafSize: Int
    private let effort: NestedDissectionOrder.Effort
    private let plane: (x: [Float], y: [Float])
    private let partOf: UnsafeMutableBufferPointer<Int32>
    private let leafOf: UnsafeMutableBufferPointer<Int32>
    private let leafLocal: UnsafeMutableBufferPointer<Int32>
    private let rank: UnsafeMutableBufferPointer<UInt32>

    package init(turns: TurnGraph, incidence: JunctionIncidence, plane: (x: [Float], y: [Float]), leafSize: Int, effort: NestedDissectionOrder.Effort) {
        self.turns = turns
        self.plane = plane
        self.incidence = incidence
        self.leafSize = leafSize
        self.effort = effort
        partOf = .allocate(capacity: incidence.first.count - 1)
        partOf.initialize(repeating: -1)
        leafOf = .allocate(capacity: turns.nodeCount)
        leafOf.initialize(repeating: -1)
        leafLocal = .allocate(capacity: turns.nodeCount)
        leafLocal.initialize(repeating: -1)
        rank = .allocate(capacity: turns.nodeCount)
        rank.initialize(repeating: UInt32.max)
    }

    deinit {
        partOf.deallocate(); leafOf.deallocate(); leafLocal.deallocate(); rank.deallocate()
    }

    package func newPartID() -> Int32 {
        idLock.lock(); defer { idLock.unlock() }
        nextPartID += 1
        return nextPartID
    }

    package func add(_ part: JunctionPart) {
        for junction in part.junctions { navgraph_store_int32(partOf.baseAddress! + Int(junction), part.id) }
        parts.add(part)
    }

    /// Splits or orders parts, the largest waiting first, until none waits and none is being split.
    package func drain() {
        parts.drain { part in
            if part.routingNodeCount <= leafSize || part.graph.junctionCount < 2 || part.graph.adjacency.isEmpty {
                try orderLeaf(part)
            } else {
                try split(part)
            }
        }
    }

    /// Cuts the part's junction graph in two by inertial flow and queues both sides; the routing nodes on cut edges
    /// take the ranks above both sides. A part that does not split (a tree, or one side empty) is ordered as a leaf.
    private func split(_ part: JunctionPart) throws {
        let reduction = JunctionGraphCore(part.graph)
        guard reduction.core.junctionCount >= 2 && !reduction.core.adjacency.isEmpty else { return try orderLeaf(part) }
        let global = reduction.coreJunctions.map { Int(part.junctions[Int($0)]) }
        let cut = InertialFlowCut(graph: reduction.core, x: global.map { plane.x[$0] }, y: global.map { plane.y[$0] })
        let side = reduction.lift(coreSide: cut.side, junctionCount: part.graph.junctionCount)
        var sides: [JunctionPart] = []
        var firstRank = part.firstRank
        for wanted in [idx_t(0), 1] {
            let (subgraph, members) = part.graph.induced(side: side, wanted)
            if members.isEmpty || members.count == part.graph.junctionCount { return try orderLeaf(part) }
            let junctions = members.map { part.junctions[$0] }
            let nodes = subgraph.routingNodeCount
            sides.append(JunctionPart(graph: subgraph, junctions: junctions, id: newPartID(), firstRank: firstRank, routingNodeCount: nodes))
            firstRank += nodes
        }
        // The separator: routing nodes on edges from side 0 to side 1 (found from side 0, so each once).
        for junction in sides[1].junctions { navgraph_store_int32(partOf.baseAddress! + Int(junction), sides[1].id) }
        let other = sides[1].id
        var next = firstRank
        for junction in sides[0].junctions {
            for index in incidence.first[Int(junction)]..<incidence.first[Int(junction) + 1]
            where navgraph_load_int32(partOf.baseAddress! + Int(incidence.otherEnd[index])) == other {
                rank[Int(incidence.routingNode[index])] = UInt32(next)
                next += 1
            }
        }
        guard next == part.firstRank + part.routingNodeCount else {
            throw NavGraphError("junction dissection lost routing nodes: \(next - part.firstRank) of \(part.routingNodeCount) ranked")
        }
        for side in sides { add(side) }
    }

    /// Orders the part's routing nodes on their turn subgraph: core reduction and METIS_NodeND.
    private func orderLeaf(_ part: JunctionPart) throws {
        var members: [UInt32] = []
        members.reserveCapacity(part.routingNodeCount)
        for junction in part.junctions {
            for index in incidence.first[Int(junction)]..<incidence.first[Int(junction) + 1] {
                let other = incidence.otherEnd[index]
                guard other >= UInt32(junction), navgraph_load_int32(partOf.baseAddress! + Int(other)) == part.id else { continue }
                let node = Int(incidence.routingNode[index])
                navgraph_store_int32(leafOf.baseAddress! + node, part.id)
                leafLocal[node] = Int32(members.count)
                members.append(UInt32(node))
            }
        }
        guard members.count == part.routingNodeCount else {
            throw NavGraphError("junction dissection leaf has \(members.count) routing nodes, expected \(part.routingNodeCount)")
        }
        var firstOut = ContiguousArray<UInt32>([0]), head = ContiguousArray<UInt32>()
        firstOut.reserveCapacity(members.count + 1)
        for node in members {
            for arc in Int(turns.firstOut[Int(node)])..<Int(turns.firstOut[Int(node) + 1]) {
                let target = Int(turns.head[arc])
                if navgraph_load_int32(leafOf.baseAddress! + target) == part.id { head.append(UInt32(leafLocal[target])) }
            }
            firstOut.append(UInt32(head.count))
        }
        let symmetric = NestedDissectionOrder.symmetricAdjacency(nodeCount: members.count, firstOut: firstOut, head: head)
        let local: [idx_t]
        if members.count < 2 || symmetric.adjacency.isEmpty {
            local = (0..<idx_t(members.count)).map { $0 }
        } else {
            let reduced = CoreReduction(symmetric, mode: .treesAndChains)
            local = try NestedDissectionOrder.reducedOrder(reduced, nodeCount: members.count, splitLevels: 0, effort: effort)
        }
        for (index, node) in members.enumerated() { rank[Int(node)] = UInt32(part.firstRank + Int(local[index])) }
    }

    /// The ranks, or the first error a part met.
    package func result() throws -> ContiguousArray<UInt32> {
        try parts.checkFailure()
        return ContiguousArray(rank)
    }
}
