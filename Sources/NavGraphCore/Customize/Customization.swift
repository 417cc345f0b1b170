/// Arc weights of a customizable contraction hierarchy for one metric, with a one-byte hint per arc and direction for
/// unpacking: a shortcut's middle node is not stored, but where it stands among the arc's lower triangles
/// (`CCHView.middle`; RoutingKit's metrics hold weights only and search the triangles every time).
public final class CCHMetric: @unchecked Sendable {
    /// Weight of an arc that cannot be used.
    public static let infinity: UInt32 = 0x7FFF_FFFF
    /// `middleHint` of an arc direction whose weight is its own input turn's (or that cannot be used).
    public static let inputTurnHint: UInt8 = 0
    /// `middleHint` of an arc direction whose middle must be searched (further down the list than a byte counts, or
    /// not recorded, as after a partial customization).
    public static let searchHint: UInt8 = 255

    /// Middle hints per arc (up, down), and the bytes a metric takes per arc (weights and hints).
    public static let hintsPerArc = 2, bytesPerArc = 2 * MemoryLayout<UInt32>.stride + hintsPerArc

    /// Weight of going up (lower rank to higher rank) along each CCH arc.
    public let forward: UnsafeBufferPointer<UInt32>
    /// Weight of going down along each CCH arc.
    public let backward: UnsafeBufferPointer<UInt32>
    /// Per arc, up then down (2 × arc + 1 for down): `inputTurnHint`, `searchHint`, or k for a middle node x that is
    /// entry k - 1 of the arc's lower end's downward list (`CCHView.firstDown`); empty when the metric has none.
    public let middleHint: UnsafeBufferPointer<UInt8>
    private let owner: AnyObject?
    private let ownedWeights: UnsafeMutableBufferPointer<UInt32>?
    private let ownedHints: UnsafeMutableBufferPointer<UInt8>?

    /// Wraps arrays that live elsewhere (a mapped graph file kept alive by owner).
    public init(forward: UnsafeBufferPointer<UInt32>, backward: UnsafeBufferPointer<UInt32>,
                middleHint: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0), owner: AnyObject) {
        self.forward = forward; self.backward = backward; self.middleHint = middleHint
        self.owner = owner
        ownedWeights = nil
        ownedHints = nil
    }

    /// An owned metric of unusable arcs, with a hint per arc and direction (all `inputTurnHint`) when `hints`; with
    /// `filled` false its values are left for the caller to write (trivial types).
    package init(arcCount: Int, filled: Bool = true, hints: Bool = true) {
        let weights = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: max(1, arcCount * 2))
        if filled { weights.initialize(repeating: CCHMetric.infinity) }
        ownedWeights = weights
        forward = UnsafeBufferPointer(rebasing: weights[0..<arcCount])
        backward = UnsafeBufferPointer(rebasing: weights[arcCount..<(2 * arcCount)])
        if hints {
            let count = CCHMetric.hintsPerArc * arcCount
            let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, count))
            if filled { bytes.initialize(repeating: CCHMetric.inputTurnHint) }
            ownedHints = bytes
            middleHint = UnsafeBufferPointer(rebasing: bytes[0..<count])
        } else {
            ownedHints = nil
            middleHint = UnsafeBufferPointer(start: nil, count: 0)
        }
        owner = nil
    }

    deinit { ownedWeights?.deallocate(); ownedHints?.deallocate() }

    /// Writable views of an owned metric: forward, backward.
    var writable: (UnsafeMutableBufferPointer<UInt32>, UnsafeMutableBufferPointer<UInt32>)? {
        guard let weights = ownedWeights else { return nil }
        let count = forward.count
        return (UnsafeMutableBufferPointer(rebasing: weights[0..<count]), UnsafeMutableBufferPointer(rebasing: weights[count..<(2 * count)]))
    }

    /// The writable hints of an owned metric that has them.
    var writableHints: UnsafeMutableBufferPointer<UInt8>? {
        guard let hints = ownedHints else { return nil }
        return UnsafeMutableBufferPointer(rebasing: hints[0..<middleHint.count])
    }
}

