/// The downward view of a hierarchy: for each CCH node y, the upward arcs x -> y that end at it, x ascending, as pairs
/// (x, arc index). Built once per hierarchy at import (8 bytes per arc) and written beside the upward arcs, so that a
/// metric needs no middle nodes: unpacking finds a shortcut's middle among its lower triangles (`CCHView.middle`), and
/// partial customization lists an arc's lower triangles through it.
package enum DownwardArcs {
    /// The offsets (nodes + 1) and the pairs (two entries per arc) of the hierarchy with these upward arcs. On two
    /// threads, each over the tails of about half the arcs (the lower half's pairs go first in every list).
    package static func build(firstUp: UnsafeBufferPointer<UInt32>, upHead: UnsafeBufferPointer<UInt32>)
        -> (firstDown: ContiguousArray<UInt32>, pairs: ContiguousArray<UInt32>) {
        let nodes = max(0, firstUp.count - 1), arcs = upHead.count
        // Tails split where half the arcs are behind.
        var splitNode = 0
        while splitNode < nodes && Int(firstUp[splitNode]) < arcs / 2 { splitNode += 1 }
        let tails = [0..<splitNode, splitNode..<nodes]
        // Each part's counts per node, then its next free slot per node.
        let counts = (0..<2).map { _ in UnsafeMutableBufferPointer<UInt32>.allocate(capacity: max(1, nodes)) }
        defer { counts.forEach { $0.deallocate() } }
        counts.forEach { $0.initialize(repeating: 0) }
        PhaseWorkers.run(2) { part in
            let count = counts[part]
            for index in Int(firstUp[tails[part].lowerBound])..<Int(firstUp[tails[part].upperBound]) { count[Int(upHead[index])] &+= 1 }
        }
        // Offsets; then each part's next free slot per node: the lower part's from the list's start, the upper part's after it.
        var first = ContiguousArray<UInt32>(repeating: 0, count: nodes + 1)
        let lowerNext = counts[0], upperNext = counts[1]
        first.withUnsafeMutableBufferPointer { first in
            for node in 0..<nodes {
                let lowerCount = lowerNext[node], upperCount = upperNext[node]
                lowerNext[node] = first[node]
                upperNext[node] = first[node] &+ lowerCount
                first[node + 1] = first[node] &+ lowerCount &+ upperCount
            }
        }
        let pairs = ContiguousArray<UInt32>(unsafeUninitializedCapacity: 2 * arcs) { pairs, initialized in
            let out = pairs  // each part writes its own slots
            PhaseWorkers.run(2) { part in
                let next = counts[part]
                // Tails visited in ascending order, so every node's list comes out ascending.
                for x in tails[part] {
                    for index in Int(firstUp[x])..<Int(firstUp[x + 1]) {
                        let y = Int(upHead[index])
                        let slot = Int(next[y])
                        out[2 * slot] = UInt32(x); out[2 * slot + 1] = UInt32(index)
                        next[y] = UInt32(slot + 1)
                    }
                }
            }
            initialized = 2 * arcs
        }
        return (first, pairs)
    }
}

extension CCHView {
    /// The middle node x of arc `arc` (lower end `low`) driven up (low -> high) or down (high -> low) under `metric`,
    /// with the arcs x -> low and x -> high; nil when the arc's own input turn gives its weight. As the customization
    /// decides it: the input turn first, then the lowest x whose lower triangle gives the weight. The metric's middle
    /// hint names it in one byte (`CCHMetric.middleHint`); without one, the lower triangles are searched. Needs the
    /// view's downward arcs; x is always below `low`.
    @inline(__always)
    package func middle(of arc: Int, low: Int, up: Bool, metric: RoutingMetric) -> (node: Int, toLow: Int, toHigh: Int)? {
        // The metric's hint says which: the input turn, or x as an entry of low's downward list.
        let hints = metric.hierarchy.middleHint
        let slot = 2 &* arc &+ (up ? 0 : 1)
        if slot < hints.count {
            let hint = hints[slot]
            if hint == CCHMetric.inputTurnHint { return nil }
            if hint != CCHMetric.searchHint, low &+ 1 < firstDown.count {
                let entry = Int(firstDown[low]) &+ Int(hint) &- 1
                if entry < Int(firstDown[low &+ 1]) {
                    let x = Int(downArcs[2 &* entry]), toLow = Int(downArcs[2 &* entry &+ 1])
                    if let toHigh = self.arc(from: x, to: Int(upHead[arc])) { return (x, toLow, toHigh) }
                }
            }
        }
        return middleBySearch(of: arc, low: low, up: up, metric: metric)
    }

    /// `middle` found without the hint: the input turn first, then the lower triangles of the shorter downward list.
    @inline(__always)
    package func middleBySearch(of arc: Int, low: Int, up: Bool, metric: RoutingMetric) -> (node: Int, toLow: Int, toHigh: Int)? {
        let high = Int(upHead[arc])
        let hierarchy = metric.hierarchy
        let weight = up ? hierarchy.forward[arc] : hierarchy.backward[arc]
        // The input turn: from low into high driven up, from high into low driven down.
        let (tail, head) = up ? (low, high) : (high, low)
        let code = UInt32(truncatingIfNeeded: arc << 1 | (up ? 0 : 1))
        if tail + 1 < turnFirstOut.count {
            let infinity = CCHMetric.infinity
            for turn in Int(turnFirstOut[tail])..<Int(turnFirstOut[tail + 1]) where Int(turnHead[turn]) == head && inputArc[turn] == code {
                let entered = metric.nodeWeight[head]
                guard entered < infinity else { continue }
                if UInt32(min(UInt64(infinity - 1), UInt64(entered) + UInt64(metric.turnCost[turn]))) == weight { return nil }
            }
        }
        let forward = hierarchy.forward, backward = hierarchy.backward
        @inline(__always) func gives(_ toLow: Int, _ toHigh: Int) -> Bool {
            up ? backward[toLow] &+ forward[toHigh] == weight : backward[toHigh] &+ forward[toLow] == weight
        }
        guard low + 1 < firstDown.count, high + 1 < firstDown.count else { return nil }
        let lowBegin = Int(firstDown[low]), lowEnd = Int(firstDown[low + 1])
        let highBegin = Int(firstDown[high]), highEnd = Int(firstDown[high + 1])
        // Walk the shorter list; the other arc of each triangle is looked up in x's row.
        if lowEnd - lowBegin <= highEnd - highBegin {
            for slot in lowBegin..<lowEnd {
                let x = Int(downArcs[2 * slot]), toLow = Int(downArcs[2 * slot + 1])
                // A half heavier than the arc rules the triangle out without looking for its other half.
                guard (up ? backward[toLow] : forward[toLow]) <= weight, let toHigh = self.arc(from: x, to: high) else { continue }
                if gives(toLow, toHigh) { return (x, toLow, toHigh) }
            }
        } else {
            for slot in highBegin..<highEnd {
                let x = Int(downArcs[2 * slot])
                if x >= low { break }
                let toHigh = Int(downArcs[2 * slot + 1])
                guard (up ? forward[toHigh] : backward[toHigh]) <= weight, let toLow = self.arc(from: x, to: low) else { continue }
                if gives(toLow, toHigh) { return (x, toLow, toHigh) }
            }
        }
        return nil
    }
}
