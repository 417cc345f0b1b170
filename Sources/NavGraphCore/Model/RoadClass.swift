/// The OSM highway class of a road edge, as kept in the graph file.
public enum RoadClass: UInt8, CaseIterable, Sendable, Codable {
    case motorway = 0, motorwayLink, trunk, trunkLink, primary, primaryLink, secondary, secondaryLink
    case tertiary, tertiaryLink, unclassified, residential, livingStreet, service, track, ferry
    /// Ways for bicycles and pedestrians (the cycling/walking road set only).
    case cycleway, footway, path, pedestrian, steps

    /// The OSM tag value (`route=ferry` for ferries).
    public var osmName: String {
        switch self {
        case .motorway: "motorway"
        case .motorwayLink: "motorway_link"
        case .trunk: "trunk"
        case .trunkLink: "trunk_link"
        case .primary: "primary"
        case .primaryLink: "primary_link"
        case .secondary: "secondary"
        case .secondaryLink: "secondary_link"
        case .tertiary: "tertiary"
        case .tertiaryLink: "tertiary_link"
        case .unclassified: "unclassified"
        case .residential: "residential"
        case .livingStreet: "living_street"
        case .service: "service"
        case .track: "track"
        case .ferry: "ferry"
        case .cycleway: "cycleway"
        case .footway: "footway"
        case .path: "path"
        case .pedestrian: "pedestrian"
        case .steps: "steps"
        }
    }

    /// Classes motor vehicles use (the car's classes); the others exist only in the cycling/walking road set.
    public var isMotorClass: Bool { rawValue <= RoadClass.ferry.rawValue }

    /// Looks up a `highway=*` value; nil for classes a car does not use.
    public init?(highwayTag: String) {
        guard let match = RoadClass.allCases.first(where: { $0 != .ferry && $0.isMotorClass && $0.osmName == highwayTag }) else { return nil }
        self = match
    }

    /// Looks up any `highway=*` value navgraph knows, the bicycle and foot classes included.
    public init?(anyHighwayTag: String) {
        guard let match = RoadClass.allCases.first(where: { $0 != .ferry && $0.osmName == anyHighwayTag }) else { return nil }
        self = match
    }

    /// Free-flow car speed in km/h when no maxspeed applies (in the spirit of OSRM's car profile).
    public var defaultSpeedKmh: Double {
        switch self {
        case .motorway: 90
        case .motorwayLink: 45
        case .trunk: 85
        case .trunkLink: 40
        case .primary: 65
        case .primaryLink: 30
        case .secondary: 55
        case .secondaryLink: 25
        case .tertiary: 40
        case .tertiaryLink: 20
        case .unclassified: 25
        case .residential: 25
        case .livingStreet: 10
        case .service: 15
        case .track: 10
        case .ferry: 5
        case .cycleway, .path: 15
        case .footway, .pedestrian, .steps: 5
        }
    }

    /// Motorway and motorway_link: what `--avoid highway` removes (OSRM's `motorway` class).
    public var isMotorway: Bool { self == .motorway || self == .motorwayLink }

    /// Trunk and trunk_link, which `--avoid-trunk` adds to the highway class.
    public var isTrunk: Bool { self == .trunk || self == .trunkLink }
}

/// Bit flags kept per road edge.
public struct EdgeFlags: OptionSet, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let toll = EdgeFlags(rawValue: 1 << 0)
    public static let ferry = EdgeFlags(rawValue: 1 << 1)
    public static let roundabout = EdgeFlags(rawValue: 1 << 2)
    public static let bridge = EdgeFlags(rawValue: 1 << 3)
    public static let tunnel = EdgeFlags(rawValue: 1 << 4)
    public static let oneway = EdgeFlags(rawValue: 1 << 5)
    public static let destinationOnly = EdgeFlags(rawValue: 1 << 6)
    /// Tagged private: routable as `destinationOnly` (set with it), no preferred start on a service road.
    public static let privateAccess = EdgeFlags(rawValue: 1 << 7)
    /// `junction=circular`: a traffic circle guidance announces as a rotary (it also carries `roundabout`).
    public static let circular = EdgeFlags(rawValue: 1 << 8)
    /// The cyclist pushes the bicycle along the edge's direction (walking speed: footway, steps, against a oneway,
    /// `bicycle=dismount`); bicycle and e-scooter flags only.
    public static let pushedForward = EdgeFlags(rawValue: 1 << 9)
    /// The cyclist pushes the bicycle against the edge's direction.
    public static let pushedBackward = EdgeFlags(rawValue: 1 << 10)

    /// Whether the bicycle is pushed along directed edge `d` (even: along the edge, odd: against it).
    public func isPushed(directedEdge d: Int) -> Bool { contains(d & 1 == 0 ? .pushedForward : .pushedBackward) }
}
