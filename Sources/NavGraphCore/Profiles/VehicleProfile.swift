/// A set of profiles that share one road network, turn graph and hierarchy in the graph file.
public enum RoadSet: String, Sendable, CaseIterable {
    /// car, truck and motorcycle: the union of the roads they may use.
    case motor
    /// bicycle, foot and escooter: the union of the ways they may use (footways, cycleways, paths, steps, and streets).
    case active

    /// The profiles of the set, the first one owning the plain `edge.time*` and `turn.cost` sections.
    public var profiles: [ProfileID] {
        switch self {
        case .motor: [.car, .truck, .motorcycle]
        case .active: [.bicycle, .foot, .escooter]
        }
    }

    /// The set's profiles that `selection` names (nil: all), always with the first, which owns the set's shared sections.
    public func profiles(selecting selection: Set<ProfileID>?) -> [ProfileID] {
        profiles.enumerated().filter { $0.offset == 0 || selection?.contains($0.element) ?? true }.map(\.element)
    }

    /// The file section name of `base` in this road set (names stay within the 24 bytes a section name has).
    public func sectionName(_ base: String) -> String {
        switch self {
        case .motor: base
        case .active: "a." + (base.hasPrefix("restriction.") ? "rst." + base.dropFirst("restriction.".count) : base)
        }
    }
}

/// The six vehicle profiles navgraph routes for.
public enum ProfileID: String, Sendable, CaseIterable, Hashable {
    case car, truck, motorcycle, bicycle, foot, escooter

    /// The profile's rules.
    public var profile: any VehicleProfile {
        switch self {
        case .car: CarVehicleProfile()
        case .truck: TruckProfile()
        case .motorcycle: MotorcycleProfile()
        case .bicycle: BicycleProfile()
        case .foot: FootProfile()
        case .escooter: EScooterProfile()
        }
    }

    public var roadSet: RoadSet { self == .bicycle || self == .foot || self == .escooter ? .active : .motor }
    public var mode: TravelMode { profile.rules.mode }

    /// Parses a profile name or an OSRM-style alias (`driving`, `cycling`, `walking`).
    public init?(name: String) {
        switch name.lowercased() {
        case "car", "driving": self = .car
        case "truck", "hgv": self = .truck
        case "motorcycle": self = .motorcycle
        case "bicycle", "cycling", "bike": self = .bicycle
        case "foot", "walking": self = .foot
        case "escooter", "e-scooter": self = .escooter
        default: return nil
        }
    }

    /// File section name of a per-profile array (`timeForward`, `flags`, …) in its road set; nil suffix names the
    /// road set's plain section for the set's first profile.
    package func sectionName(_ field: ProfileField) -> String { roadSet.sectionName(baseSectionName(field)) }

    /// The section (before the road set's prefix) of the profile's own strongly connected components, which the
    /// active road set stores (`ProfileComponents`); a file without it snaps with the road set's components.
    package var componentSectionBase: String { "p.\(rawValue).co" }

    /// The same name before the road set's prefix.
    package func baseSectionName(_ field: ProfileField) -> String {
        roadSet.profiles.first == self ? field.baseSection : "p.\(rawValue).\(field.rawValue)"
    }
}

/// A per-profile array of the graph file.
package enum ProfileField: String, CaseIterable {
    case timeForward = "tf", timeBackward = "tb", flags = "fl", turnCost = "tc"
    case metricForward = "mf", metricBackward = "mb", metricHint = "mh"

    /// The section the road set's first profile uses.
    var baseSection: String {
        switch self {
        case .timeForward: Section.edgeTimeForward
        case .timeBackward: Section.edgeTimeBackward
        case .flags: Section.edgeFlags
        case .turnCost: Section.turnCost
        case .metricForward: Section.metricForward
        case .metricBackward: Section.metricBackward
        case .metricHint: Section.metricHint
        }
    }
}