/// Read-only views of the CCH topology and the turn graph that customization and queries work on.
public struct CCHView: @unchecked Sendable {
    public let firstUp: UnsafeBufferPointer<UInt32>
    public let upHead: UnsafeBufferPointer<UInt32>
    public let parent: UnsafeBufferPointer<Int32>
    public let inputArc: UnsafeBufferPointer<UInt32>
    public let turnFirstOut: UnsafeBufferPointer<UInt32>
    public let turnHead: UnsafeBufferPointer<UInt32>
    /// Where each node's downward arcs start in `downArcs` (nodeCount + 1 offsets); empty in a view without them.
    public let firstDown: UnsafeBufferPointer<UInt32>
    /// The upward arcs x -> y grouped by y, x ascending, as pairs (x, arc index): two entries per arc (DownwardArcs).
    public let downArcs: UnsafeBufferPointer<UInt32>

    public init(firstUp: UnsafeBufferPointer<UInt32>, upHead: UnsafeBufferPointer<UInt32>, parent: UnsafeBufferPointer<Int32>,
                inputArc: UnsafeBufferPointer<UInt32>, turnFirstOut: UnsafeBufferPointer<UInt32>, turnHead: UnsafeBufferPointer<UInt32>,
                firstDown: UnsafeBufferPointer<UInt32> = UnsafeBufferPointer(start: nil, count: 0),
                downArcs: UnsafeBufferPointer<UInt32> = UnsafeBufferPointer(start: nil, count: 0)) {
        self.firstUp = firstUp; self.upHead = upHead; self.parent = parent; self.inputArc = inputArc
        self.turnFirstOut = turnFirstOut; self.turnHead = turnHead
        self.firstDown = firstDown; self.downArcs = downArcs
    }

    public var nodeCount: Int { parent.count }
    public var arcCount: Int { upHead.count }

    /// A view of arrays held in memory (during import), valid inside `body`.
    public static func with<Result>(_ topology: CCHTopology, _ turns: TurnGraph, _ body: (CCHView) -> Result) -> Result {
        topology.parent.withUnsafeBufferPointer { parent in
            topology.firstUp.withUnsafeBufferPointer { firstUp in
                topology.upHead.withUnsafeBufferPointer { upHead in
                    topology.inputArc.withUnsafeBufferPointer { inputArc in
                        turns.firstOut.withUnsafeBufferPointer { turnFirstOut in
                            turns.head.withUnsafeBufferPointer { turnHead in
                                body(CCHView(firstUp: firstUp, upHead: upHead, parent: parent, inputArc: inputArc,
                                             turnFirstOut: turnFirstOut, turnHead: turnHead))
                            }
                        }
                    }
                }
            }
        }
    }

    /// A view of the hierarchy alone (its turn arrays empty), valid inside `body`: for a customization whose input
    /// arcs come from elsewhere (InputArcSource).
    package static func with<Result>(hierarchy topology: CCHTopology, _ body: (CCHView) throws -> Result) rethrows -> Result {
        try topology.parent.withUnsafeBufferPointer { parent in
            try topology.firstUp.withUnsafeBufferPointer { firstUp in
                try topology.upHead.withUnsafeBufferPointer { upHead in
                    try body(CCHView(firstUp: firstUp, upHead: upHead, parent: parent, inputArc: UnsafeBufferPointer(start: nil, count: 0),
                                     turnFirstOut: UnsafeBufferPointer(start: nil, count: 0), turnHead: UnsafeBufferPointer(start: nil, count: 0)))
                }
            }
        }
    }

    /// Index of the upward arc low -> high, if it exists.
    @inline(__always)
    public func arc(from low: Int, to high: Int) -> Int? {
        var lower = Int(firstUp[low]), upper = Int(firstUp[low &+ 1])
        let end = upper
        // Wrapping arithmetic on the validated graph's arc ranges (a hot lookup of path unpacking).
        while lower < upper {
            let middle = (lower &+ upper) >> 1
            if Int(upHead[middle]) < high { lower = middle &+ 1 } else { upper = middle }
        }
        return lower < end && Int(upHead[lower]) == high ? lower : nil
    }
}

/// Computes a CCHMetric from per-routing-node weights and per-turn costs: turn arc a into node v costs
/// turnCost[a] + nodeWeight[v] (nothing if v may not be used).
public enum Customization {
    /// `threads` 2: the lower triangles of two halves of the elimination tree are relaxed on two threads, then those
    /// of the arcs above them on one (CustomizationSplit); the same metric, arc for arc, as on one thread.
    public static func customize(_ cch: CCHView, nodeWeight: UnsafeBufferPointer<UInt32>, turnCost: UnsafeBufferPointer<UInt32>,
                                 threads: Int = 1) -> CCHMetric {
        customize(cch, nodeWeight: nodeWeight, turnCost: turnCost, split: threads >= 2 ? CustomizationSplit.find(cch) : nil)
    }

