import Foundation

/// For each CCH node, the upward arcs that end at it, their lower ends ascending: the downward view of the hierarchy
/// that partial customization needs to list an arc's lower triangles.
///
/// Lifetime: built once per hierarchy (about 8 bytes per arc) and kept by the engine. Thread safety: immutable.
public final class CCHDownwardArcs: Sendable {
    /// Arcs ending at node y: positions firstDown[y] ..< firstDown[y + 1] of `lowerNode` and `arc`.
    let firstDown: ContiguousArray<UInt32>
    /// Lower end x of each listed arc x -> y.
    let lowerNode: ContiguousArray<UInt32>
    /// Index of each listed arc x -> y in the CCH arc arrays.
    let arc: ContiguousArray<UInt32>

    public init(_ cch: CCHView) {
        let nodes = cch.nodeCount, arcs = cch.arcCount
        var first = ContiguousArray<UInt32>(repeating: 0, count: nodes + 1)
        for index in 0..<arcs { first[Int(cch.upHead[index]) + 1] += 1 }
        for node in 0..<nodes { first[node + 1] += first[node] }
        var next = first
        var lower = ContiguousArray<UInt32>(repeating: 0, count: arcs)
        var arcOf = ContiguousArray<UInt32>(repeating: 0, count: arcs)
        // Tails visited in ascending order, so every node's list comes out ascending.
        for x in 0..<nodes {
            for index in Int(cch.firstUp[x])..<Int(cch.firstUp[x + 1]) {
                let y = Int(cch.upHead[index])
                let slot = Int(next[y])
                lower[slot] = UInt32(x); arcOf[slot] = UInt32(index)
                next[y] += 1
            }
        }
        firstDown = first; lowerNode = lower; arc = arcOf
    }
}