/// One profile's rules as a readable table, in the spirit of OSRM's Lua profiles (car.lua, bicycle.lua, foot.lua).
public struct ProfileRules: Sendable {
    public var name: String
    public var mode: TravelMode
    /// Access tags from most to least specific; the first one present decides.
    public var accessKeys: [String]
    /// Access values that shut the way for this profile.
    public var blockedAccess: Set<String>
    /// Access values that admit the way even when its highway class is not in `highwaySpeeds`.
    public var allowedAccess: Set<String>
    /// Access values that make a way private: motor profiles route it as destination-only (and start on a private
    /// service road only when nothing else is near); bicycle and foot leave it out.
    public var privateAccess: Set<String>
    /// Access values that mark destination-only traffic.
    public var destinationAccess: Set<String>
    /// Speed in km/h by `highway=*` value; unlisted classes are not used (unless access admits them).
    public var highwaySpeeds: [String: Double]
    /// Highest speed in km/h by highway class (the truck's caps).
    public var speedCaps: [String: Double] = [:]
    /// Highest speed in km/h by `surface=*` value.
    public var surfaceSpeeds: [String: Double] = [:]
    /// Tags giving the way's direction, most specific first; empty means the profile uses every way both ways.
    public var onewayKeys: [String]
    /// Ferry speed in km/h when the ferry has no `duration`.
    public var ferrySpeedKmh: Double = 5
    /// Node `barrier=*` values that block the profile (OSRM's barrier_blacklist); the active profiles apply them
    /// (`ActiveNodeBarriers`), the motor ones follow car.lua's barrier rules (`CarProfile.barrier`).
    public var barriers: Set<String>
    /// Road classes a request may avoid.
    public var avoidable: AvoidSet
    /// `restriction:*` keys read before the plain `restriction` tag.
    public var restrictionKeys: [String]
    /// `except=*` values that exempt this profile from a restriction.
    public var exceptValues: Set<String>
    /// Whether turn restrictions apply at all (OSRM's foot profile ignores them).
    public var usesTurnRestrictions = true

    /// The access tag value that decides for this profile, if any.
    public func access(_ tags: OSMTags) -> String? {
        accessKeys.lazy.compactMap { tags[$0] }.first
    }

    /// Whether an access value closes the way (blocked or private).
    public func isClosed(_ access: String) -> Bool { blockedAccess.contains(access) || privateAccess.contains(access) }

    /// One value of a `;` list, as OSRM's resolve_access picks it: allowed before restricted before blocked before
    /// others, the first of equals.
    public func resolvedAccess(_ raw: String) -> String {
        guard raw.contains(";") else { return raw }
        func rank(_ value: String) -> Int {
            allowedAccess.contains(value) ? 3 : destinationAccess.contains(value) ? 2 : isClosed(value) ? 1 : 0
        }
        let parts = raw.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        return parts.enumerated().max { (rank($0.element), -$0.offset) < (rank($1.element), -$1.offset) }?.element ?? raw
    }

    /// The access value per direction: for each access key in turn its `:forward`/`:backward` form, then the plain key,
    /// until both directions have one (OSRM's Tags.get_forward_backward_by_set), each resolved.
    public func directionalAccess(_ tags: OSMTags) -> (forward: String?, backward: String?) {
        let (forward, backward) = tags.perDirection(accessKeys.map { ($0, $0 + ":forward", $0 + ":backward") })
        return (forward.map(resolvedAccess), backward.map(resolvedAccess))
    }
}

/// What a vehicle profile decides, for each OSM way and direction: whether the vehicle may use it and how fast,
/// which turn restrictions apply, which classes it may avoid (the `rules` table), and the way's dimension limits.
public protocol VehicleProfile: Sendable {
    var id: ProfileID { get }
    var rules: ProfileRules { get }
    /// Returns nil when the vehicle may not use the way at all.
    func attributes(tags: OSMTags) -> WayAttributes?
    /// Physical and legal limits of the way (height, weight, …); nil when it has none or the profile ignores them.
    func limits(tags: OSMTags) -> VehicleLimits?
}

extension VehicleProfile {
    public func limits(tags: OSMTags) -> VehicleLimits? { nil }

    /// Whether a restriction relation applies to this profile: the value of its first `restriction:*` key (or of
    /// `restriction`), nil when `except` exempts the profile or no value is given.
    public func restrictionValue(_ tags: OSMTags) -> String? {
        guard rules.usesTurnRestrictions else { return nil }
        if let except = tags["except"], except.split(separator: ";").contains(where: { rules.exceptValues.contains($0.trimmingCharacters(in: .whitespaces)) }) {
            return nil
        }
        return rules.restrictionKeys.lazy.compactMap { tags[$0] }.first ?? tags["restriction"]
    }
}