    /// On two threads along `split`, or on one.
    package static func customize(_ cch: CCHView, nodeWeight: UnsafeBufferPointer<UInt32>, turnCost: UnsafeBufferPointer<UInt32>,
                          split: CustomizationSplit?) -> CCHMetric {
        let turnArcs = cch.turnFirstOut.last.map { Int($0) } ?? 0
        return customize(hierarchy: cch, nodeWeight: nodeWeight, split: split) { add in
            add(UnsafeBufferPointer(rebasing: cch.turnHead[0..<turnArcs]), UnsafeBufferPointer(rebasing: cch.inputArc[0..<turnArcs]),
                UnsafeBufferPointer(rebasing: turnCost[0..<turnArcs]))
        }
    }

    /// The metric of `cch`'s hierarchy (its turn arrays are not read) from input arcs that `inputArcs` hands to the
    /// function it is given in pieces: each turn arc's head, its hierarchy arc code (CCHTopology.inputArc) and its turn
    /// cost (InputArcSource.forEachPiece).
    package static func customize(hierarchy cch: CCHView, nodeWeight: UnsafeBufferPointer<UInt32>, split: CustomizationSplit?,
                          inputArcs: ((UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>) -> Void) throws -> Void)
        rethrows -> CCHMetric {
        let metric = CCHMetric(arcCount: cch.arcCount, filled: false)
        guard let (forward, backward) = metric.writable else { return metric }
        try customize(hierarchy: cch, nodeWeight: nodeWeight, split: split, inputArcs: inputArcs, into: forward, backward,
                      hints: metric.writableHints)
        return metric
    }

    /// The same metric, written into arrays the caller gives (one entry per CCH arc each, two hints per arc; their
    /// contents are replaced): forward, backward, and the middle hints when given.
    package static func customize(hierarchy cch: CCHView, nodeWeight: UnsafeBufferPointer<UInt32>, split: CustomizationSplit?,
                          inputArcs: ((UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>) -> Void) throws -> Void,
                          into forward: UnsafeMutableBufferPointer<UInt32>, _ backward: UnsafeMutableBufferPointer<UInt32>,
                          hints: UnsafeMutableBufferPointer<UInt8>?) rethrows {
        precondition(forward.count == cch.arcCount && backward.count == cch.arcCount, "metric arrays of the wrong size")
        precondition(hints.map { $0.count == CCHMetric.hintsPerArc * cch.arcCount } ?? true, "middle hints of the wrong size")
        forward.update(repeating: CCHMetric.infinity)
        backward.update(repeating: CCHMetric.infinity)
        hints?.update(repeating: CCHMetric.inputTurnHint)
        try addInputArcs(nodeWeight: nodeWeight, inputArcs: inputArcs, forward: forward, backward: backward)

        // Lower triangles, bottom-up: when x is processed, every arc leaving x upward is final. Each arc y -> z is
        // relaxed by its triangles in ascending x, also on two threads (one side's, or after both). With hints, each
        // node y counts the arcs x -> y seen so far: that count is x's entry in y's downward list.
        let seen = hints == nil ? nil : UnsafeMutableBufferPointer<UInt32>.allocate(capacity: max(1, cch.nodeCount))
        seen?.initialize(repeating: 0)
        defer { seen?.deallocate() }
        LowerTriangles(cch: cch, forward: forward, backward: backward, hints: hints?.baseAddress, seen: seen?.baseAddress).run(split)
        clamp(forward, backward)
    }

    /// Each input arc's weight (the weight of the node it enters plus its turn cost) where it is lower.
    private static func addInputArcs(nodeWeight: UnsafeBufferPointer<UInt32>,
                                     inputArcs: ((UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>) -> Void) throws -> Void,
                                     forward: UnsafeMutableBufferPointer<UInt32>, backward: UnsafeMutableBufferPointer<UInt32>) rethrows {
        let infinity = CCHMetric.infinity
        try inputArcs { heads, codes, costs in
            for arc in 0..<heads.count {
                let entered = nodeWeight[Int(heads[arc])]
                let code = codes[arc]
                guard entered < infinity, code != UInt32.max else { continue }
                let weight = UInt32(min(UInt64(infinity - 1), UInt64(entered) + UInt64(costs[arc])))
                let cchArc = Int(code >> 1)
                if code & 1 == 0 {
                    if weight < forward[cchArc] { forward[cchArc] = weight }
                } else if weight < backward[cchArc] {
                    backward[cchArc] = weight
                }
            }
        }
    }

