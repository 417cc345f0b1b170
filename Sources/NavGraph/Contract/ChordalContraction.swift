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
    public static func contract(nodeCount: Int, firstOut: ContiguousArray<UInt32>, head: ContiguousArray<UInt32>) -> CCHTopology {
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
        topology.inputArc.reserveCapacity(head.count)
        for tail in 0..<nodeCount {
            for arc in Int(firstOut[tail])..<Int(firstOut[tail + 1]) {
                let other = Int(head[arc])
                if other == tail { topology.inputArc.append(UInt32.max); continue }
                let low = min(tail, other), high = max(tail, other)
                let cchArc = findArc(topology, from: low, to: high) ?? 0
                topology.inputArc.append(UInt32(cchArc) << 1 | (tail > other ? 1 : 0))
            }
        }
        return topology
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
