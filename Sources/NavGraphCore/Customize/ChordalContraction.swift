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
        // Each input edge once as an upward arc of its lower end (duplicates are dropped below).
        var firstInputUp = ContiguousArray<UInt32>(repeating: 0, count: nodeCount + 1)
        for tail in 0..<nodeCount {
            for arc in Int(firstOut[tail])..<Int(firstOut[tail + 1]) where Int(head[arc]) != tail {
                firstInputUp[min(tail, Int(head[arc])) + 1] += 1
            }
        }
        for node in 0..<nodeCount { firstInputUp[node + 1] += firstInputUp[node] }
        var inputUp = ContiguousArray<UInt32>(repeating: 0, count: Int(firstInputUp[nodeCount]))
        do {
            var fill = firstInputUp
            for tail in 0..<nodeCount {
                for arc in Int(firstOut[tail])..<Int(firstOut[tail + 1]) where Int(head[arc]) != tail {
                    let other = Int(head[arc]), low = min(tail, other)
                    inputUp[Int(fill[low])] = UInt32(max(tail, other))
                    fill[low] += 1
                }
            }
        }
        // Eliminating x joins its upward neighbours: its upward arcs are its input's and its children's (in the
        // elimination tree) other than x itself. Children are chained through `nextChild`; nothing is allocated per node.
        var topology = CCHTopology()
        topology.parent = ContiguousArray(repeating: -1, count: nodeCount)
        topology.firstUp.reserveCapacity(nodeCount + 1)
        topology.firstUp.append(0)
        topology.upHead.reserveCapacity(inputUp.count * 3)
        var firstChild = ContiguousArray<Int32>(repeating: -1, count: nodeCount)
        var nextChild = ContiguousArray<Int32>(repeating: -1, count: nodeCount)
        var seenBy = ContiguousArray<UInt32>(repeating: .max, count: nodeCount)
        var neighbors: [UInt32] = []
        for node in 0..<nodeCount {
            neighbors.removeAll(keepingCapacity: true)
            let me = UInt32(node)
            for index in Int(firstInputUp[node])..<Int(firstInputUp[node + 1]) {
                let other = inputUp[index]
                if seenBy[Int(other)] != me { seenBy[Int(other)] = me; neighbors.append(other) }
            }
            var child = firstChild[node]
            while child >= 0 {
                for index in Int(topology.firstUp[Int(child)])..<Int(topology.firstUp[Int(child) + 1]) {
                    let other = topology.upHead[index]
                    if other != me && seenBy[Int(other)] != me { seenBy[Int(other)] = me; neighbors.append(other) }
                }
                child = nextChild[Int(child)]
            }
            neighbors.sort()
            topology.upHead.append(contentsOf: neighbors)
            topology.firstUp.append(UInt32(topology.upHead.count))
            if let lowest = neighbors.first {
                topology.parent[node] = Int32(lowest)
                nextChild[node] = firstChild[Int(lowest)]
                firstChild[Int(lowest)] = Int32(node)
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
