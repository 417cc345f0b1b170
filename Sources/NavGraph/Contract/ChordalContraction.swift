/// The metric-independent part of a customizable contraction hierarchy: upward arcs of the chordal
/// supergraph in rank order, the elimination tree, and where each input arc lands.
public struct CCHTopology {
    /// Upward arcs of node x (rank id) are upHead[firstUp[x] ..< firstUp[x + 1]], sorted ascending.
    public var firstUp = ContiguousArray<UInt32>()
    public var upHead = ContiguousArray<UInt32>()
    /// Elimination tree parent (the lowest upward neighbour), or -1 for a root.
    public var parent = ContiguousArray<Int32>()
    /// For input arc a: CCH arc << 1, plus 1 when the input arc runs downward (higher to lower rank).
    public var inputArc = ContiguousArray<UInt32>()

    public init() {}
    public var nodeCount: Int { parent.count }
    public var arcCount: Int { upHead.count }
}

/// Builds the CCH topology by eliminating nodes in rank order (nodes must already be numbered by rank).
public enum ChordalContraction {
    public static func contract(nodeCount: Int, firstOut: ContiguousArray<UInt32>, head: ContiguousArray<UInt32>) throws -> CCHTopology {
        guard firstOut.count == nodeCount + 1, Int(firstOut[nodeCount]) == head.count, head.allSatisfy({ Int($0) < nodeCount }) else {
            throw NavGraphError("contraction input is inconsistent: \(nodeCount) nodes, \(firstOut.count) offsets, \(head.count) arcs", code: .badFile)
        }
        var upward = [[UInt32]](repeating: [], count: nodeCount)
        for tail in 0..<nodeCount {
            for arc in Int(firstOut[tail])..<Int(firstOut[tail + 1]) {
                let other = Int(head[arc])
                if other > tail { upward[tail].append(UInt32(other)) } else if other < tail { upward[other].append(UInt32(tail)) }
            }
        }
        var topology = CCHTopology()
        topology.parent = ContiguousArray(repeating: -1, count: nodeCount)
        topology.firstUp.reserveCapacity(nodeCount + 1)
        topology.firstUp.append(0)
        for node in 0..<nodeCount {
            var list = upward[node]
            upward[node] = []
            list.sort()
            var unique: [UInt32] = []
            unique.reserveCapacity(list.count)
            for value in list where unique.last != value { unique.append(value) }
            topology.upHead.append(contentsOf: unique)
            topology.firstUp.append(UInt32(topology.upHead.count))
            if let lowest = unique.first {
                topology.parent[node] = Int32(lowest)
                upward[Int(lowest)].append(contentsOf: unique.dropFirst())
            }
        }
        topology.inputArc = try inputArcs(topology, firstOut: firstOut, head: head)
        return topology
    }

    /// Where each input arc lands: CCH arc << 1, plus 1 when it runs downward; UInt32.max for a loop.
    /// Every input arc is an arc of the chordal supergraph by construction; one that is not is a defect and fails.
    public static func inputArcs(_ topology: CCHTopology, firstOut: ContiguousArray<UInt32>, head: ContiguousArray<UInt32>) throws -> ContiguousArray<UInt32> {
        var inputArc = ContiguousArray<UInt32>()
        inputArc.reserveCapacity(head.count)
        for tail in 0..<(firstOut.count - 1) {
            for arc in Int(firstOut[tail])..<Int(firstOut[tail + 1]) {
                let other = Int(head[arc])
                if other == tail { inputArc.append(UInt32.max); continue }
                let low = min(tail, other), high = max(tail, other)
                guard low < topology.nodeCount, high < topology.nodeCount, let cchArc = findArc(topology, from: low, to: high) else {
                    throw NavGraphError("contraction defect: input arc \(arc) (\(tail) -> \(other)) has no hierarchy arc", code: .badFile)
                }
                inputArc.append(UInt32(cchArc) << 1 | (tail > other ? 1 : 0))
            }
        }
        return inputArc
    }

    static func findArc(_ topology: CCHTopology, from low: Int, to high: Int) -> Int? {
        var lower = Int(topology.firstUp[low]), upper = Int(topology.firstUp[low + 1])
        while lower < upper {
            let middle = (lower + upper) >> 1
            if Int(topology.upHead[middle]) < high { lower = middle + 1 } else { upper = middle }
        }
        return lower < Int(topology.firstUp[low + 1]) && Int(topology.upHead[lower]) == high ? lower : nil
    }
}
