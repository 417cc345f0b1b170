import Foundation

/// Re-customizes a hierarchy after some routing nodes became unusable (their weight raised to infinity): starts from
/// the metric customized without the change and recomputes only the arcs whose weight can change, lowest first.
///
/// An arc y -> z is recomputed from its input turns and all its lower triangles {x, y, z} exactly as `Customization`
/// computes it, so the result equals a full customization with the new weights. An arc is recomputed when one of its
/// own input turns enters a raised node, or when an arc of a lower triangle changed and that triangle gave the arc's
/// weight in the base metric (weights only rise, so any other arc keeps its weight). The hierarchy's downward arcs
/// (`CCHView.downArcs`) list an arc's lower triangles.
public enum PartialCustomization {
    /// What one partial customization did.
    public struct Report: Sendable {
        /// Arcs whose weights were recomputed, and those whose forward or backward weight changed.
        public var recomputedArcs = 0
        public var changedArcs = 0
        /// Arcs holding an input turn into a raised node, and lower triangles looked up.
        public var seedArcs = 0
        public var triangleLookups = 0
        /// Wall seconds spent copying the base metric.
        public var copySeconds = 0.0
    }

    /// The metric for `nodeWeight` (which is `base`'s weights with the `raised` nodes set to infinity) and `turnCost`
    /// (the same turn costs `base` was customized with). `cch` must have its downward arcs.
    public static func recustomize(_ cch: CCHView, base: CCHMetric, nodeWeight: UnsafeBufferPointer<UInt32>,
                                   turnCost: UnsafeBufferPointer<UInt32>, raised: [Int]) -> (CCHMetric, Report) {
        let copyStart = Date()
        let metric = CCHMetric(arcCount: cch.arcCount, filled: false)
        var report = Report()
        precondition(cch.firstDown.count == cch.nodeCount + 1, "partial customization needs the hierarchy's downward arcs")
        guard let (forward, backward) = metric.writable else { return (metric, report) }
        // The two weight arrays copied side by side, one per worker, and the middle hints: the base's still hold for
        // every arc that is not recomputed (weights only rise, so its middle's triangle is unchanged); recomputed arcs
        // get `searchHint` below.
        let hints = metric.writableHints
        Parallel.run(2) { worker in
            if worker == 0 { _ = forward.update(fromContentsOf: base.forward) } else { _ = backward.update(fromContentsOf: base.backward) }
            if worker == 1, let hints {
                if base.middleHint.count == hints.count { _ = hints.update(fromContentsOf: base.middleHint) } else { hints.update(repeating: CCHMetric.searchHint) }
            }
        }
        report.copySeconds = Date().timeIntervalSince(copyStart)
        let baseForward = base.forward, baseBackward = base.backward
        let firstUp = cch.firstUp, upHead = cch.upHead
        let firstDown = cch.firstDown, downArcs = cch.downArcs
        var queue = ArcQueue()
        var queued = [UInt64](repeating: 0, count: cch.arcCount / 64 + 1)
        func push(arc: Int, lower: Int) {
            let bit = UInt64(1) << UInt64(arc & 63)
            guard queued[arc >> 6] & bit == 0 else { return }
            queued[arc >> 6] |= bit
            queue.push(arc: arc, lower: lower)
        }
        // Seeds: the arcs holding an input turn into a raised node (from a neighbour of it).
        func entersRaised(from tail: Int, into node: Int, arc: Int) -> Bool {
            (Int(cch.turnFirstOut[tail])..<Int(cch.turnFirstOut[tail + 1])).contains {
                Int(cch.turnHead[$0]) == node && cch.inputArc[$0] != UInt32.max && Int(cch.inputArc[$0] >> 1) == arc
            }
        }
        for node in raised {
            for arc in Int(firstUp[node])..<Int(firstUp[node + 1]) where entersRaised(from: Int(upHead[arc]), into: node, arc: arc) {
                push(arc: arc, lower: node)
            }
            for slot in Int(firstDown[node])..<Int(firstDown[node + 1]) {
                let arc = Int(downArcs[2 * slot + 1]), lower = Int(downArcs[2 * slot])
                if entersRaised(from: lower, into: node, arc: arc) { push(arc: arc, lower: lower) }
            }
        }
        report.seedArcs = queue.count
        let infinity = CCHMetric.infinity
        while let (arc, y) = queue.pop() {
            let z = Int(upHead[arc])
            // Input turns of the arc leave y or z.
            var up = infinity, downWeight = infinity
            for tail in Ends(y, z) {
                for turn in Int(cch.turnFirstOut[tail])..<Int(cch.turnFirstOut[tail + 1]) {
                    let code = cch.inputArc[turn]
                    guard code != UInt32.max, Int(code >> 1) == arc else { continue }
                    let entered = nodeWeight[Int(cch.turnHead[turn])]
                    guard entered < infinity else { continue }
                    let weight = UInt32(min(UInt64(infinity - 1), UInt64(entered) + UInt64(turnCost[turn])))
                    if code & 1 == 0 { up = min(up, weight) } else { downWeight = min(downWeight, weight) }
                }
            }
            // Triangle {x, y, z}: x -> y then x -> z upward, x -> z then x -> y downward.
            @inline(__always) func relax(xy: Int, xz: Int) {
                up = min(up, backward[xy] &+ forward[xz])
                downWeight = min(downWeight, backward[xz] &+ forward[xy])
            }
            // Lower triangles x -> y, x -> z with x ascending: walk the shorter of the two downward lists.
            let yBegin = Int(firstDown[y]), yEnd = Int(firstDown[y + 1])
            let zBegin = Int(firstDown[z]), zEnd = Int(firstDown[z + 1])
            report.triangleLookups += min(yEnd - yBegin, zEnd - zBegin)
            if yEnd - yBegin <= zEnd - zBegin {
                for slot in yBegin..<yEnd {
                    let x = Int(downArcs[2 * slot])
                    guard let xz = cch.arc(from: x, to: z) else { continue }
                    relax(xy: Int(downArcs[2 * slot + 1]), xz: xz)
                }
            } else {
                for slot in zBegin..<zEnd {
                    let x = Int(downArcs[2 * slot])
                    if x >= y { break }
                    guard let xy = cch.arc(from: x, to: y) else { continue }
                    relax(xy: xy, xz: Int(downArcs[2 * slot + 1]))
                }
            }
            up = min(up, infinity); downWeight = min(downWeight, infinity)
            report.recomputedArcs += 1
            if let hints { hints[2 * arc] = CCHMetric.searchHint; hints[2 * arc + 1] = CCHMetric.searchHint }
            let changed = up != forward[arc] || downWeight != backward[arc]
            forward[arc] = up; backward[arc] = downWeight
            guard changed else { continue }
            report.changedArcs += 1
            // Triangles with y lowest: y -> z and y -> w give the arc between z and w. It is recomputed when
            // that triangle gave its base weight in either direction (a tie included).
            for other in Int(firstUp[y])..<Int(firstUp[y + 1]) where other != arc {
                let w = Int(upHead[other])
                let (low, high, toLow, toHigh) = z < w ? (z, w, arc, other) : (w, z, other, arc)
                guard let target = cch.arc(from: low, to: high),
                      baseForward[target] == baseBackward[toLow] &+ baseForward[toHigh]
                        || baseBackward[target] == baseBackward[toHigh] &+ baseForward[toLow] else { continue }
                push(arc: target, lower: low)
            }
        }
        return (metric, report)
    }
}

/// A min-heap of CCH arcs by index (which orders them by lower end), each with its lower end.
private struct ArcQueue {
    private var heap: [UInt64] = []
    package var count: Int { heap.count }

    package mutating func push(arc: Int, lower: Int) {
        heap.append(UInt64(arc) << 32 | UInt64(lower))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) >> 1
            if heap[parent] <= heap[child] { break }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    mutating func pop() -> (arc: Int, lower: Int)? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count && heap[left] < heap[smallest] { smallest = left }
                if right < heap.count && heap[right] < heap[smallest] { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return (Int(top >> 32), Int(top & 0xFFFF_FFFF))
    }
}

/// The two ends of an arc, as a sequence that needs no allocation.
private struct Ends: Sequence, IteratorProtocol {
    private var remaining: (Int?, Int?)
    package init(_ first: Int, _ second: Int) { remaining = (first, second) }
    package mutating func next() -> Int? {
        defer { remaining = (remaining.1, nil) }
        return remaining.0
    }
}
