import CMetis
import Foundation
import NavGraphCore

/// Inertial flow (Schild and Sommer): a balanced small edge cut of a junction graph laid out on the map. For each of
/// two directions (the principal axis of the junctions' positions and the one across it) the junctions are sorted
/// along the direction; the first and the last `sourceShare` of the weight become sources and sinks, and a maximum
/// flow (edge capacities = edge weights) gives a minimum cut between them. The smaller cut wins. Both sides hold at
/// least `sourceShare` of the weight. Made and used by one thread (large graphs run their two directions on two
/// worker threads inside `init`).
package struct InertialFlowCut {
    /// Per junction: 0 (source side) or 1.
    package var side: [idx_t] = []

    /// Graphs with at least this many junctions try their directions on two threads.
    package static let parallelSize = 100_000

    /// Cuts `graph` (adjacency lists sorted, no loops), whose junction i lies at (x[i], y[i]) on a plane.
    package init(graph: WeightedJunctionGraph, x: [Float], y: [Float], sourceShare: Double = 0.25) {
        let count = graph.junctionCount
        let reverse = InertialFlowCut.reverseArcs(graph)
        let total = graph.junctionWeight.reduce(0) { $0 + Int($1) }
        // Along the part's principal axis and across it. West-east and south-north instead gave malta 13 % larger
        // search spaces than METIS; four directions cost a third more order time (Benchmarks/IMPORT.md, "Design, phase by phase").
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
                let (cut, sourceSide) = flow.minimumCut(terminal: terminal, bound: { best.bound })
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
    package static func principalAxes(x: [Float], y: [Float]) -> [(Float, Float)] {
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

    /// Junction indices sorted by their position along direction (dx, dy), ties by index: a least-significant-digit
    /// radix sort of the positions' bits (three stable passes of 11 bits), in the order a sort of (key, index) pairs gives.
    package static func sortedAlong(dx: Float, dy: Float, x: [Float], y: [Float]) -> [Int] {
        let count = x.count
        var keys = [UInt32](repeating: 0, count: count), order = [UInt32](repeating: 0, count: count)
        for index in 0..<count {
            let bits = (dx * x[index] + dy * y[index]).bitPattern
            keys[index] = bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000  // float order as unsigned order
            order[index] = UInt32(index)
        }
        var otherKeys = keys, otherOrder = order
        var counts = [Int](repeating: 0, count: 2_048)
        for shift: UInt32 in [0, 11, 22] {
            for bucket in counts.indices { counts[bucket] = 0 }
            for key in keys { counts[Int((key >> shift) & 2_047)] += 1 }
            if counts.contains(count) { continue }  // every key has this digit: the pass would change nothing
            var position = 0
            for bucket in counts.indices { let size = counts[bucket]; counts[bucket] = position; position += size }
            for index in 0..<count {
                let bucket = Int((keys[index] >> shift) & 2_047)
                otherKeys[counts[bucket]] = keys[index]
                otherOrder[counts[bucket]] = order[index]
                counts[bucket] += 1
            }
            swap(&keys, &otherKeys)
            swap(&order, &otherOrder)
        }
        return order.map { Int($0) }
    }

    /// For arc a from u to v, the index of the arc from v to u. The graph is symmetric and its lists sorted, so the
    /// arcs into v, met in the order of their tails, pair with v's list in order: one cursor per junction, no search.
    package static func reverseArcs(_ graph: WeightedJunctionGraph) -> [Int32] {
        var reverse = [Int32](repeating: 0, count: graph.adjacency.count)
        var cursor = [Int32](repeating: 0, count: graph.junctionCount)
        for junction in 0..<graph.junctionCount { cursor[junction] = Int32(graph.xadj[junction]) }
        for tail in 0..<graph.junctionCount {
            for arc in Int(graph.xadj[tail])..<Int(graph.xadj[tail + 1]) {
                let head = Int(graph.adjacency[arc])
                reverse[arc] = cursor[head]
                cursor[head] += 1
            }
        }
        return reverse
    }

    /// The minimum cut between the junctions `terminal` marks 1 (sources) and 2 (sinks): its weight and the junctions
    /// reachable from a source in the residual graph (for tests against a plain augmenting-path flow).
    package static func minimumCut(graph: WeightedJunctionGraph, terminal: [Int8]) -> (weight: Int, sourceSide: [Bool]) {
        let flow = MaximumFlow(graph: graph, reverse: reverseArcs(graph))
        let (weight, sourceSide) = flow.minimumCut(terminal: terminal, bound: { nil })
        return (weight, sourceSide ?? [])
    }
}

/// The smallest cut the directions found so far (ties: the better balanced, then the first direction), shared by
/// the threads trying them.
private final class BestCut: @unchecked Sendable {
    private let lock = NSLock()
    private var best: (cut: Int, imbalance: Int, direction: Int, sourceSide: [Bool])?

    /// The cut weight a flow may stop above (nil: none yet).
    package var bound: Int? { lock.withLock { best?.cut } }
    package var result: (cut: Int, imbalance: Int, direction: Int, sourceSide: [Bool])? { lock.withLock { best } }

    package func offer(cut: Int, imbalance: Int, direction: Int, sourceSide: [Bool]) {
        lock.withLock {
            if let best, (best.cut, best.imbalance, best.direction) <= (cut, imbalance, direction) { return }
            best = (cut, imbalance, direction, sourceSide)
        }
    }
}

/// Maximum flow between a set of source and a set of sink junctions on an undirected weighted graph, by Boykov and
/// Kolmogorov's algorithm: one search tree grows from the sources and one from the sinks; where they touch, the path
/// through both is augmented, and the junctions cut off by saturated arcs are re-attached or freed instead of growing
/// the trees again. Dinic's algorithm, used before, searched again from every source for each longer path (about as
/// many searches as the cut's weight on the tiled inputs). Any maximum flow gives the same cut, the junctions reachable
/// from a source in the residual graph. Buffers are reused from one call to the next; one object per thread.
private final class MaximumFlow {
    package let graph: WeightedJunctionGraph
    package let reverse: [Int32]
    package let count: Int
    /// Per arc: capacity left.
    private let residual: UnsafeMutableBufferPointer<Int32>
    /// Per junction: 0 free, 1 in the source tree, 2 in the sink tree.
    private let tree: UnsafeMutableBufferPointer<Int8>
    /// Per junction in a tree: the arc from it to its parent, or `MaximumFlow.root` / `orphan`; `free` otherwise.
    private let parentArc: UnsafeMutableBufferPointer<Int32>
    /// Per junction: when its distance to a root was last known right (augmentations so far), and that distance.
    private let stamp: UnsafeMutableBufferPointer<Int32>
    private let distance: UnsafeMutableBufferPointer<Int32>
    /// The junctions whose tree may still grow, first in first out (a ring of `count + 1` slots), and whether queued.
    private let queue: UnsafeMutableBufferPointer<Int32>
    private let queued: UnsafeMutableBufferPointer<Bool>
    private var orphans: [Int32] = []

    private static let root: Int32 = -1, orphan: Int32 = -2, free: Int32 = -3

    package init(graph: WeightedJunctionGraph, reverse: [Int32]) {
        self.graph = graph
        self.reverse = reverse
        count = graph.junctionCount
        residual = .allocate(capacity: graph.adjacency.count)
        tree = .allocate(capacity: count)
        parentArc = .allocate(capacity: count)
        stamp = .allocate(capacity: count)
        distance = .allocate(capacity: count)
        queue = .allocate(capacity: count + 1)
        queued = .allocate(capacity: count)
    }

    deinit {
        residual.deallocate(); tree.deallocate(); parentArc.deallocate(); stamp.deallocate(); distance.deallocate()
        queue.deallocate(); queued.deallocate()
    }

    /// The cut's weight and the junctions on the source side (reachable from a source in the residual graph), or nil
    /// once the flow exceeds `bound()` (a smaller cut was found already; read after every augmentation).
    /// `terminal`: 1 source, 2 sink, 0 neither.
    package func minimumCut(terminal: [Int8], bound: () -> Int?) -> (Int, [Bool]?) {
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
                            reverse: UnsafeBufferPointer<Int32>, terminal: UnsafeBufferPointer<Int8>, bound: () -> Int?) -> (Int, [Bool]?) {
        let residual = self.residual, tree = self.tree, parentArc = self.parentArc, stamp = self.stamp
        let distance = self.distance, queue = self.queue, queued = self.queued
        let root = MaximumFlow.root, orphan = MaximumFlow.orphan, free = MaximumFlow.free
        for arc in 0..<adjacency.count { residual[arc] = weight[arc] }
        let slots = count + 1
        var head = 0, tail = 0
        func activate(_ junction: Int) {
            if queued[junction] { return }
            queued[junction] = true
            queue[tail] = Int32(junction)
            tail = tail + 1 == slots ? 0 : tail + 1
        }
        for junction in 0..<count {
            queued[junction] = false
            stamp[junction] = 0
            distance[junction] = 1
            let kind = terminal[junction]
            tree[junction] = kind
            parentArc[junction] = kind == 0 ? free : root
        }
        // Only terminals with a neighbour of another kind start growing (the others are never reached).
        for junction in 0..<count where terminal[junction] != 0 {
            for arc in Int(xadj[junction])..<Int(xadj[junction + 1]) where terminal[Int(adjacency[arc])] != terminal[junction] {
                activate(junction); break
            }
        }
        var time: Int32 = 0
        var total = 0
        orphans.removeAll(keepingCapacity: true)

        /// Pushes the path's bottleneck along source root → `fromSource` → `toSink` → sink root (`middle` joins the
        /// two); the junctions below arcs it saturates become orphans. Returns the amount pushed.
        func augment(fromSource: Int, toSink: Int, middle: Int) -> Int32 {
            var bottleneck = residual[middle]
            var junction = fromSource
            while parentArc[junction] != root {
                let arc = Int(parentArc[junction])
                bottleneck = min(bottleneck, residual[Int(reverse[arc])])
                junction = Int(adjacency[arc])
            }
            junction = toSink
            while parentArc[junction] != root {
                let arc = Int(parentArc[junction])
                bottleneck = min(bottleneck, residual[arc])
                junction = Int(adjacency[arc])
            }
            residual[middle] -= bottleneck
            residual[Int(reverse[middle])] += bottleneck
            junction = fromSource
            while parentArc[junction] != root {
                let arc = Int(parentArc[junction]), down = Int(reverse[arc])
                residual[down] -= bottleneck
                residual[arc] += bottleneck
                let parent = Int(adjacency[arc])
                if residual[down] == 0 { parentArc[junction] = orphan; orphans.append(Int32(junction)) }
                junction = parent
            }
            junction = toSink
            while parentArc[junction] != root {
                let arc = Int(parentArc[junction])
                residual[arc] -= bottleneck
                residual[Int(reverse[arc])] += bottleneck
                let parent = Int(adjacency[arc])
                if residual[arc] == 0 { parentArc[junction] = orphan; orphans.append(Int32(junction)) }
                junction = parent
            }
            return bottleneck
        }

        /// Gives each orphan a parent in its tree that still leads to a root (the nearest one found), or frees it:
        /// its children become orphans and its tree neighbours that could reach it grow again.
        func adoptOrphans() {
            var next = 0
            while next < orphans.count {
                let junction = Int(orphans[next]); next += 1
                let side = tree[Int(junction)]
                var best = -1, bestDistance = Int32.max
                for arc in Int(xadj[junction])..<Int(xadj[junction + 1]) {
                    let neighbor = Int(adjacency[arc])
                    guard tree[neighbor] == side, residual[side == 1 ? Int(reverse[arc]) : arc] > 0 else { continue }
                    // Does the neighbour still lead to a root? Walk up until a root or a junction checked already.
                    var walked = neighbor, steps: Int32 = 0, reaches = false
                    while true {
                        if stamp[walked] == time { steps += distance[walked]; reaches = true; break }
                        let up = parentArc[walked]
                        steps += 1
                        if up == root { stamp[walked] = time; distance[walked] = 1; reaches = true; break }
                        if up < 0 { break }
                        walked = Int(adjacency[Int(up)])
                    }
                    guard reaches else { continue }
                    if steps < bestDistance { bestDistance = steps; best = arc }
                    var marked = neighbor
                    while stamp[marked] != time {
                        stamp[marked] = time; distance[marked] = steps; steps -= 1
                        marked = Int(adjacency[Int(parentArc[marked])])
                    }
                }
                if best >= 0 {
                    parentArc[junction] = Int32(best); stamp[junction] = time; distance[junction] = bestDistance + 1
                    continue
                }
                tree[junction] = 0
                parentArc[junction] = free
                for arc in Int(xadj[junction])..<Int(xadj[junction + 1]) {
                    let neighbor = Int(adjacency[arc])
                    guard tree[neighbor] == side else { continue }
                    if residual[side == 1 ? Int(reverse[arc]) : arc] > 0 { activate(neighbor) }
                    let up = parentArc[neighbor]
                    if up >= 0 && Int(adjacency[Int(up)]) == junction { parentArc[neighbor] = orphan; orphans.append(Int32(neighbor)) }
                }
            }
            orphans.removeAll(keepingCapacity: true)
        }

        while head != tail {
            let junction = Int(queue[head])
            head = head + 1 == slots ? 0 : head + 1
            queued[junction] = false
            // Grow the junction's tree by its free neighbours until a neighbour in the other tree closes a path.
            while tree[junction] != 0 {
                let side = tree[junction]
                var path: (fromSource: Int, toSink: Int, middle: Int)?
                for arc in Int(xadj[junction])..<Int(xadj[junction + 1]) {
                    let neighbor = Int(adjacency[arc])
                    let toward = side == 1 ? arc : Int(reverse[arc])  // the arc from the source side to the sink side
                    guard residual[toward] > 0 else { continue }
                    let other = tree[neighbor]
                    if other == 0 {
                        tree[neighbor] = side
                        parentArc[neighbor] = reverse[arc]
                        stamp[neighbor] = stamp[junction]; distance[neighbor] = distance[junction] + 1
                        activate(neighbor)
                    } else if other != side {
                        path = side == 1 ? (junction, neighbor, arc) : (neighbor, junction, toward)
                        break
                    } else if stamp[neighbor] <= stamp[junction] && distance[neighbor] > distance[junction] {
                        // A shorter way to a root for the neighbour (keeps the trees shallow).
                        parentArc[neighbor] = reverse[arc]
                        stamp[neighbor] = stamp[junction]; distance[neighbor] = distance[junction] + 1
                    }
                }
                guard let path else { break }
                time += 1
                total += Int(augment(fromSource: path.fromSource, toSink: path.toSink, middle: path.middle))
                if let bound = bound(), total > bound { return (total, nil) }
                adoptOrphans()
            }
        }
        // The source side: reachable from a source in the residual graph.
        var reachable = [Bool](repeating: false, count: count)
        head = 0; tail = 0
        for junction in 0..<count where terminal[junction] == 1 {
            reachable[junction] = true
            queue[tail] = Int32(junction); tail += 1
        }
        while head < tail {
            let junction = Int(queue[head]); head += 1
            for arc in Int(xadj[junction])..<Int(xadj[junction + 1]) where residual[arc] > 0 {
                let next = Int(adjacency[arc])
                if !reachable[next] { reachable[next] = true; queue[tail] = Int32(next); tail += 1 }
            }
        }
        return (total, reachable)
    }
}
