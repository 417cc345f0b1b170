/// Elimination-tree queries on a customized contraction hierarchy, with reusable per-query state.
public final class CCHSearch: ShortestPathSearch {
    private let cch: CCHView
    private let forwardDistance: UnsafeMutableBufferPointer<UInt32>
    private let backwardDistance: UnsafeMutableBufferPointer<UInt32>
    private let forwardPredecessorArc: UnsafeMutableBufferPointer<Int32>
    private let backwardPredecessorArc: UnsafeMutableBufferPointer<Int32>
    private let forwardPredecessorNode: UnsafeMutableBufferPointer<Int32>
    private let backwardPredecessorNode: UnsafeMutableBufferPointer<Int32>
    private let inForward: UnsafeMutableBufferPointer<Bool>
    private let inBackward: UnsafeMutableBufferPointer<Bool>
    /// Exact distances from the sources / to the targets over the search spaces (filled by `viaCandidates`),
    /// and the downward (forward sweep) or upward (backward sweep) arc that gave them, or -1 for the plain search distance.
    private let exactForward: UnsafeMutableBufferPointer<UInt32>
    private let exactBackward: UnsafeMutableBufferPointer<UInt32>
    private let exactForwardArc: UnsafeMutableBufferPointer<Int32>
    private let exactBackwardArc: UnsafeMutableBufferPointer<Int32>
    // A search belongs to one thread (one query at a time), so its mutable state skips the dynamic exclusivity
    // checks, which otherwise cost every query measurably (Benchmarks/IMPORT.md, "Checked builds").
    @exclusivity(unchecked) private var refundShift: UInt32 = 0
    @exclusivity(unchecked) private var forwardNodes = ContiguousArray<Int32>()
    @exclusivity(unchecked) private var backwardNodes = ContiguousArray<Int32>()
    @exclusivity(unchecked) private var unpackStack = ContiguousArray<(arc: Int32, low: Int32, up: Bool)>()
    @exclusivity(unchecked) private var upArcs = ContiguousArray<(arc: Int32, low: Int32)>()
    @exclusivity(unchecked) private var downArcs = ContiguousArray<(arc: Int32, low: Int32)>()

    public init(graph: RoutingGraph) {
        cch = graph.cch
        let count = max(1, cch.nodeCount)
        func buffer<T>(_ value: T) -> UnsafeMutableBufferPointer<T> {
            let pointer = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
            pointer.initialize(repeating: value)
            return pointer
        }
        forwardDistance = buffer(UInt32.max); backwardDistance = buffer(UInt32.max)
        forwardPredecessorArc = buffer(-1); backwardPredecessorArc = buffer(-1)
        forwardPredecessorNode = buffer(-1); backwardPredecessorNode = buffer(-1)
        inForward = buffer(false); inBackward = buffer(false)
        exactForward = buffer(UInt32.max); exactBackward = buffer(UInt32.max)
        exactForwardArc = buffer(-1); exactBackwardArc = buffer(-1)
    }

    deinit {
        forwardDistance.deallocate(); backwardDistance.deallocate()
        forwardPredecessorArc.deallocate(); backwardPredecessorArc.deallocate()
        forwardPredecessorNode.deallocate(); backwardPredecessorNode.deallocate()
        inForward.deallocate(); inBackward.deallocate()
        exactForward.deallocate(); exactBackward.deallocate()
        exactForwardArc.deallocate(); exactBackwardArc.deallocate()
    }

    public func search(sources: [Endpoint], targets: [Endpoint], metric: RoutingMetric) -> SearchResult? {
        guard let (cost, meeting) = distance(sources: sources, targets: targets, metric: metric) else { return nil }
        return SearchResult(cost: cost, nodes: path(meeting: meeting, metric: metric))
    }

