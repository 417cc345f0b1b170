/// The language-neutral guidance model: what the step builder produces and the text layer and output consume.
/// Plain values, `Sendable`; nothing here knows about languages, units or JSON.

/// A maneuver type in the OSRM v5 / Mapbox Directions vocabulary (raw value = the wire string).
public enum ManeuverType: String, Sendable, CaseIterable, Codable {
    case depart, arrive, turn
    case newName = "new name"
    case `continue`, merge
    case onRamp = "on ramp"
    case offRamp = "off ramp"
    case fork
    case endOfRoad = "end of road"
    case roundabout, rotary
    case exitRoundabout = "exit roundabout"
    case exitRotary = "exit rotary"
    case roundaboutTurn = "roundabout turn"
    case notification
}

/// The direction of a maneuver (raw value = the wire string).
public enum ManeuverModifier: String, Sendable, CaseIterable, Codable {
    case uturn
    case sharpRight = "sharp right"
    case right
    case slightRight = "slight right"
    case straight
    case slightLeft = "slight left"
    case left
    case sharpLeft = "sharp left"

    /// The modifier for a turn angle in degrees, 0 = straight on, positive = to the right, in -180...180.
    public init(turnAngle: Double) {
        switch turnAngle {
        case -20...20: self = .straight
        case 20..<60: self = .slightRight
        case 60..<140: self = .right
        case 140..<170: self = .sharpRight
        case -60 ..< -20: self = .slightLeft
        case -140 ..< -60: self = .left
        case -170 ..< -140: self = .sharpLeft
        default: self = .uturn
        }
    }
}

/// Why a `notification` step is announced.
public enum GuidanceNotice: String, Sendable, Codable {
    case tollRoad = "toll"
    case ferry
    case leavingFerry = "ferry_end"
    /// The cyclist gets off and pushes the bicycle from here.
    case pushBike = "push_bike"
    /// The cyclist rides again after pushing.
    case rideBike = "push_bike_end"
}

/// Travel mode of a step (wire string of the Directions API).
public enum TravelMode: String, Sendable, Codable {
    case driving, ferry, cycling, walking
    /// A cyclist pushing the bicycle (footway, steps, against a oneway, `bicycle=dismount`), OSRM's "pushing bike".
    case pushingBike = "pushing bike"
}

/// One lane at an intersection, as `turn:lanes` tags it, left to right.
public struct Lane: Sendable, Equatable {
    /// OSRM indication strings: "left", "slight left", "straight", "right", "uturn", "merge to left", "none", ...
    public var indications: [String]
    /// Whether the lane can be used for the maneuver.
    public var valid: Bool
    /// Whether this lane is the one the maneuver is best taken from.
    public var active: Bool
    /// The indication that applies to the maneuver (Mapbox `valid_indication`), when valid.
    public var validIndication: String?

    public init(indications: [String], valid: Bool, active: Bool, validIndication: String? = nil) {
        self.indications = indications; self.valid = valid; self.active = active; self.validIndication = validIndication
    }
}

/// A junction the step passes (its first is the maneuver point itself), in the Directions API's terms: a view of
/// one record of its leg's `IntersectionTable`.
public struct Intersection: Sendable, Equatable {
    package let table: IntersectionTable
    package let record: Int

    package init(table: IntersectionTable, record: Int) {
        self.table = table; self.record = record
    }

    /// One intersection in a table of its own (for steps made by hand).
    public init(location: Coordinate, bearings: [Int], entry: [Bool], inIndex: Int?, outIndex: Int?, geometryIndex: Int,
                lanes: [Lane]? = nil, isTollCollection: Bool = false, hasTrafficSignal: Bool = false,
                hasStopSign: Bool = false, hasYieldSign: Bool = false) {
        var control = NodeControl()
        if isTollCollection { control.insert(.tollBooth) }
        if hasTrafficSignal { control.insert(.trafficSignals) }
        if hasStopSign { control.insert(.stop) }
        if hasYieldSign { control.insert(.giveWay) }
        let builder = IntersectionTable.Builder()
        builder.append(location: location, geometryIndex: geometryIndex, inIndex: inIndex, outIndex: outIndex, lanes: lanes,
                       control: control.rawValue)
        for (bearing, allowed) in zip(bearings, entry) { builder.appendRoad(bearing: bearing, entry: allowed) }
        self.init(table: builder.finish(), record: 0)
    }

    private var fields: IntersectionTable.Record { table.records[record] }
    private var roads: Range<Int> { Int(fields.firstRoad)..<Int(fields.firstRoad + fields.roadCount) }

    public var location: Coordinate { fields.location }
    /// Bearings of all roads at the junction, clockwise from north, ascending.
    public var bearings: IntersectionBearings { IntersectionBearings(table: table, roads: roads, packed: fields.packedRoads) }
    /// Whether each road in `bearings` may be entered.
    public var entry: IntersectionEntries { IntersectionEntries(table: table, roads: roads, packed: fields.packedRoads) }
    /// Index into `bearings` of the road the route arrives on (nil at depart).
    public var inIndex: Int? { fields.inIndex >= 0 ? Int(fields.inIndex) : nil }
    /// Index into `bearings` of the road the route leaves on (nil at arrive).
    public var outIndex: Int? { fields.outIndex >= 0 ? Int(fields.outIndex) : nil }
    /// Index of `location` in the leg's coordinates (the output makes it relative to the step geometry).
    public var geometryIndex: Int { Int(fields.geometryIndex) }
    /// Lanes, left to right, where `turn:lanes` is tagged on the approach.
    public var lanes: [Lane]? { fields.lanes >= 0 ? table.lanes[Int(fields.lanes)] : nil }
    /// The junction's `NodeControl` bits.
    package var control: UInt8 { fields.control }
    public var isTollCollection: Bool { NodeControl(rawValue: control).contains(.tollBooth) }
    public var hasTrafficSignal: Bool { NodeControl(rawValue: control).contains(.trafficSignals) }
    public var hasStopSign: Bool { NodeControl(rawValue: control).contains(.stop) }
    public var hasYieldSign: Bool { NodeControl(rawValue: control).contains(.giveWay) }

