import CMetis
import Foundation

/// Inertial flow (Schild and Sommer): a balanced small edge cut of a junction graph laid out on the map. For each of
/// two directions (the principal axis of the junctions' positions and the one across it) the junctions are sorted
/// along the direction; the first and the last `sourceShare` of the weight become sources and sinks, and a maximum
/// flow (edge capacities = edge weights) gives a minimum cut between them. The smaller cut wins. Both sides hold at
/// least `sourceShare` of the weight. Made and used by one thread (large graphs run their two directions on two
/// worker threads inside `init`).
struct InertialFlowCut {
    /// Per junction: 0 (source side) or 1.
    var side: [idx_t] = []

    /// Graphs with at least this many junctions try their directions on two threads.
    static let parallelSize = 100_000

    /// Cuts `graph` (adjacency lists sorted, no loops), whose junction i lies at (x[i], y[i]) on a plane.
    init(graph: WeightedJunctionGraph, x: [Float], y: [Float], sourceShare: Double = 0.25) {
        let count = graph.junctionCount
        let reverse = InertialFlowCut.reverseArcs(graph)
        let total = graph.junctionWeight.reduce(0) { $0 + Int($1) }
        // Along the part's principal axis and across it. West-east and south-north instead gave malta 13 % larger
        // search spaces than METIS; four directions cost a third more order time (Benchmarks/IMPORT.md, fourteenth part).
        let directions = InertialFlowCut.principalAxes(x: x, y: y)
        let best = BestCut()
        // The other core is idle at the top of the dissection, so large graphs try the two directions at once.
        let threads = count >= InertialFlowCut.parallelSize ? min(2, Parallel.workerCount) : 1
        PhaseWorkers.run(threads) { thread in
            let flow = MaximumFlow(graph: graph, reverse: reverse)
            for direction in stride(from: thread, to: directions.count, by: threads) {
                let (dx, dy) = directions[direction]
                let order = InertialFlowCut.sortedAlong(dx: dx, dy: dy, x: x, y: y)
                var terminal = [Int8](repeating: 0, count: count)  // 1 source, 2 sink
                let share = Int(Double(total) * sourceShare)
                var taken = 0
                for junction in order where taken < share { terminal[junction] = 1; taken += Int(graph.junctionWeight[junction]) }
                taken = 0
                for junction in order.reversed() where taken < share && terminal[junction] == 0 {
                    terminal[junction] = 2; taken += Int(graph.junctionWeight[junction])
                }
                let (cut, sourceSide) = flow.minimumCut(terminal: terminal, bound: best.bound)
                guard let sourceSide else { continue }
                var sourceWeight = 0
                for junction in 0..<count where sourceSide[junction] { sourceWeight += Int(graph.junctionWeight[junction]) }
                best.offer(cut: cut, imbalance: abs(total - 2 * sourceWeight), direction: direction, sourceSide: sourceSide)
            }
        }
        let result = best.result
        side = result?.sourceSide.map { $0 ? 0 : 1 } ?? [idx_t](repeating: 0, count: count)
    }

    /// The principal axis of the positions (the direction of their largest spread) and the one across it.
    static func principalAxes(x: [Float], y: [Float]) -> [(Float, Float)] {
        let n = Double(max(1, x.count))
        let mx = x.reduce(0.0) { $0 + Double($1) } / n, my = y.reduce(0.0) { $0 + Double($1) } / n
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for index in x.indices {
            let dx = Double(x[index]) - mx, dy = Double(y[index]) - my
            sxx += dx * dx; syy += dy * dy; sxy += dx * dy
        }
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        let (c, s) = (Float(cos(angle)), Float(sin(angle)))
        return [(c, s), (-s, c)]
    }

