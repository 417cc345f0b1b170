import Dispatch
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// The junction-graph dissection order (inertial flow cuts, JunctionDissectionOrder) on crafted road grids: where it
/// cuts, that it is a deterministic permutation, and that its hierarchy is no larger than METIS's.
struct CraftedOrderTests {
    /// A road network drawn as junctions on a plane and two-way roads between them, with its turn graph: a routing
    /// node per direction of each road (2 * road + direction), a turn from each road into every other road at their
    /// junction (no U-turns).
    struct Roads {
        var x: [Float] = [], y: [Float] = []
        var from = ContiguousArray<UInt32>(), to = ContiguousArray<UInt32>()

        mutating func junction(_ px: Float, _ py: Float) -> Int { x.append(px); y.append(py); return x.count - 1 }
        mutating func road(_ a: Int, _ b: Int) { from.append(UInt32(a)); to.append(UInt32(b)) }

        /// Adds a width × height grid of junctions one unit apart, its lower left corner at (left, bottom); returns
        /// the junction at column c, row r as `first + r * width + c`.
        mutating func grid(width: Int, height: Int, left: Float, bottom: Float) -> Int {
            let first = x.count
            for row in 0..<height { for column in 0..<width { _ = junction(left + Float(column), bottom + Float(row)) } }
            for row in 0..<height {
                for column in 0..<width {
                    let here = first + row * width + column
                    if column + 1 < width { road(here, here + 1) }
                    if row + 1 < height { road(here, here + width) }
                }
            }
            return first
        }

        var turns: TurnGraph {
            var graph = TurnGraph()
            var leaving = [[Int]](repeating: [], count: x.count)  // directed edges leaving each junction
            for road in from.indices {
                leaving[Int(from[road])].append(2 * road)
                leaving[Int(to[road])].append(2 * road + 1)
            }
            graph.firstOut = [0]
            for directed in 0..<(2 * from.count) {
                graph.directedEdge.append(UInt32(directed))
                let road = directed >> 1
                let arrival = Int(directed & 1 == 0 ? to[road] : from[road])
                for next in leaving[arrival] where next >> 1 != road { graph.head.append(UInt32(next)) }
                graph.firstOut.append(UInt32(graph.head.count))
            }
            return graph
        }

        func order(leafSize: Int, plane: Bool = true) throws -> ContiguousArray<UInt32> {
            try JunctionDissectionOrder.compute(turns: turns, edgeFrom: from, edgeTo: to, junctionCount: x.count,
                                                plane: plane ? (x, y) : ([Float](repeating: 0, count: x.count), [Float](repeating: 0, count: x.count)),
                                                leafSize: leafSize)
        }
    }

    /// Two 12 × 12 blocks joined by two roads; the four routing nodes on those roads separate the blocks, so they
    /// take the four highest ranks.
    ///
    ///     o-o-o ... o-o-o       o-o-o ... o-o-o
    ///     |  block A    |       |   block B   |
    ///     o-o-o ... o-o-o=======o-o-o ... o-o-o    row 3
    ///     |             |       |             |
    ///     o-o-o ... o-o-o=======o-o-o ... o-o-o    row 8
    ///     o-o-o ... o-o-o       o-o-o ... o-o-o
    @Test func twoBlocksAreCutAtTheTwoRoadsJoiningThem() throws {
        var roads = Roads()
        let a = roads.grid(width: 12, height: 12, left: 0, bottom: 0)
        let b = roads.grid(width: 12, height: 12, left: 20, bottom: 0)
        let joinFirst = roads.from.count
        roads.road(a + 3 * 12 + 11, b + 3 * 12)
        roads.road(a + 8 * 12 + 11, b + 8 * 12)
        let rank = try roads.order(leafSize: 50)
        let top = Set((0..<rank.count).filter { Int(rank[$0]) >= rank.count - 4 })
        #expect(top == Set([2 * joinFirst, 2 * joinFirst + 1, 2 * joinFirst + 2, 2 * joinFirst + 3]),
                "the highest four ranks should be the joining roads' routing nodes")
    }

    @Test func orderIsAPermutationAndDeterministicAcrossThreads() throws {
        var roads = Roads()
        _ = roads.grid(width: 60, height: 50, left: 0, bottom: 0)
        let alone = try roads.order(leafSize: 100)
        let drawn = roads
        #expect(alone.count == 2 * roads.from.count)
        #expect(Set(alone).count == alone.count)
        #expect(alone.allSatisfy { Int($0) < alone.count })
        final class Box: @unchecked Sendable { var rank = ContiguousArray<UInt32>() }
        let boxes = [Box(), Box()]
        DispatchQueue.concurrentPerform(iterations: 2) { index in boxes[index].rank = (try? drawn.order(leafSize: 100)) ?? [] }
        #expect(boxes[0].rank == alone)
        #expect(boxes[1].rank == alone)
    }

    /// On a 70 × 70 grid (19,320 routing nodes) the hierarchy is no larger than METIS nested dissection's on the
    /// same turn graph (within 5 %).
    @Test func hierarchyIsNoLargerThanMetisAlone() throws {
        var roads = Roads()
        _ = roads.grid(width: 70, height: 70, left: 0, bottom: 0)
        let turns = roads.turns
        let graph = (nodeCount: turns.nodeCount, firstOut: turns.firstOut, head: turns.head)
        let metis = try NestedDissectionOrder.compute(nodeCount: turns.nodeCount, firstOut: turns.firstOut, head: turns.head)
        let cut = try roads.order(leafSize: 1_000)
        let metisArcs = try NestedDissectionOrderTests.hierarchyArcs(graph, rank: metis)
        let cutArcs = try NestedDissectionOrderTests.hierarchyArcs(graph, rank: cut)
        #expect(Double(cutArcs) <= 1.05 * Double(metisArcs), "inertial flow order \(cutArcs) CCH arcs vs METIS \(metisArcs)")
    }

    /// Junctions without positions (DIMACS graphs have none) are ordered by METIS alone: the same order as
    /// NestedDissectionOrder's.
    @Test func withoutPositionsTheOrderIsMetisAlone() throws {
        var roads = Roads()
        _ = roads.grid(width: 30, height: 30, left: 0, bottom: 0)
        let turns = roads.turns
        let metis = try NestedDissectionOrder.compute(nodeCount: turns.nodeCount, firstOut: turns.firstOut, head: turns.head)
        #expect(try roads.order(leafSize: 100, plane: false) == metis)
    }
}