    /// Clamps sums of unusable arcs back to infinity.
    private static func clamp(_ forward: UnsafeMutableBufferPointer<UInt32>, _ backward: UnsafeMutableBufferPointer<UInt32>) {
        let infinity = CCHMetric.infinity
        for arc in 0..<forward.count {
            if forward[arc] > infinity { forward[arc] = infinity }
            if backward[arc] > infinity { backward[arc] = infinity }
        }
    }
}

/// The lower-triangle pass of a customization over the metric being written, and its middle hints when `hints` is
/// given (`seen`: per node y, the arcs x -> y relaxed so far, zero at the start).
private struct LowerTriangles: @unchecked Sendable {
    package let cch: CCHView
    package let forward: UnsafeMutableBufferPointer<UInt32>, backward: UnsafeMutableBufferPointer<UInt32>
    package let hints: UnsafeMutablePointer<UInt8>?
    package let seen: UnsafeMutablePointer<UInt32>?

    /// All nodes' triangles: on two threads along `split` (each side's, then the top after both), or on one.
    package func run(_ split: CustomizationSplit?) {
        if let split {
            let out = self
            PhaseWorkers.run(2) { side in out.relax(side: UInt8(side), of: split.side) }
            relax(side: CustomizationSplit.top, of: split.side)
        } else {
            relaxAll()
        }
    }

    /// Every node's triangles, on one thread.
    func relaxAll() {
        for x in 0..<cch.nodeCount {
            let begin = Int(cch.firstUp[x]), end = Int(cch.firstUp[x &+ 1])
            relax(arcs: begin..<end, lowerArcs: begin..<end)
        }
    }

    /// For side 0 or 1: the triangles of that side's nodes through lower arcs x -> y below the top. For the top: every
    /// node's triangles through lower arcs x -> y into the top (after both sides).
    func relax(side: UInt8, of sides: ContiguousArray<UInt8>) {
        let top = CustomizationSplit.top
        for x in 0..<cch.nodeCount where side == top || sides[x] == side {
            let begin = Int(cch.firstUp[x]), end = Int(cch.firstUp[x + 1])
            // x's upper neighbours are its elimination-tree ancestors, so those in the top come last.
            var lower = begin, upper = end
            while lower < upper {
                let middle = (lower + upper) >> 1
                if sides[Int(cch.upHead[middle])] == top { upper = middle } else { lower = middle + 1 }
            }
            relax(arcs: begin..<end, lowerArcs: side == top ? lower..<end : begin..<lower)
        }
    }

    /// y -> x -> z and z -> x -> y for each lower arc x -> y in `lowerArcs` and upper arc x -> z (both in `arcs`, x's
    /// row). The arcs x -> z are found by merging y's row with x's row above y (both ascending; in a chordal hierarchy
    /// x's row above y is part of y's), so no per-node scratch array is needed.
    @inline(__always)
    private func relax(arcs: Range<Int>, lowerArcs: Range<Int>) {
        if let seen, arcs.count < 2 {
            // No triangles, but x still takes its entry in each y's list.
            for lowerArc in lowerArcs { seen[Int(cch.upHead[lowerArc])] &+= 1 }
        }
        if arcs.count < 2 || lowerArcs.isEmpty { return }
        let firstUp = cch.firstUp, upHead = cch.upHead
        let end = arcs.upperBound
        for lowerArc in lowerArcs {
            let y = Int(upHead[lowerArc])
            let xyUp = forward[lowerArc], xyDown = backward[lowerArc]
            // x's entry in y's downward list, as a hint (1 + entry) while a byte holds it.
            var hint = CCHMetric.searchHint
            if let seen {
                let entry = seen[y]
                seen[y] = entry &+ 1
                if entry < UInt32(CCHMetric.searchHint - 1) { hint = UInt8(truncatingIfNeeded: entry &+ 1) }
            }
            // Wrapping index arithmetic: the customization's innermost loop, over the validated graph's arc ranges.
            var otherArc = lowerArc &+ 1
            var topArc = Int(firstUp[y])
            let topEnd = Int(firstUp[y &+ 1])
            while topArc < topEnd {
                defer { topArc &+= 1 }
                guard otherArc < end else { break }
                let z = upHead[topArc]
                while otherArc < end && upHead[otherArc] < z { otherArc &+= 1 }
                guard otherArc < end, upHead[otherArc] == z else { continue }
                let up = xyDown &+ forward[otherArc]
                if up < forward[topArc] {
                    forward[topArc] = up
                    hints?[2 &* topArc] = hint
                }
                let down = backward[otherArc] &+ xyUp
                if down < backward[topArc] {
                    backward[topArc] = down
                    hints?[2 &* topArc &+ 1] = hint
                }
            }
        }
    }
}