    /// Junction indices sorted by their position along direction (dx, dy): keys packed with the index into one
    /// integer each, so that the sort compares integers.
    static func sortedAlong(dx: Float, dy: Float, x: [Float], y: [Float]) -> [Int] {
        var packed = [UInt64](repeating: 0, count: x.count)
        for index in x.indices {
            let bits = (dx * x[index] + dy * y[index]).bitPattern
            let ordered = bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000  // float order as unsigned order
            packed[index] = UInt64(ordered) << 32 | UInt64(index)
        }
        packed.sort()
        return packed.map { Int($0 & 0xFFFF_FFFF) }
    }

    /// For arc a from u to v, the index of the arc from v to u (lists sorted, so a binary search).
    static func reverseArcs(_ graph: WeightedJunctionGraph) -> [Int32] {
        var reverse = [Int32](repeating: 0, count: graph.adjacency.count)
        for tail in 0..<graph.junctionCount {
            for arc in Int(graph.xadj[tail])..<Int(graph.xadj[tail + 1]) {
                let head = Int(graph.adjacency[arc])
                var low = Int(graph.xadj[head]), high = Int(graph.xadj[head + 1])
                while low < high {
                    let middle = (low + high) / 2
                    if graph.adjacency[middle] < idx_t(tail) { low = middle + 1 } else { high = middle }
                }
                reverse[arc] = Int32(low)
            }
        }
        return reverse
    }
}

/// The smallest cut the directions found so far (ties: the better balanced, then the first direction), shared by
/// the threads trying them.
private final class BestCut: @unchecked Sendable {
    private let lock = NSLock()
    private var best: (cut: Int, imbalance: Int, direction: Int, sourceSide: [Bool])?

    /// The cut weight a flow may stop above (nil: none yet).
    var bound: Int? { lock.withLock { best?.cut } }
    var result: (cut: Int, imbalance: Int, direction: Int, sourceSide: [Bool])? { lock.withLock { best } }

    func offer(cut: Int, imbalance: Int, direction: Int, sourceSide: [Bool]) {
        lock.withLock {
            if let best, (best.cut, best.imbalance, best.direction) <= (cut, imbalance, direction) { return }
            best = (cut, imbalance, direction, sourceSide)
        }
    }
}

/// Dinic's maximum flow between a set of source and a set of sink junctions on an undirected weighted graph. Its
/// buffers are reused from one call to the next; one object per thread.
private final class MaximumFlow {
    let graph: WeightedJunctionGraph
    let reverse: [Int32]
    let count: Int
    private let flow: UnsafeMutableBufferPointer<Int32>
    private let level: UnsafeMutableBufferPointer<Int32>
    private let current: UnsafeMutableBufferPointer<Int32>
    private let queue: UnsafeMutableBufferPointer<Int32>
    private let stack: UnsafeMutableBufferPointer<Int32>

    init(graph: WeightedJunctionGraph, reverse: [Int32]) {
        self.graph = graph
        self.reverse = reverse
        count = graph.junctionCount
        flow = .allocate(capacity: graph.adjacency.count)
        level = .allocate(capacity: count)
        current = .allocate(capacity: count)
        queue = .allocate(capacity: count)
        stack = .allocate(capacity: count + 1)
    }

    deinit { flow.deallocate(); level.deallocate(); current.deallocate(); queue.deallocate(); stack.deallocate() }

    /// The cut's weight and the junctions on the source side (reachable from a source in the residual graph), or nil
    /// when the flow exceeds `bound` (a cut as small was found already). `terminal`: 1 source, 2 sink, 0 neither.
    func minimumCut(terminal: [Int8], bound: Int?) -> (Int, [Bool]?) {
        graph.xadj.withUnsafeBufferPointer { xadj in
            graph.adjacency.withUnsafeBufferPointer { adjacency in
                graph.edgeWeight.withUnsafeBufferPointer { weight in
                    reverse.withUnsafeBufferPointer { reverse in
                        terminal.withUnsafeBufferPointer { terminal in
                            minimumCut(xadj: xadj, adjacency: adjacency, weight: weight, reverse: reverse, terminal: terminal, bound: bound)
                        }
                    }
                }
            }
        }
    }

