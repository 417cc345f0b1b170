/// The `meta` section: where the graph came from, how it was built and what it holds.
public struct GraphMetadata: Codable, Sendable {
    /// The file the graph was imported from.
    public struct SourceFile: Codable, Sendable {
        public var name: String
        public var bytes: Int
        public var modified: String

        /// The memberwise initializer, for the other modules of the package.
        package init(name: String, bytes: Int, modified: String) {
            self.name = name
            self.bytes = bytes
            self.modified = modified
        }
    }
    public var formatVersion: UInt32
    public var profile: String
    public var source: SourceFile
    public var createdAt: String
    public var nodeCount: Int
    public var edgeCount: Int
    public var shapePointCount: Int
    public var routingNodeCount: Int
    public var turnCount: Int
    public var cchArcCount: Int
    public var bbox: BoundingBox
    public var grid: GridParameters
    public var componentSizes: [Int]
    public var componentCount: Int
    public var report: ImportReport
    public var phaseSeconds: [String: Double]
    /// Resident memory per import phase; absent in files written before it was recorded.
    public var phaseMemory: [String: PhaseMemory]? = nil
    /// CPU seconds (user + system, all threads) per import phase; absent in files written before it was recorded.
    public var phaseCPUSeconds: [String: Double]? = nil
    /// The profiles routed on this road set (version 5); nil means the car alone.
    public var profiles: [String]? = nil

    /// The memberwise initializer, for the other modules of the package.
    package init(formatVersion: UInt32, profile: String, source: SourceFile, createdAt: String, nodeCount: Int, edgeCount: Int, shapePointCount: Int, routingNodeCount: Int, turnCount: Int, cchArcCount: Int, bbox: BoundingBox, grid: GridParameters, componentSizes: [Int], componentCount: Int, report: ImportReport, phaseSeconds: [String: Double], phaseMemory: [String: PhaseMemory]? = nil, phaseCPUSeconds: [String: Double]? = nil, profiles: [String]? = nil) {
        self.formatVersion = formatVersion
        self.profile = profile
        self.source = source
        self.createdAt = createdAt
        self.nodeCount = nodeCount
        self.edgeCount = edgeCount
        self.shapePointCount = shapePointCount
        self.routingNodeCount = routingNodeCount
        self.turnCount = turnCount
        self.cchArcCount = cchArcCount
        self.bbox = bbox
        self.grid = grid
        self.componentSizes = componentSizes
        self.componentCount = componentCount
        self.report = report
        self.phaseSeconds = phaseSeconds
        self.phaseMemory = phaseMemory
        self.phaseCPUSeconds = phaseCPUSeconds
        self.profiles = profiles
    }
}

/// Names of the sections of a navgraph file.
public enum Section {
    public static let meta = "meta"
    public static let nodeOSM = "node.osm"
    public static let edgeFrom = "edge.from", edgeTo = "edge.to", edgeShapeFirst = "edge.shapeFirst"
    public static let shapeLat = "shape.lat", shapeLon = "shape.lon", shapeOSM = "shape.osm"
    public static let edgeLength = "edge.length", edgeTimeForward = "edge.timeForward", edgeTimeBackward = "edge.timeBackward"
    public static let edgeClass = "edge.class", edgeFlags = "edge.flags", edgeMaxspeed = "edge.maxspeed"
    public static let edgeName = "edge.name", edgeRef = "edge.ref", edgeWay = "edge.way"
    public static let stringOffsets = "string.offsets", stringBytes = "string.bytes"
    public static let routingEdge = "routing.edge", routingNodeOfEdge = "routing.nodeOfEdge", routingComponent = "routing.component"
    public static let turnFirstOut = "turn.firstOut", turnHead = "turn.head"
    /// Free-flow cost in milliseconds of each turn arc (angle, junction controls; see TurnCosts), since version 4.
    public static let turnCost = "turn.cost"
    public static let restrictionRelation = "restriction.relation", restrictionVia = "restriction.via"
    public static let restrictionMandatory = "restriction.only", restrictionFromFirst = "restriction.fromFirst"
    public static let restrictionFrom = "restriction.from", restrictionToFirst = "restriction.toFirst", restrictionTo = "restriction.to"
    public static let restrictionViaPathFirst = "restriction.viaPathFirst", restrictionViaPath = "restriction.viaPath"
    public static let cchFirstUp = "cch.firstUp", cchUpHead = "cch.upHead", cchParent = "cch.parent", cchInputArc = "cch.inputArc"
    /// The hierarchy's downward arcs (DownwardArcs), since version 7, when metrics stopped storing middle nodes.
    public static let cchFirstDown = "cch.firstDown", cchDownArcs = "cch.downArcs"
    public static let metricForward = "metric.forward", metricBackward = "metric.backward"
    /// Two bytes per CCH arc, up then down: where unpacking finds the middle (`CCHMetric.middleHint`), since version 8.
    public static let metricHint = "metric.hint"
    public static let gridFirst = "grid.first", gridSegment = "grid.segment"
    public static let nodeControl = "node.control", nodeExitRef = "node.exitRef", shapeControl = "shape.control"
    public static let edgeGuide = "edge.guide", guideFields = "guide.fields"
    public static let junctionFirstOut = "junction.firstOut", junctionOut = "junction.out"
    /// Truck limits: the limited edges (ascending) and `VehicleLimits.count` values each, since version 5.
    public static let limitEdge = "limit.edge", limitValues = "limit.values"
    /// Localized street names, since version 6: the languages (comma-separated tags, column order), the OSM ways
    /// that have one (ascending), and a string id per way and language (0: none; `LocalizedNames`).
    public static let nameLanguages = "name.languages", nameWay = "name.way", nameLocal = "name.local"
}
