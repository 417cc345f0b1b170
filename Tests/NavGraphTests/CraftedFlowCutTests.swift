@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// The inertial flow's maximum flow (Boykov–Kolmogorov, `InertialFlowCut.minimumCut`) against a plain augmenting-path
/// flow (one breadth-first search per path) on random junction graphs: the same cut weight and the same source side.
struct CraftedFlowCutTests {
    /// A symmetric weighted graph in `WeightedJunctionGraph` form from undirected edges (parallel ones merged).
    static func graph(count: Int, edges: [(Int, Int, Int32)]) -> WeightedJunctionGraph {
        var lists = [[Int: Int32]](repeating: [:], count: count)
        for (a, b, weight) in edges where a != b {
            lists[a][b, default: 0] += weight
            lists[b][a, default: 0] += weight
        }
        var graph = WeightedJunctionGraph()
        for junction in 0..<count {
            for (neighbor, weight) in lists[junction].sorted(by: { $0.key < $1.key }) {
                graph.adjacency.append(Int32(neighbor))
                graph.edgeWeight.append(weight)
            }
            graph.xadj.append(Int32(graph.adjacency.count))
            graph.junctionWeight.append(1)
            graph.loopNodes.append(0)
        }
        return graph
    }

    /// Edmonds–Karp from all sources to all sinks: the flow's value and the junctions reachable from a source in
    /// the residual graph.
    static func referenceCut(_ graph: WeightedJunctionGraph, terminal: [Int8]) -> (weight: Int, sourceSide: [Bool]) {
        let count = graph.junctionCount
        var residual = graph.edgeWeight.map { Int($0) }
        let reverse = InertialFlowCut.reverseArcs(graph)
        var total = 0
        while true {
            var via = [Int](repeating: -1, count: count)  // arc that reached each junction; -2 for sources
            var queue: [Int] = []
            for junction in 0..<count where terminal[junction] == 1 { via[junction] = -2; queue.append(junction) }
            var reached = -1, next = 0
            search: while next < queue.count {
                let junction = queue[next]; next += 1
                for arc in Int(graph.xadj[junction])..<Int(graph.xadj[junction + 1]) where residual[arc] > 0 {
                    let head = Int(graph.adjacency[arc])
                    if via[head] != -1 { continue }
                    via[head] = arc
                    if terminal[head] == 2 { reached = head; break search }
                    queue.append(head)
                }
            }
            if reached < 0 { return (total, via.map { $0 != -1 }) }
            var bottleneck = Int.max, junction = reached
            while via[junction] >= 0 {
                let arc = via[junction]
                bottleneck = min(bottleneck, residual[arc])
                junction = Int(graph.adjacency[Int(reverse[arc])])
            }
            junction = reached
            while via[junction] >= 0 {
                let arc = via[junction]
                residual[arc] -= bottleneck
                residual[Int(reverse[arc])] += bottleneck
                junction = Int(graph.adjacency[Int(reverse[arc])])
            }
            total += bottleneck
        }
    }

    /// Random road-like graphs: a width × height grid with some streets missing, weights 1 or 2 (one-way or two-way
    /// roads' routing nodes), a few long diagonals; sources and sinks are the first and last columns' junctions or a
    /// random sprinkling of them.
    @Test func sameCutAsAPlainAugmentingPathFlow() {
        var random = SeededGenerator(seed: 0x5eed_f10c)
        for round in 0..<300 {
            let width = 3 + random.below(20), height = 3 + random.below(20)
            let count = width * height
            var edges: [(Int, Int, Int32)] = []
            for row in 0..<height {
                for column in 0..<width {
                    let here = row * width + column
                    if column + 1 < width && random.below(10) > 1 { edges.append((here, here + 1, Int32(1 + random.below(2)))) }
                    if row + 1 < height && random.below(10) > 1 { edges.append((here, here + width, Int32(1 + random.below(2)))) }
                }
            }
            for _ in 0..<random.below(4) { edges.append((random.below(count), random.below(count), Int32(1 + random.below(3)))) }
            let graph = Self.graph(count: count, edges: edges)
            var terminal = [Int8](repeating: 0, count: count)
            if round % 3 == 0 {
                for _ in 0..<(1 + random.below(count / 4)) { terminal[random.below(count)] = 1 }
                for _ in 0..<(1 + random.below(count / 4)) { terminal[random.below(count)] = 2 }
            } else {
                let band = 1 + random.below(width / 3)
                for row in 0..<height {
                    for column in 0..<band { terminal[row * width + column] = 1 }
                    for column in (width - band)..<width where terminal[row * width + column] == 0 { terminal[row * width + column] = 2 }
                }
            }
            let expected = Self.referenceCut(graph, terminal: terminal)
            let found = InertialFlowCut.minimumCut(graph: graph, terminal: terminal)
            #expect(found.weight == expected.weight, "round \(round): \(width) × \(height)")
            #expect(found.sourceSide == expected.sourceSide, "round \(round): \(width) × \(height)")
        }
    }

    /// The reverse of every arc leads back: from u to v, then from v to u.
    @Test func reverseArcsPairEveryArcWithItsOpposite() {
        var random = SeededGenerator(seed: 7)
        let graph = Self.graph(count: 60, edges: (0..<200).map { _ in (random.below(60), random.below(60), 1) })
        let reverse = InertialFlowCut.reverseArcs(graph)
        for tail in 0..<graph.junctionCount {
            for arc in Int(graph.xadj[tail])..<Int(graph.xadj[tail + 1]) {
                let back = Int(reverse[arc])
                #expect(Int(graph.adjacency[back]) == tail)
                #expect(back >= Int(graph.xadj[Int(graph.adjacency[arc])]) && back < Int(graph.xadj[Int(graph.adjacency[arc]) + 1]))
            }
        }
    }

    /// Positions sorted along a direction come out in the order of a plain sort of (position, index) pairs, ties
    /// and negative positions included.
    @Test func radixSortAlongADirectionMatchesAPlainSort() {
        var random = SeededGenerator(seed: 11)
        for count in [0, 1, 2, 17, 1_000, 5_000] {
            let x = (0..<count).map { _ in Float(random.below(200)) / 7 - 14 }
            let y = (0..<count).map { _ in Float(random.below(200)) / 3 - 30 }
            let (dx, dy): (Float, Float) = (0.6, -0.8)
            let expected = (0..<count).sorted { a, b in
                let ka = dx * x[a] + dy * y[a], kb = dx * x[b] + dy * y[b]
                return ka != kb ? ka < kb : a < b
            }
            #expect(InertialFlowCut.sortedAlong(dx: dx, dy: dy, x: x, y: y) == expected, "\(count) positions")
        }
    }
}

extension SeededGenerator {
    /// A number in 0 ..< bound, or 0 when bound < 1.
    mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<max(1, bound), using: &self) }
}