    public static func == (a: Intersection, b: Intersection) -> Bool {
        a.location == b.location && a.bearings == b.bearings && a.entry == b.entry && a.inIndex == b.inIndex
            && a.outIndex == b.outIndex && a.geometryIndex == b.geometryIndex && a.lanes == b.lanes && a.control == b.control
    }
}

/// What happens at the start of a step.
public struct Maneuver: Sendable, Equatable {
    public var type: ManeuverType
    /// nil for `depart`/`arrive` without a side, and for notifications that are not turns.
    public var modifier: ManeuverModifier?
    public var location: Coordinate
    /// Degrees clockwise from north, 0...359; 0 at depart.
    public var bearingBefore: Int
    /// Degrees clockwise from north, 0...359; 0 at arrive.
    public var bearingAfter: Int
    /// Roundabout/rotary exit number (1-based), on the `roundabout`/`rotary`/`exit ...` steps.
    public var exit: Int?
    /// Set on `notification` steps.
    public var notice: GuidanceNotice?
    /// For arrive: the destination lies on the left, right or straight ahead (driving side aware).
    public var side: ManeuverModifier?
    /// For arrive at an intermediate waypoint: its number among the route's stops (1 = the first after the start).
    public var waypoint: Int?

    public init(type: ManeuverType, modifier: ManeuverModifier?, location: Coordinate, bearingBefore: Int, bearingAfter: Int,
                exit: Int? = nil, notice: GuidanceNotice? = nil, side: ManeuverModifier? = nil, waypoint: Int? = nil) {
        self.type = type; self.modifier = modifier; self.location = location; self.bearingBefore = bearingBefore
        self.bearingAfter = bearingAfter; self.exit = exit; self.notice = notice; self.side = side; self.waypoint = waypoint
    }
}

/// One step of a leg: a maneuver and the road driven until the next one.
public struct GuidanceStep: Sendable, Equatable {
    public var maneuver: Maneuver
    /// Street name after the maneuver ("" when unnamed): the way's `name:XX` in the leg's `nameLanguage` where tagged, else `name`.
    public var name: String
    /// Road reference(s) after the maneuver, ";"-separated as OSM tags them ("" when none).
    public var ref: String
    /// Signposted destinations of the road taken (`destination`, `destination:ref`), "" when none.
    public var destinations: String
    /// Exit number(s) from `junction:ref` at the maneuver, "" when none.
    public var exits: String
    /// Name of the roundabout or rotary, on roundabout steps ("" when unnamed).
    public var rotaryName: String
    public var mode: TravelMode
    /// "right" or "left".
    public var drivingSide: String
    /// Metres.
    public var distance: Double
    /// Seconds, with traffic.
    public var duration: Double
    /// Seconds of search cost.
    public var weight: Double
    /// Range of the leg's coordinates that this step covers (inclusive both ends; the last step's is one point).
    public var geometryRange: ClosedRange<Int>
    public var intersections: StepIntersections
    /// Road class after the maneuver, for banner shields and voice choices.
    public var roadClass: RoadClass
    /// Speed limit after the maneuver in km/h, nil when unknown.
    public var speedLimitKmh: Int?

    public init(maneuver: Maneuver, name: String, ref: String, destinations: String, exits: String, rotaryName: String,
                mode: TravelMode, drivingSide: String, distance: Double, duration: Double, weight: Double,
                geometryRange: ClosedRange<Int>, intersections: StepIntersections, roadClass: RoadClass, speedLimitKmh: Int?) {
        self.maneuver = maneuver; self.name = name; self.ref = ref; self.destinations = destinations; self.exits = exits
        self.rotaryName = rotaryName; self.mode = mode; self.drivingSide = drivingSide; self.distance = distance
        self.duration = duration; self.weight = weight; self.geometryRange = geometryRange; self.intersections = intersections
        self.roadClass = roadClass; self.speedLimitKmh = speedLimitKmh
    }

    /// A step whose intersections are given one by one (copied into a table of their own), for steps made by hand.
    public init(maneuver: Maneuver, name: String, ref: String, destinations: String, exits: String, rotaryName: String,
                mode: TravelMode, drivingSide: String, distance: Double, duration: Double, weight: Double,
                geometryRange: ClosedRange<Int>, intersections: [Intersection], roadClass: RoadClass, speedLimitKmh: Int?) {
        self.init(maneuver: maneuver, name: name, ref: ref, destinations: destinations, exits: exits, rotaryName: rotaryName,
                  mode: mode, drivingSide: drivingSide, distance: distance, duration: duration, weight: weight,
                  geometryRange: geometryRange, intersections: StepIntersections(intersections), roadClass: roadClass,
                  speedLimitKmh: speedLimitKmh)
    }
}
