import CMetis

/// Metric-independent node order for the customizable contraction hierarchy: METIS nested dissection.
public enum NestedDissectionOrder {
    /// Returns rank[v] for every node of the undirected graph given by directed arcs (symmetrized here).
    public static func compute(nodeCount: Int, firstOut: ContiguousArray<UInt32>, head: ContiguousArray<UInt32>) throws -> ContiguousArray<UInt32> {
        guard nodeCount > 1 else { return ContiguousArray(0..<UInt32(nodeCount)) }
        let (xadj, adjncy) = symmetricAdjacency(nodeCount: nodeCount, firstOut: firstOut, head: head)
        var xadjMetis = xadj.map { idx_t($0) }
        var adjMetis = adjncy.map { idx_t($0) }
        if adjMetis.isEmpty { return ContiguousArray(0..<UInt32(nodeCount)) }
        var count = idx_t(nodeCount)
        var options = [idx_t](repeating: 0, count: Int(METIS_NOPTIONS))
        METIS_SetDefaultOptions(&options)
        options[Int(METIS_OPTION_NUMBERING.rawValue)] = 0
        var permutation = [idx_t](repeating: 0, count: nodeCount)
        var inverse = [idx_t](repeating: 0, count: nodeCount)
        let status = METIS_NodeND(&count, &xadjMetis, &adjMetis, nil, &options, &permutation, &inverse)
        guard status == METIS_OK.rawValue else { throw NavGraphError("METIS_NodeND failed with status \(status)") }
        return ContiguousArray(inverse.map { UInt32($0) })
    }

    /// Undirected CSR without self loops or duplicates.
    static func symmetricAdjacency(nodeCount: Int, firstOut: ContiguousArray<UInt32>, head: ContiguousArray<UInt32>)
        -> (ContiguousArray<Int>, ContiguousArray<UInt32>) {
        var degree = ContiguousArray<Int>(repeating: 0, count: nodeCount + 1)
        for tail in 0..<nodeCount {
            for arc in Int(firstOut[tail])..<Int(firstOut[tail + 1]) where Int(head[arc]) != tail {
                degree[tail + 1] += 1
                degree[Int(head[arc]) + 1] += 1
            }
        }
        for node in 0..<nodeCount { degree[node + 1] += degree[node] }
        var neighbors = ContiguousArray<UInt32>(repeating: 0, count: degree[nodeCount])
        var fill = degree
        for tail in 0..<nodeCount {
            for arc in Int(firstOut[tail])..<Int(firstOut[tail + 1]) where Int(head[arc]) != tail {
                let other = Int(head[arc])
                neighbors[fill[tail]] = UInt32(other); fill[tail] += 1
                neighbors[fill[other]] = UInt32(tail); fill[other] += 1
            }
        }
        // Sort and deduplicate each list.
        var xadj = ContiguousArray<Int>([0])
        xadj.reserveCapacity(nodeCount + 1)
        var compact = ContiguousArray<UInt32>()
        compact.reserveCapacity(neighbors.count)
        for node in 0..<nodeCount {
            let list = neighbors[degree[node]..<degree[node + 1]].sorted()
            var previous: UInt32?
            for neighbor in list where neighbor != previous {
                compact.append(neighbor)
                previous = neighbor
            }
            xadj.append(compact.count)
        }
        return (xadj, compact)
    }
}