    private func minimumCut(xadj: UnsafeBufferPointer<idx_t>, adjacency: UnsafeBufferPointer<idx_t>, weight: UnsafeBufferPointer<idx_t>,
                            reverse: UnsafeBufferPointer<Int32>, terminal: UnsafeBufferPointer<Int8>, bound: Int?) -> (Int, [Bool]?) {
        flow.update(repeating: 0)
        // Only sources with a neighbour that is not a source start searches (the others are never reached).
        var boundary: [Int32] = []
        for junction in 0..<count where terminal[junction] == 1 {
            for arc in Int(xadj[junction])..<Int(xadj[junction + 1]) where terminal[Int(adjacency[arc])] != 1 {
                boundary.append(Int32(junction)); break
            }
        }
        var total = 0
        while true {
            // Levels from the sources along arcs with residual capacity; stop at the first level holding a sink.
            for junction in 0..<count { level[junction] = terminal[junction] == 1 ? 0 : -1 }
            var tail = 0
            for junction in boundary { queue[tail] = junction; tail += 1 }
            var head = 0, sinkLevel = Int32.max
            while head < tail {
                let node = Int(queue[head]); head += 1
                let nextLevel = level[node] + 1
                if nextLevel > sinkLevel { break }
                for arc in Int(xadj[node])..<Int(xadj[node + 1]) where weight[arc] > flow[arc] {
                    let next = Int(adjacency[arc])
                    if level[next] >= 0 { continue }
                    level[next] = nextLevel
                    if terminal[next] == 2 { sinkLevel = nextLevel } else { queue[tail] = Int32(next); tail += 1 }
                }
            }
            if sinkLevel == Int32.max { break }
            // Blocking flow: depth-first paths from each source along increasing levels; junctions with no way on
            // are cut off (level -1).
            for junction in 0..<count { current[junction] = xadj[junction] }
            for source in boundary {
                while true {
                    var depth = 0
                    stack[0] = source
                    var reached = false
                    while depth >= 0 {
                        let node = Int(stack[depth])
                        if terminal[node] == 2 { reached = true; break }
                        var advanced = false
                        let end = xadj[node + 1], wanted = level[node] + 1
                        while current[node] < end {
                            let arc = Int(current[node])
                            let next = Int(adjacency[arc])
                            if weight[arc] > flow[arc] && level[next] == wanted {
                                depth += 1; stack[depth] = Int32(next); advanced = true; break
                            }
                            current[node] += 1
                        }
                        if !advanced {
                            level[node] = -1
                            depth -= 1
                            if depth >= 0 { current[Int(stack[depth])] += 1 }
                        }
                    }
                    if !reached { break }
                    var bottleneck = Int32.max
                    for index in 0..<depth {
                        let arc = Int(current[Int(stack[index])])
                        bottleneck = min(bottleneck, weight[arc] - flow[arc])
                    }
                    for index in 0..<depth {
                        let arc = Int(current[Int(stack[index])])
                        flow[arc] += bottleneck
                        flow[Int(reverse[arc])] -= bottleneck
                    }
                    total += Int(bottleneck)
                    if let bound, total > bound { return (total, nil) }
                }
            }
        }
        // The source side: reachable from a source in the residual graph.
        var reachable = [Bool](repeating: false, count: count)
        var tail = 0
        for junction in 0..<count where terminal[junction] == 1 { reachable[junction] = true }
        for junction in boundary { queue[tail] = junction; tail += 1 }
        var head = 0
        while head < tail {
            let node = Int(queue[head]); head += 1
            for arc in Int(xadj[node])..<Int(xadj[node + 1]) where weight[arc] > flow[arc] {
                let next = Int(adjacency[arc])
                if !reachable[next] { reachable[next] = true; queue[tail] = Int32(next); tail += 1 }
            }
        }
        return (total, reachable)
    }
}
