import NavGraphCore
/// What a road set's import keeps of its road network once every section made from it is in the file: the counts and
/// box the metadata gives, the snapping grid's parameters, and each profile's routing-node weights (all that the
/// customizations read of the network). `write` writes the network's sections, the junction lists and the snapping
/// grid ahead (their entries are placed in the table at the end, StreamedSections.place) and frees the network, so
/// that the order, the contraction and the customizations of the road set run without it.
package struct WrittenNetwork {
    package let nodeCount: Int
    package let edgeCount: Int
    package let shapePointCount: Int
    package let bbox: BoundingBox
    package let grid: GridParameters
    /// Per profile (in the road set's order): milliseconds to drive each routing node's directed edge, in the
    /// numbering of the turn graph `write` was given (`renumber` moves them to rank order).
    private(set) var nodeWeights: [ContiguousArray<UInt32>]
    /// Per profile: whether it has edge arrays of its own (the first profile uses the network's; a later one without
    /// them has no sections).
    package let hasOwnEdges: [Bool]

    /// Writes ahead every section of `network` not written yet (and the junction lists and the spatial index built
    /// from it, `isRoutable` telling which edges have a routing node) and keeps what later phases need. `profiles`
    /// are the road set's; `withLimits` writes the dimension limits.
    package static func write(_ network: consuming RoadNetwork, turns: TurnGraph, profiles: [ProfileID], withLimits: Bool,
                      isRoutable: (Int) -> Bool, tag: String, log: ProgressLog, to writer: inout StreamedSections) throws -> WrittenNetwork {
        let bbox = Importer.boundingBox(network)
        let (grid, gridFirst, gridSegment) = log.phase(tag + "spatial index") {
            let built = SpatialGridBuilder.build(network: network, isRoutable: isRoutable, bbox: bbox)
            return (built, "\(built.0.rows)x\(built.0.columns) cells, \(built.2.count) entries, written")
        }
        try writer.addAhead(Section.gridFirst, gridFirst)
        try writer.addAhead(Section.gridSegment, gridSegment)
        var weights: [ContiguousArray<UInt32>] = [], hasOwnEdges: [Bool] = []
        for (index, id) in profiles.enumerated() {
            let edges = index == 0 ? nil : network.profileEdges.first { $0.profile == id }
            weights.append(ProfileTurnCosts.nodeWeights(network: network, profile: edges, turns: turns))
            hasOwnEdges.append(index == 0 || edges != nil)
        }
        func ahead<Element: BitwiseCopyable>(_ name: String, _ values: ContiguousArray<Element>) throws {
            if !writer.isAhead(name) { try writer.addAhead(name, values) }
        }
        try ahead(Section.nodeOSM, network.nodeOSMID)
        try ahead(Section.edgeFrom, network.edgeFrom)
        try ahead(Section.edgeTo, network.edgeTo)
        try ahead(Section.edgeShapeFirst, network.edgeShapeFirst)
        try ahead(Section.shapeLat, network.shapeLatE7)
        try ahead(Section.shapeLon, network.shapeLonE7)
        try ahead(Section.edgeLength, network.edgeLength)
        try ahead(Section.edgeTimeForward, network.edgeTimeForward)
        try ahead(Section.edgeTimeBackward, network.edgeTimeBackward)
        try ahead(Section.edgeFlags, network.edgeFlags)
        try ahead(Section.edgeName, network.edgeName)
        try ahead(Section.edgeWay, network.edgeWay)
        try ahead(Section.nodeControl, network.nodeControl)
        try ahead(Section.shapeControl, network.shapeControl)
        let (junctionFirstOut, junctionOut) = junctionLists(network)
        try ahead(Section.junctionFirstOut, junctionFirstOut)
        try ahead(Section.junctionOut, junctionOut)
        for (index, id) in profiles.enumerated() where index > 0 {
            guard let edges = network.profileEdges.first(where: { $0.profile == id }) else { continue }
            try ahead(id.baseSectionName(.timeForward), edges.timeForward)
            try ahead(id.baseSectionName(.timeBackward), edges.timeBackward)
            try ahead(id.baseSectionName(.flags), edges.flags)
        }
        if withLimits {
            try ahead(Section.limitEdge, network.limitEdge)
            try ahead(Section.limitValues, network.limitValues)
        }
        return WrittenNetwork(nodeCount: network.nodeCount, edgeCount: network.edgeCount, shapePointCount: network.shapeLatE7.count,
                              bbox: bbox, grid: grid, nodeWeights: weights, hasOwnEdges: hasOwnEdges)
    }

    /// Hands over the node weights (each profile's customization frees its own), leaving none here.
    package mutating func takeNodeWeights() -> [ContiguousArray<UInt32>] {
        defer { nodeWeights = [] }
        return nodeWeights
    }

    /// Moves the node weights from the numbering `write` saw to rank order (node v becomes rank[v]).
    package mutating func renumber(rank: ContiguousArray<UInt32>) {
        for index in nodeWeights.indices {
            let old = nodeWeights[index]
            var renumbered = ContiguousArray<UInt32>(repeating: 0, count: old.count)
            for node in 0..<old.count { renumbered[Int(rank[node])] = old[node] }
            nodeWeights[index] = renumbered
        }
    }

    /// Each junction's outgoing directed edges (both ends of every edge, whether or not a car may drive them).
    private static func junctionLists(_ network: RoadNetwork) -> (ContiguousArray<UInt32>, ContiguousArray<UInt32>) {
        var firstOut = ContiguousArray<UInt32>(repeating: 0, count: network.nodeCount + 1)
        for edge in 0..<network.edgeCount {
            firstOut[Int(network.edgeFrom[edge]) + 1] += 1
            firstOut[Int(network.edgeTo[edge]) + 1] += 1
        }
        for node in 0..<network.nodeCount { firstOut[node + 1] += firstOut[node] }
        var fill = firstOut
        var outgoing = ContiguousArray<UInt32>(repeating: 0, count: 2 * network.edgeCount)
        for edge in 0..<network.edgeCount {
            let from = Int(network.edgeFrom[edge]), to = Int(network.edgeTo[edge])
            outgoing[Int(fill[from])] = UInt32(2 * edge); fill[from] += 1
            outgoing[Int(fill[to])] = UInt32(2 * edge + 1); fill[to] += 1
        }
        return (firstOut, outgoing)
    }
}
