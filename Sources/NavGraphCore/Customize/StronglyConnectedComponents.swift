/// Strongly connected components of a CSR graph (iterative Tarjan), numbered so that 0 is the largest.
public enum StronglyConnectedComponents {
    public static func compute(nodeCount: Int, firstOut: ContiguousArray<UInt32>, head: ContiguousArray<UInt32>)
        -> (component: ContiguousArray<UInt32>, sizes: [Int]) {
        let unvisited = Int32.max
        var index = ContiguousArray<Int32>(repeating: unvisited, count: nodeCount)
        var lowLink = ContiguousArray<Int32>(repeating: 0, count: nodeCount)
        var onStack = ContiguousArray<Bool>(repeating: false, count: nodeCount)
        var component = ContiguousArray<UInt32>(repeating: 0, count: nodeCount)
        var stack = ContiguousArray<Int32>()
        var callStack = ContiguousArray<(node: Int32, nextArc: UInt32)>()
        var counter: Int32 = 0
        var sizes: [Int] = []

        for root in 0..<nodeCount where index[root] == unvisited {
            callStack.append((Int32(root), firstOut[root]))
            index[root] = counter; lowLink[root] = counter; counter += 1
            stack.append(Int32(root)); onStack[root] = true
            while let top = callStack.last {
                let node = Int(top.node)
                if top.nextArc < firstOut[node + 1] {
                    callStack[callStack.count - 1].nextArc += 1
                    let next = Int(head[Int(top.nextArc)])
                    if index[next] == unvisited {
                        index[next] = counter; lowLink[next] = counter; counter += 1
                        stack.append(Int32(next)); onStack[next] = true
                        callStack.append((Int32(next), firstOut[next]))
                    } else if onStack[next] {
                        lowLink[node] = min(lowLink[node], index[next])
                    }
                } else {
                    callStack.removeLast()
                    if let parent = callStack.last { lowLink[Int(parent.node)] = min(lowLink[Int(parent.node)], lowLink[node]) }
                    if lowLink[node] == index[node] {
                        let id = UInt32(sizes.count)
                        var size = 0
                        while let member = stack.popLast() {
                            onStack[Int(member)] = false
                            component[Int(member)] = id
                            size += 1
                            if Int(member) == node { break }
                        }
                        sizes.append(size)
                    }
                }
            }
        }
        // Renumber by decreasing size.
        let order = sizes.indices.sorted { sizes[$0] > sizes[$1] }
        var rename = [UInt32](repeating: 0, count: sizes.count)
        for (newID, oldID) in order.enumerated() { rename[oldID] = UInt32(newID) }
        for node in 0..<nodeCount { component[node] = rename[Int(component[node])] }
        return (component, order.map { sizes[$0] })
    }
}
