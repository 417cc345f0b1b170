import Foundation

/// The edge-based graph routing runs on: a node per drivable directed road edge, an arc per allowed turn.
/// Turn restrictions and the no-U-turn rule live in which arcs exist; via-way restrictions add copies of the
/// nodes along their via path (several routing nodes may then share a directed edge).
public struct TurnGraph {
    /// Directed edge (2 * edge + direction) of each routing node.
    public var directedEdge = ContiguousArray<UInt32>()
    /// Arcs of routing node v are head[firstOut[v] ..< firstOut[v + 1]].
    public var firstOut = ContiguousArray<UInt32>()
    public var head = ContiguousArray<UInt32>()
    /// The last viaPathCopyCount nodes (before renumbering) are copies of via-way paths, not plain directed edges.
    public var viaPathCopyCount = 0

    public init() {}
    public var nodeCount: Int { directedEdge.count }
    /// Nodes one per drivable directed edge, the first ones before renumbering.
    public var originalNodeCount: Int { directedEdge.count - viaPathCopyCount }
    public var arcCount: Int { head.count }
}