    /// Cost of the best path and the node where its up and down parts meet.
    public func distance(sources: [Endpoint], targets: [Endpoint], metric: RoutingMetric) -> (Int, Int)? {
        reset()
        let refundShift = targets.map(\.cost).max() ?? 0
        self.refundShift = refundShift
        collectAncestors(of: sources.map(\.node), into: &forwardNodes, marks: inForward)
        collectAncestors(of: targets.map(\.node), into: &backwardNodes, marks: inBackward)
        for source in sources where source.cost < forwardDistance[source.node] { forwardDistance[source.node] = source.cost }
        for target in targets where refundShift - target.cost < backwardDistance[target.node] {
            backwardDistance[target.node] = refundShift - target.cost
        }
        relax(forwardNodes, distance: forwardDistance, predecessorArc: forwardPredecessorArc,
              predecessorNode: forwardPredecessorNode, weights: metric.hierarchy.forward)
        relax(backwardNodes, distance: backwardDistance, predecessorArc: backwardPredecessorArc,
              predecessorNode: backwardPredecessorNode, weights: metric.hierarchy.backward)
        var best = UInt64.max, meeting = -1
        for node32 in forwardNodes {
            let node = Int(node32)
            guard inBackward[node] else { continue }
            let forward = forwardDistance[node], backward = backwardDistance[node]
            if forward == UInt32.max || backward == UInt32.max { continue }
            let total = UInt64(forward) + UInt64(backward)
            if total < best { best = total; meeting = node }
        }
        guard meeting >= 0, best < UInt64(CCHMetric.infinity) + UInt64(refundShift) else { return nil }
        return (Int(best) - Int(refundShift), meeting)
    }

    @inline(__always)
    private func relax(_ nodes: ContiguousArray<Int32>, distance: UnsafeMutableBufferPointer<UInt32>,
                       predecessorArc: UnsafeMutableBufferPointer<Int32>, predecessorNode: UnsafeMutableBufferPointer<Int32>,
                       weights: UnsafeBufferPointer<UInt32>) {
        cch.relaxUpward(nodes, labels: distance, weights: weights) { head, arc, tail in
            predecessorArc[head] = Int32(truncatingIfNeeded: arc)
            predecessorNode[head] = tail
        }
    }

    /// Union of the elimination-tree paths from the given nodes to the root, in increasing rank.
    private func collectAncestors(of starts: [Int], into list: inout ContiguousArray<Int32>, marks: UnsafeMutableBufferPointer<Bool>) {
        let parent = cch.parent
        for start in starts {
            var node = start
            while node >= 0 && !marks[node] {
                marks[node] = true
                list.append(Int32(node))
                node = Int(parent[node])
            }
        }
        if starts.count > 1 { list.sort() }
    }

    private func reset() {
        for node in forwardNodes {
            forwardDistance[Int(node)] = UInt32.max; forwardPredecessorArc[Int(node)] = -1
            forwardPredecessorNode[Int(node)] = -1; inForward[Int(node)] = false
        }
        for node in backwardNodes {
            backwardDistance[Int(node)] = UInt32.max; backwardPredecessorArc[Int(node)] = -1
            backwardPredecessorNode[Int(node)] = -1; inBackward[Int(node)] = false
        }
        forwardNodes.removeAll(keepingCapacity: true)
        backwardNodes.removeAll(keepingCapacity: true)
    }

    /// Routing nodes of the unpacked path through `meeting`, from source to target.
    private func path(meeting: Int, metric: RoutingMetric) -> [Int] {
        var upArcs: [(arc: Int32, low: Int32)] = []
        var node = meeting
        while forwardPredecessorArc[node] >= 0 {
            upArcs.append((forwardPredecessorArc[node], forwardPredecessorNode[node]))
            node = Int(forwardPredecessorNode[node])
        }
        var nodes = [node]
        for (arc, low) in upArcs.reversed() { unpack(arc: Int(arc), low: Int(low), up: true, metric: metric, into: &nodes) }
        node = meeting
        while backwardPredecessorArc[node] >= 0 {
            let arc = backwardPredecessorArc[node]
            unpack(arc: Int(arc), low: Int(backwardPredecessorNode[node]), up: false, metric: metric, into: &nodes)
            node = Int(backwardPredecessorNode[node])
        }
        return nodes
    }

    // MARK: Via nodes, for alternative routes

    /// A node in both search spaces with the cost of the shortest source → node → target path, in ms.
    public struct ViaCandidate: Sendable {
        public var node: Int32
        public var cost: Int
    }