/// Re-customizes a hierarchy after some routing nodes became unusable (their weight raised to infinity): starts from
/// the metric customized without the change and recomputes only the arcs whose weight can change, lowest first.
///
/// An arc y -> z is recomputed from its input turns and all its lower triangles {x, y, z} exactly as `Customization`
/// computes it (input first, then x ascending, ties keep the first), so the result equals a full customization
/// with the new weights, middle nodes included. An arc is recomputed when one of its own input turns enters a raised
/// node, or when an arc of a lower triangle changed and the arc's weight came through that triangle (weights only
/// rise, so any other arc keeps its weight and middle node).
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
    /// (the same turn costs `base` was customized with).
    /// `downwardArcs` is called once, on a second core while the base metric is copied.
    public static func recustomize(_ cch: CCHView, downwardArcs: () -> CCHDownwardArcs, base: CCHMetric,
                                   nodeWeight: UnsafeBufferPointer<UInt32>, turnCost: UnsafeBufferPointer<UInt32>,
                                   raised: [Int]) -> (CCHMetric, Report) {
        let copyStart = Date()
        let metric = CCHMetric(arcCount: cch.arcCount, filled: false)
        var report = Report()
        guard let (forward, backward, forwardVia, backwardVia) = metric.writable else { return (metric, report) }
        var built: CCHDownwardArcs?
        withoutActuallyEscaping(downwardArcs) { downwardArcs in
            let copies = UncheckedCopies(jobs: [(UnsafeMutableRawBufferPointer(forward), UnsafeRawBufferPointer(base.forward)),
                                                (UnsafeMutableRawBufferPointer(backward), UnsafeRawBufferPointer(base.backward)),
                                                (UnsafeMutableRawBufferPointer(forwardVia), UnsafeRawBufferPointer(base.forwardVia)),
                                                (UnsafeMutableRawBufferPointer(backwardVia), UnsafeRawBufferPointer(base.backwardVia))])
            let index = UncheckedIndex(make: downwardArcs)
            // Worker 1 first builds the downward index (at once, if already built); both take copies as they come free.
            Parallel.run(2) { worker in
                if worker == 1 { index.result = index.make() }
                while let job = copies.next() { job.0.copyMemory(from: job.1) }
            }
            built = index.result
        }
        report.copySeconds = Date().timeIntervalSince(copyStart)
        guard let down = built else { return (metric, report) }
        let firstUp = cch.firstUp, upHead = cch.upHead
        down.firstDown.withUnsafeBufferPointer { firstDown in
            down.lowerNode.withUnsafeBufferPointer { lowerNode in
                down.arc.withUnsafeBufferPointer { downArc in
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
                            let arc = Int(downArc[slot]), lower = Int(lowerNode[slot])
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
                        var upVia: Int32 = -1, downVia: Int32 = -1
                        // Triangle {x, y, z}: x -> y then x -> z upward, x -> z then x -> y downward.
                        @inline(__always) func relax(through x: Int, xy: Int, xz: Int) {
                            let viaUp = backward[xy] &+ forward[xz]
                            if viaUp < up { up = viaUp; upVia = Int32(x) }
                            let viaDown = backward[xz] &+ forward[xy]
                            if viaDown < downWeight { downWeight = viaDown; downVia = Int32(x) }
                        }
                        // Lower triangles x -> y, x -> z with x ascending: walk the shorter of the two downward lists.
                        let yBegin = Int(firstDown[y]), yEnd = Int(firstDown[y + 1])
                        let zBegin = Int(firstDown[z]), zEnd = Int(firstDown[z + 1])
                        report.triangleLookups += min(yEnd - yBegin, zEnd - zBegin)
                        if yEnd - yBegin <= zEnd - zBegin {
                            for slot in yBegin..<yEnd {
                                let x = Int(lowerNode[slot])
                                guard let xz = cch.arc(from: x, to: z) else { continue }
                                relax(through: x, xy: Int(downArc[slot]), xz: xz)
                            }
                        } else {
                            for slot in zBegin..<zEnd {
                                let x = Int(lowerNode[slot])
                                if x >= y { break }
                                guard let xy = cch.arc(from: x, to: y) else { continue }
                                relax(through: x, xy: xy, xz: Int(downArc[slot]))
                            }
                        }
                        up = min(up, infinity); downWeight = min(downWeight, infinity)
                        report.recomputedArcs += 1
                        let changed = up != forward[arc] || downWeight != backward[arc]
                        forward[arc] = up; backward[arc] = downWeight
                        forwardVia[arc] = upVia; backwardVia[arc] = downVia
                        guard changed else { continue }
                        report.changedArcs += 1
                        // Triangles with y lowest: y -> z and y -> w give the arc between z and w. It is recomputed when
                        // its weight in either direction came through y.
                        for other in Int(firstUp[y])..<Int(firstUp[y + 1]) where other != arc {
                            let w = Int(upHead[other])
                            let low = min(z, w), high = max(z, w)
                            guard let target = cch.arc(from: low, to: high),
                                  forwardVia[target] == Int32(y) || backwardVia[target] == Int32(y) else { continue }
                            push(arc: target, lower: low)
                        }
                    }
                }
            }
        }
        return (metric, report)
    }
}

/// The four copies of a base metric, taken one at a time by the workers (each writes its own destination).
private final class UncheckedCopies: @unchecked Sendable {
    private let lock = NSLock()
    private var jobs: [(UnsafeMutableRawBufferPointer, UnsafeRawBufferPointer)]
    init(jobs: [(UnsafeMutableRawBufferPointer, UnsafeRawBufferPointer)]) { self.jobs = jobs }
    func next() -> (UnsafeMutableRawBufferPointer, UnsafeRawBufferPointer)? {
        lock.withLock { jobs.popLast() }
    }
}

/// The downward index's builder and result, handed to the other worker.
private final class UncheckedIndex: @unchecked Sendable {
    let make: () -> CCHDownwardArcs
    var result: CCHDownwardArcs?
    init(make: @escaping () -> CCHDownwardArcs) { self.make = make }
}

/// A min-heap of CCH arcs by index (which orders them by lower end), each with its lower end.
private struct ArcQueue {
    private var heap: [UInt64] = []
    var count: Int { heap.count }

    mutating func push(arc: Int, lower: Int) {
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
    init(_ first: Int, _ second: Int) { remaining = (first, second) }
    mutating func next() -> Int? {
        defer { remaining = (remaining.1, nil) }
        return remaining.0
    }
}