/// How a customization on two threads divides the hierarchy: a top part closed under elimination-tree ancestors
/// (`side[x] == top`), below which the nodes fall into subtrees that share no node, each on side 0 or 1, of similar
/// work. An arc y -> z with y below the top is relaxed only by nodes of y's subtree (its side's thread); the arcs out
/// of the top after both sides, by every node with lower arcs into it.
package struct CustomizationSplit {
    /// The `side` of the nodes in the top.
    package static let top: UInt8 = 2
    package let side: ContiguousArray<UInt8>

    /// Graphs below this many CCH arcs are customized on one thread.
    static let minimumArcs = 1 << 16

    /// A split whose two threads would take at most `worthwhile` of one thread's time (by triangle counts, with at most
    /// `topShare` of them through arcs into the top), or nil.
    package static func find(_ cch: CCHView, topShare: Double = 0.25, worthwhile: Double = 0.8) -> CustomizationSplit? {
        let n = cch.nodeCount
        guard cch.arcCount >= minimumArcs else { return nil }
        // Triangles through the lower arcs into y (the inner loop's steps): lower degree x upper degree of y.
        var lowerDegree = ContiguousArray<UInt32>(repeating: 0, count: n)
        for arc in 0..<cch.arcCount { lowerDegree[Int(cch.upHead[arc])] += 1 }
        // Work of each node's elimination subtree (the triangles of its nodes' lower arcs).
        var subtree = ContiguousArray<Float>(repeating: 0, count: n)
        var total = 0.0
        for x in 0..<n {
            var work = 0.0
            for arc in Int(cch.firstUp[x])..<Int(cch.firstUp[x + 1]) {
                let y = Int(cch.upHead[arc])
                work += Double(cch.firstUp[y + 1] - cch.firstUp[y])
            }
            total += work
            subtree[x] += Float(work)
            let parent = Int(cch.parent[x])
            if parent >= 0 { subtree[parent] += subtree[x] }
        }
        guard total > 0 else { return nil }
        // The top grows by the root of the heaviest subtree below it until none is over 10 % of the work below.
        let big = Float(0.05 * total)
        var children: [Int: [Int]] = [:], open: [Int] = []
        for x in 0..<n where subtree[x] > big {
            let parent = Int(cch.parent[x])
            if parent < 0 { open.append(x) } else { children[parent, default: []].append(x) }
        }
        var side = ContiguousArray<UInt8>(repeating: 0, count: n)
        var above = 0.0
        while let heaviest = open.indices.max(by: { subtree[open[$0]] < subtree[open[$1]] }),
              Double(subtree[open[heaviest]]) > 0.1 * (total - above) {
            guard above < topShare * total else { return nil }
            let root = open.remove(at: heaviest)
            side[root] = top
            above += Double(lowerDegree[root]) * Double(cch.firstUp[root + 1] - cch.firstUp[root])
            open += children[root] ?? []
        }
        // The subtrees hanging below the top, heaviest first, each to the lighter side; then each node to its root's.
        var roots = (0..<n).filter { side[$0] != top && (cch.parent[$0] < 0 || side[Int(cch.parent[$0])] == top) }
        roots.sort { subtree[$0] > subtree[$1] }
        var load = (0.0, 0.0)
        for root in roots {
            if load.0 <= load.1 { load.0 += Double(subtree[root]) } else { side[root] = 1; load.1 += Double(subtree[root]) }
        }
        guard max(load.0, load.1) + above <= worthwhile * total else { return nil }
        for x in stride(from: n - 1, through: 0, by: -1) where side[x] != top {
            let parent = Int(cch.parent[x])
            if parent >= 0 && side[parent] != top { side[x] = side[parent] }
        }
        return CustomizationSplit(side: side)
    }
}