    /// Runs the query, then computes exact distances from the sources and to the targets for every node of either
    /// search space (top-down sweeps: the elimination-tree search only gives upper bounds), and appends to
    /// `candidates` every such node whose shortest source → node → target cost is at most `maximumCost(shortest)`.
    /// Returns the shortest cost.
    public func viaCandidates(sources: [Endpoint], targets: [Endpoint], metric: RoutingMetric,
                              maximumCost: (Int) -> Int, into candidates: inout ContiguousArray<ViaCandidate>) -> Int? {
        guard let (shortest, _) = distance(sources: sources, targets: targets, metric: metric) else { return nil }
        let down = metric.hierarchy.backward, up = metric.hierarchy.forward
        exactSweep(forwardNodes, base: forwardDistance, skip: nil, exact: exactForward, via: exactForwardArc, weights: down)
        exactSweep(backwardNodes, base: backwardDistance, skip: nil, exact: exactBackward, via: exactBackwardArc, weights: up)
        // Extend each side's exact distances over the other side's search space: every upper neighbour of a node
        // there is an ancestor, so it already has an exact distance from this pass or the one before.
        exactSweep(backwardNodes, base: nil, skip: inForward, exact: exactForward, via: exactForwardArc, weights: down)
        exactSweep(forwardNodes, base: nil, skip: inBackward, exact: exactBackward, via: exactBackwardArc, weights: up)
        let limit = maximumCost(shortest) + Int(refundShift)
        func offer(_ node32: Int32) {
            let node = Int(node32)
            guard exactForward[node] != UInt32.max, exactBackward[node] != UInt32.max else { return }
            let total = Int(exactForward[node]) + Int(exactBackward[node])
            if total <= limit { candidates.append(ViaCandidate(node: node32, cost: total - Int(refundShift))) }
        }
        for node in forwardNodes { offer(node) }
        for node in backwardNodes where !inForward[Int(node)] { offer(node) }
        return shortest
    }

    /// Top-down pass over a search space (all upper neighbours of its nodes are in it): a node's exact distance is
    /// its search distance (`base`, if any) or an upper neighbour's exact distance (already final: the neighbour
    /// is an ancestor) plus the arc between them in the sweep's direction. Nodes marked in `skip` are kept as they are.
    private func exactSweep(_ nodes: ContiguousArray<Int32>, base: UnsafeMutableBufferPointer<UInt32>?,
                            skip: UnsafeMutableBufferPointer<Bool>?, exact: UnsafeMutableBufferPointer<UInt32>,
                            via: UnsafeMutableBufferPointer<Int32>, weights: UnsafeBufferPointer<UInt32>) {
        let firstUp = cch.firstUp, upHead = cch.upHead
        for node32 in nodes.reversed() {
            let node = Int(node32)
            if let skip, skip[node] { continue }
            var best = base?[node] ?? UInt32.max, bestArc: Int32 = -1
            for arc in Int(firstUp[node])..<Int(firstUp[node + 1]) {
                let weight = weights[arc], head = Int(upHead[arc])
                guard weight < CCHMetric.infinity, inForward[head] || inBackward[head], exact[head] != UInt32.max else { continue }
                let above = exact[head]
                let candidate = UInt64(above) + UInt64(weight)
                if candidate < UInt64(best) { best = UInt32(candidate); bestArc = Int32(arc) }
            }
            exact[node] = best
            via[node] = bestArc
        }
    }

    /// A lower bound, without unpacking, on the cost the source → `via` → target path shares with a shortest
    /// source → target path whose routing nodes are marked (bit 0) in `marks`. Walking the packed path out from
    /// `via`, the first marked node on each side ends a shared prefix (suffix): two shortest paths from the same
    /// source agree up to their last common node (if shortest paths are unique).
    public func sharedEstimate(via: Int, marks: UnsafeBufferPointer<UInt16>) -> Int {
        var prefix = 0, node = via
        while true {
            if marks[node] & 1 != 0 { prefix = Int(exactForward[node]); break }
            if exactForwardArc[node] >= 0 {
                node = Int(cch.upHead[Int(exactForwardArc[node])])
            } else if forwardPredecessorArc[node] >= 0 {
                // The rest of the walk is the plain upward search tree.
                while forwardPredecessorArc[node] >= 0, marks[node] & 1 == 0 { node = Int(forwardPredecessorNode[node]) }
                if marks[node] & 1 != 0 { prefix = Int(exactForward[node]) }
                break
            } else {
                break
            }
        }
        var suffix = 0
        node = via
        while true {
            if marks[node] & 1 != 0 { suffix = Int(exactBackward[node]) - Int(refundShift); break }
            if exactBackwardArc[node] >= 0 {
                node = Int(cch.upHead[Int(exactBackwardArc[node])])
            } else if backwardPredecessorArc[node] >= 0 {
                while backwardPredecessorArc[node] >= 0, marks[node] & 1 == 0 { node = Int(backwardPredecessorNode[node]) }
                if marks[node] & 1 != 0 { suffix = Int(exactBackward[node]) - Int(refundShift) }
                break
            } else {
                break
            }
        }
        return prefix + max(0, suffix)
    }

