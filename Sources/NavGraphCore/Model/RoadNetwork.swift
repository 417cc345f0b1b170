/// The road network the importer builds: junctions as nodes, chains of OSM segments as edges, all flat arrays.
public struct RoadNetwork {
    /// Time value of a direction a car may not drive.
    public static let forbidden = UInt32.max

    public var nodeOSMID = ContiguousArray<Int64>()
    public var edgeFrom = ContiguousArray<UInt32>()
    public var edgeTo = ContiguousArray<UInt32>()
    /// Edge e's shape is shape points edgeShapeFirst[e] ..< edgeShapeFirst[e + 1].
    public var edgeShapeFirst: ContiguousArray<UInt32> = [0]
    public var shapeLatE7 = ContiguousArray<Int32>()
    public var shapeLonE7 = ContiguousArray<Int32>()
    public var shapeOSMNode = ContiguousArray<Int64>()
    public var edgeLength = ContiguousArray<Double>()
    /// Free-flow travel time in milliseconds from edgeFrom to edgeTo, or `forbidden`.
    public var edgeTimeForward = ContiguousArray<UInt32>()
    /// Free-flow travel time in milliseconds from edgeTo to edgeFrom, or `forbidden`.
    public var edgeTimeBackward = ContiguousArray<UInt32>()
    public var edgeClass = ContiguousArray<UInt8>()
    public var edgeFlags = ContiguousArray<UInt16>()
    public var edgeMaxspeed = ContiguousArray<UInt8>()
    public var edgeName = ContiguousArray<UInt32>()
    public var edgeRef = ContiguousArray<UInt32>()
    public var edgeWay = ContiguousArray<Int64>()
    public var strings = StringTable()
    /// Guidance: traffic controls per junction and per shape point (`NodeControl` bits).
    public var nodeControl = ContiguousArray<UInt8>()
    public var shapeControl = ContiguousArray<UInt8>()
    /// `NodeBarrier` per junction (barrier nodes always split their ways); import only, not in the graph file.
    public var nodeBarrier = ContiguousArray<UInt8>()
    /// Active road set: per junction, the profiles it blocks (bit i: the network's i-th profile, its own times first,
    /// then `profileEdges`; `ActiveNodeBarriers`), empty elsewhere; import only, not in the graph file.
    public var nodeProfileBarrier = ContiguousArray<UInt8>()
    /// Guidance: exit number (string id) signposted at a junction (`junction:ref` or a motorway_junction's `ref`).
    public var nodeExitRef = ContiguousArray<UInt32>()
    /// Guidance: record of each edge in `guideFields` (0 = none).
    public var edgeGuide = ContiguousArray<UInt32>()
    /// Guidance records, `GuideRecord.fieldCount` string ids / counts each; record 0 is empty.
    public var guideFields = ContiguousArray<UInt32>(repeating: 0, count: GuideRecord.fieldCount)

    /// Times and flags of the road set's other profiles (the first profile's are edgeTime* and edgeFlags).
    public var profileEdges: [ProfileEdges] = []
    /// Edges with dimension limits, ascending, and their `VehicleLimits.count` values each.
    public var limitEdge = ContiguousArray<UInt32>()
    public var limitValues = ContiguousArray<UInt16>()
    /// Guidance: `name:XX` of the ways that have one differing from `name` (string ids into `strings`).
    public var localizedNames = LocalizedNames()

    public init() {}

    public var nodeCount: Int { nodeOSMID.count }
    public var edgeCount: Int { edgeFrom.count }
}

/// One profile's per-edge data in a road network shared by several profiles.
public struct ProfileEdges: Sendable {
    public var profile: ProfileID
    /// Milliseconds per direction, or `RoadNetwork.forbidden`.
    public var timeForward = ContiguousArray<UInt32>()
    public var timeBackward = ContiguousArray<UInt32>()
    public var flags = ContiguousArray<UInt16>()

    public init(profile: ProfileID) { self.profile = profile }
}

/// A turn restriction resolved onto the road network: from directed edge, at junction `via` (or along a via path
/// that starts there), to directed edge.
public struct TurnRestriction: Sendable, Equatable {
    /// Directed edge ids are 2 * edge + (0 forward, 1 backward).
    public var fromDirectedEdges: [UInt32]
    /// The junction the from edges arrive at.
    public var via: UInt32
    public var toDirectedEdges: [UInt32]
    /// true for only_*, false for no_*.
    public var isMandatory: Bool
    public var relationID: Int64
    /// For a via-way restriction, the directed edges driven along the via ways from `via` to where the to edges
    /// leave; empty for a via-node restriction.
    public var viaDirectedEdges: [UInt32]
    /// The profiles of the road set it applies to; nil for all of them.
    public var profiles: [ProfileID]? = nil

    public init(fromDirectedEdges: [UInt32], via: UInt32, toDirectedEdges: [UInt32], isMandatory: Bool,
                relationID: Int64, viaDirectedEdges: [UInt32] = []) {
        self.fromDirectedEdges = fromDirectedEdges
        self.via = via
        self.toDirectedEdges = toDirectedEdges
        self.isMandatory = isMandatory
        self.relationID = relationID
        self.viaDirectedEdges = viaDirectedEdges
    }
}
