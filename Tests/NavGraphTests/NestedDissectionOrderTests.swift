import Dispatch
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// The split-and-parallel nested dissection: deterministic across threads, a permutation, and as good as one METIS call.
struct NestedDissectionOrderTests {
    /// A width × height grid with arcs both ways between horizontal and vertical neighbours, as directed CSR.
    static func grid(width: Int, height: Int) -> (nodeCount: Int, firstOut: ContiguousArray<UInt32>, head: ContiguousArray<UInt32>) {
        var firstOut: ContiguousArray<UInt32> = [0], head = ContiguousArray<UInt32>()
        for y in 0..<height {
            for x in 0..<width {
                if y > 0 { head.append(UInt32((y - 1) * width + x)) }
                if x > 0 { head.append(UInt32(y * width + x - 1)) }
                if x + 1 < width { head.append(UInt32(y * width + x + 1)) }
                if y + 1 < height { head.append(UInt32((y + 1) * width + x)) }
                firstOut.append(UInt32(head.count))
            }
        }
        return (width * height, firstOut, head)
    }

    /// CCH arcs of the graph renumbered so that node id equals rank.
    static func hierarchyArcs(_ graph: (nodeCount: Int, firstOut: ContiguousArray<UInt32>, head: ContiguousArray<UInt32>),
                              rank: ContiguousArray<UInt32>) throws -> Int {
        var lists = [[UInt32]](repeating: [], count: graph.nodeCount)
        for tail in 0..<graph.nodeCount {
            for arc in Int(graph.firstOut[tail])..<Int(graph.firstOut[tail + 1]) {
                lists[Int(rank[tail])].append(rank[Int(graph.head[arc])])
            }
        }
        var firstOut: ContiguousArray<UInt32> = [0], head = ContiguousArray<UInt32>()
        for list in lists {
            head.append(contentsOf: list.sorted())
            firstOut.append(UInt32(head.count))
        }
        return try ChordalContraction.contract(nodeCount: graph.nodeCount, firstOut: firstOut, head: head).arcCount
    }

    @Test func splitOrderIsAPermutationAndDeterministicAcrossThreads() throws {
        let graph = Self.grid(width: 220, height: 200)  // 44,000 nodes: above the split threshold, two levels deep
        let sequential = try NestedDissectionOrder.compute(nodeCount: graph.nodeCount, firstOut: graph.firstOut, head: graph.head)
        #expect(Set(sequential).count == graph.nodeCount)
        #expect(sequential.allSatisfy { Int($0) < graph.nodeCount })
        // Two whole orders at once (four METIS calls in flight at the deepest level) give the same order as one alone.
        final class Box: @unchecked Sendable { var rank = ContiguousArray<UInt32>() }
        let boxes = [Box(), Box()]
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let rank = try? NestedDissectionOrder.compute(nodeCount: graph.nodeCount, firstOut: graph.firstOut, head: graph.head)
            boxes[index].rank = rank ?? []
        }
        #expect(boxes[0].rank == sequential)
        #expect(boxes[1].rank == sequential)
    }

    @Test func splitOrderIsAsGoodAsOneMetisCall() throws {
        let graph = Self.grid(width: 220, height: 200)
        let single = try NestedDissectionOrder.compute(nodeCount: graph.nodeCount, firstOut: graph.firstOut, head: graph.head, splitLevels: 0)
        let split = try NestedDissectionOrder.compute(nodeCount: graph.nodeCount, firstOut: graph.firstOut, head: graph.head, splitLevels: 2)
        let singleArcs = try Self.hierarchyArcs(graph, rank: single), splitArcs = try Self.hierarchyArcs(graph, rank: split)
        #expect(Double(splitArcs) <= 1.05 * Double(singleArcs), "split order \(splitArcs) CCH arcs vs one METIS call \(singleArcs)")
    }

    /// The grid with every third horizontal edge of every fifth row subdivided by a chain of three degree-2 nodes,
    /// and a dead-end tree (a path of three with a fork of two at its end) hung on every eleventh grid node.
    ///
    ///     o---o---o        grid nodes o;  c chain nodes (degree 2);  t tree nodes
    ///     |   |   |
    ///     o-c-c-c-o---o
    ///     |   |
    ///     o   t-t-t-t
    ///             `-t
    static func gridWithChainsAndTrees(width: Int, height: Int) -> (graph: (nodeCount: Int, firstOut: ContiguousArray<UInt32>, head: ContiguousArray<UInt32>), gridNodes: Int) {
        var edges: [(Int, Int)] = []
        var next = width * height
        for y in 0..<height {
            for x in 0..<width {
                let node = y * width + x
                if y + 1 < height { edges.append((node, node + width)) }
                guard x + 1 < width else { continue }
                if y % 5 == 0 && x % 3 == 0 {
                    var previous = node
                    for _ in 0..<3 { edges.append((previous, next)); previous = next; next += 1 }
                    edges.append((previous, node + 1))
                } else {
                    edges.append((node, node + 1))
                }
            }
        }
        for node in stride(from: 0, to: width * height, by: 11) {
            var previous = node
            for _ in 0..<3 { edges.append((previous, next)); previous = next; next += 1 }
            edges.append((previous, next)); next += 1
            edges.append((previous, next)); next += 1
        }
        var lists = [[UInt32]](repeating: [], count: next)
        for (a, b) in edges { lists[a].append(UInt32(b)); lists[b].append(UInt32(a)) }
        var firstOut: ContiguousArray<UInt32> = [0], head = ContiguousArray<UInt32>()
        for list in lists { head.append(contentsOf: list); firstOut.append(UInt32(head.count)) }
        return ((next, firstOut, head), width * height)
    }

    @Test func coreReductionOrdersTreesAndChainsBelowTheCoreWithoutLosingQuality() throws {
        let (graph, gridNodes) = Self.gridWithChainsAndTrees(width: 220, height: 200)
        let reduced = try NestedDissectionOrder.compute(nodeCount: graph.nodeCount, firstOut: graph.firstOut, head: graph.head)
        let whole = try NestedDissectionOrder.compute(nodeCount: graph.nodeCount, firstOut: graph.firstOut, head: graph.head, reduction: .none)
        #expect(Set(reduced).count == graph.nodeCount)
        #expect(reduced.allSatisfy { Int($0) < graph.nodeCount })
        // Every chain and tree node ranks below every grid node of degree ≥ 3 (the grid's corners are chains too).
        let added = graph.nodeCount - gridNodes
        let highestAdded = reduced[gridNodes...].max() ?? 0
        let lowestInner = (0..<gridNodes).filter { node in
            let x = node % 220, y = node / 220
            return x > 0 && x < 219 && y > 0 && y < 199
        }.map { reduced[$0] }.min() ?? 0
        #expect(highestAdded < lowestInner, "\(added) chain and tree nodes: highest rank \(highestAdded), lowest inner grid rank \(lowestInner)")
        let reducedArcs = try Self.hierarchyArcs(graph, rank: reduced), wholeArcs = try Self.hierarchyArcs(graph, rank: whole)
        #expect(Double(reducedArcs) <= 1.05 * Double(wholeArcs), "reduced order \(reducedArcs) CCH arcs vs whole graph \(wholeArcs)")
    }
}