    /// Routing nodes of the shortest source → `via` → target path found by the last `viaCandidates` call
    /// (`via` must be one of its candidates), from source to target.
    public func viaPath(through via: Int, metric: RoutingMetric, into nodes: inout [Int]) {
        nodes.removeAll(keepingCapacity: true)
        downArcs.removeAll(keepingCapacity: true)
        upArcs.removeAll(keepingCapacity: true)
        var node = via
        while exactForwardArc[node] >= 0 {
            downArcs.append((exactForwardArc[node], Int32(node)))
            node = Int(cch.upHead[Int(exactForwardArc[node])])
        }
        while forwardPredecessorArc[node] >= 0 {
            upArcs.append((forwardPredecessorArc[node], forwardPredecessorNode[node]))
            node = Int(forwardPredecessorNode[node])
        }
        nodes.append(node)
        for (arc, low) in upArcs.reversed() { unpack(arc: Int(arc), low: Int(low), up: true, metric: metric, into: &nodes) }
        for (arc, low) in downArcs.reversed() { unpack(arc: Int(arc), low: Int(low), up: false, metric: metric, into: &nodes) }
        node = via
        while exactBackwardArc[node] >= 0 {
            let arc = Int(exactBackwardArc[node])
            unpack(arc: arc, low: node, up: true, metric: metric, into: &nodes)
            node = Int(cch.upHead[arc])
        }
        while backwardPredecessorArc[node] >= 0 {
            unpack(arc: Int(backwardPredecessorArc[node]), low: Int(backwardPredecessorNode[node]), up: false, metric: metric, into: &nodes)
            node = Int(backwardPredecessorNode[node])
        }
    }

    /// Appends the routing nodes of CCH arc `arc` (whose lower end is `low`) traversed up (low to high) or down,
    /// without its first node. The middle node of a shortcut (`CCHView.middle`) is the lower end of both its halves.
    private func unpack(arc: Int, low: Int, up: Bool, metric: RoutingMetric, into nodes: inout [Int]) {
        // A local stack (the member's buffer moved in and back, so it is reused without a copy): pushes and pops on
        // a class member each paid a dynamic exclusivity check and a retain/release.
        var unpackStack = ContiguousArray<(arc: Int32, low: Int32, up: Bool)>()
        swap(&unpackStack, &self.unpackStack)
        defer { swap(&unpackStack, &self.unpackStack) }
        unpackStack.removeAll(keepingCapacity: true)
        unpackStack.append((Int32(truncatingIfNeeded: arc), Int32(truncatingIfNeeded: low), up))
        while let (current32, low32, goingUp) = unpackStack.popLast() {
            let current = Int(current32), low = Int(low32)
            guard let (middle, toLow, toHigh) = cch.middle(of: current, low: low, up: goingUp, metric: metric) else {
                nodes.append(goingUp ? Int(cch.upHead[current]) : low)
                continue
            }
            // Node and arc ids fit Int32 (the graph file stores them so).
            let via = Int32(truncatingIfNeeded: middle)
            let toHigh32 = Int32(truncatingIfNeeded: toHigh), toLow32 = Int32(truncatingIfNeeded: toLow)
            // Push in reverse order of traversal.
            if goingUp {
                unpackStack.append((toHigh32, via, true))   // middle -> high
                unpackStack.append((toLow32, via, false))   // low -> middle
            } else {
                unpackStack.append((toLow32, via, true))    // middle -> low
                unpackStack.append((toHigh32, via, false))  // high -> middle
            }
        }
    }
}
