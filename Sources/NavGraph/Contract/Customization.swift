/// Arc weights of a customizable contraction hierarchy for one metric, with the lower-triangle middle node of each shortcut.
public final class CCHMetric: @unchecked Sendable {
    /// Weight of an arc that cannot be used.
    public static let infinity: UInt32 = 0x7FFF_FFFF

    /// Weight of going up (lower rank to higher rank) along each CCH arc.
    public let forward: UnsafeBufferPointer<UInt32>
    /// Weight of going down along each CCH arc.
    public let backward: UnsafeBufferPointer<UInt32>
    /// Middle node of the lower triangle that gave the forward weight, or -1 for an input arc.
    public let forwardVia: UnsafeBufferPointer<Int32>
    public let backwardVia: UnsafeBufferPointer<Int32>
    private let owner: AnyObject?
    private let ownedWeights: UnsafeMutableBufferPointer<UInt32>?
    private let ownedVia: UnsafeMutableBufferPointer<Int32>?

    /// Wraps arrays that live elsewhere (a mapped graph file kept alive by owner).
    public init(forward: UnsafeBufferPointer<UInt32>, backward: UnsafeBufferPointer<UInt32>,
                forwardVia: UnsafeBufferPointer<Int32>, backwardVia: UnsafeBufferPointer<Int32>, owner: AnyObject) {
        self.forward = forward; self.backward = backward
        self.forwardVia = forwardVia; self.backwardVia = backwardVia
        self.owner = owner
        ownedWeights = nil; ownedVia = nil
    }

    /// An owned metric of unusable arcs; with `filled` false its values are left for the caller to write (trivial types).
    init(arcCount: Int, filled: Bool = true) {
        let weights = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: max(1, arcCount * 2))
        let via = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(1, arcCount * 2))
        if filled {
            weights.initialize(repeating: CCHMetric.infinity)
            via.initialize(repeating: -1)
        }
        ownedWeights = weights; ownedVia = via
        forward = UnsafeBufferPointer(rebasing: weights[0..<arcCount])
        backward = UnsafeBufferPointer(rebasing: weights[arcCount..<(2 * arcCount)])
        forwardVia = UnsafeBufferPointer(rebasing: via[0..<arcCount])
        backwardVia = UnsafeBufferPointer(rebasing: via[arcCount..<(2 * arcCount)])
        owner = nil
    }

    deinit {
        ownedWeights?.deallocate()
        ownedVia?.deallocate()
    }

    /// Writable views of an owned metric: forward, backward, forward via, backward via.
    var writable: (UnsafeMutableBufferPointer<UInt32>, UnsafeMutableBufferPointer<UInt32>,
                               UnsafeMutableBufferPointer<Int32>, UnsafeMutableBufferPointer<Int32>)? {
        guard let weights = ownedWeights, let via = ownedVia else { return nil }
        let count = forward.count
        return (UnsafeMutableBufferPointer(rebasing: weights[0..<count]), UnsafeMutableBufferPointer(rebasing: weights[count..<(2 * count)]),
                UnsafeMutableBufferPointer(rebasing: via[0..<count]), UnsafeMutableBufferPointer(rebasing: via[count..<(2 * count)]))
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

    /// Index of the upward arc low -> high, if it exists.
    @inline(__always)
    public func arc(from low: Int, to high: Int) -> Int? {
        var lower = Int(firstUp[low]), upper = Int(firstUp[low + 1])
        let end = upper
        while lower < upper {
            let middle = (lower + upper) >> 1
            if Int(upHead[middle]) < high { lower = middle + 1 } else { upper = middle }
        }
        return lower < end && Int(upHead[lower]) == high ? lower : nil
    }
}

/// Computes a CCHMetric from per-routing-node weights and per-turn costs: turn arc a into node v costs
/// turnCost[a] + nodeWeight[v] (nothing if v may not be used).
public enum Customization {
    public static func customize(_ cch: CCHView, nodeWeight: UnsafeBufferPointer<UInt32>, turnCost: UnsafeBufferPointer<UInt32>) -> CCHMetric {
        let metric = CCHMetric(arcCount: cch.arcCount)
        guard let (forward, backward, forwardVia, backwardVia) = metric.writable else { return metric }
        let infinity = CCHMetric.infinity

        // Input arcs.
        for tail in 0..<cch.nodeCount {
            for arc in Int(cch.turnFirstOut[tail])..<Int(cch.turnFirstOut[tail + 1]) {
                let entered = nodeWeight[Int(cch.turnHead[arc])]
                let code = cch.inputArc[arc]
                guard entered < infinity, code != UInt32.max else { continue }
                let weight = UInt32(min(UInt64(infinity - 1), UInt64(entered) + UInt64(turnCost[arc])))
                let cchArc = Int(code >> 1)
                if code & 1 == 0 {
                    if weight < forward[cchArc] { forward[cchArc] = weight }
                } else if weight < backward[cchArc] {
                    backward[cchArc] = weight
                }
            }
        }

        // Lower triangles, bottom-up: when x is processed, every arc leaving x upward is final.
        let arcOfNeighbor = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(1, cch.nodeCount))
        arcOfNeighbor.initialize(repeating: -1)
        defer { arcOfNeighbor.deallocate() }
        let firstUp = cch.firstUp, upHead = cch.upHead
        for x in 0..<cch.nodeCount {
            let begin = Int(firstUp[x]), end = Int(firstUp[x + 1])
            if end - begin < 2 { continue }
            for arc in begin..<end { arcOfNeighbor[Int(upHead[arc])] = Int32(arc) }
            for lowerArc in begin..<end {
                let y = Int(upHead[lowerArc])
                let xyUp = forward[lowerArc], xyDown = backward[lowerArc]
                for topArc in Int(firstUp[y])..<Int(firstUp[y + 1]) {
                    let otherArc = Int(arcOfNeighbor[Int(upHead[topArc])])
                    if otherArc < 0 { continue }
                    // y -> x -> z and z -> x -> y.
                    let up = xyDown &+ forward[otherArc]
                    if up < forward[topArc] { forward[topArc] = up; forwardVia[topArc] = Int32(x) }
                    let down = backward[otherArc] &+ xyUp
                    if down < backward[topArc] { backward[topArc] = down; backwardVia[topArc] = Int32(x) }
                }
            }
            for arc in begin..<end { arcOfNeighbor[Int(upHead[arc])] = -1 }
        }
        // Clamp sums of unusable arcs back to infinity.
        for arc in 0..<cch.arcCount {
            if forward[arc] > infinity { forward[arc] = infinity }
            if backward[arc] > infinity { backward[arc] = infinity }
        }
        return metric
    }
}
