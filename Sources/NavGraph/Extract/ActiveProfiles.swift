/// A profile of the cycling/walking road set, judged from its rule table alone (after OSRM's bicycle.lua/foot.lua).
protocol TableDrivenProfile: VehicleProfile {}

extension TableDrivenProfile {
    public func attributes(tags: OSMTags) -> WayAttributes? {
        let rules = self.rules
        let access = rules.access(tags)
        if let access, rules.blockedAccess.contains(access) || rules.privateAccess.contains(access) { return nil }
        let explicitlyAllowed = access.map { rules.allowedAccess.contains($0) } ?? false
        let roadClass: RoadClass
        var speed: Double
        if tags["route"] == "ferry" {
            roadClass = .ferry
            speed = rules.ferrySpeedKmh
        } else if let highway = tags["highway"], let parsed = RoadClass(anyHighwayTag: highway) {
            roadClass = parsed
            guard let listed = rules.highwaySpeeds[highway] ?? (explicitlyAllowed ? rules.highwaySpeeds["default"] : nil) else { return nil }
            speed = listed
        } else {
            return nil
        }
        if tags["impassable"] == "yes" || tags["smoothness"] == "impassable" || tags["status"] == "impassable" { return nil }
        if tags["area"] == "yes" && roadClass != .pedestrian { return nil }
        if let surface = tags["surface"], let limit = rules.surfaceSpeeds[surface] { speed = min(speed, limit) }

        var flags: EdgeFlags = []
        if roadClass == .ferry { flags.insert(.ferry) }
        if let junction = tags["junction"], junction == "roundabout" || junction == "circular" { flags.insert(.roundabout) }
        if tags["junction"] == "circular" { flags.insert(.circular) }
        if let bridge = tags["bridge"], bridge != "no" { flags.insert(.bridge) }
        if let tunnel = tags["tunnel"], tunnel != "no" { flags.insert(.tunnel) }

        var forward = true, backward = true
        if !rules.onewayKeys.isEmpty {
            switch rules.onewayKeys.lazy.compactMap({ tags[$0] }).first {
            case "yes", "true", "1": backward = false
            case "-1", "reverse": forward = false
            case "no", "false", "0": break
            default:
                if rules.onewayKeys.contains("oneway"), flags.contains(.roundabout) || roadClass == .motorway { backward = false }
            }
            // Contraflow cycle lanes open the other direction (OSRM's opposite_cycleway_tags).
            if id == .bicycle, let cycleway = tags["cycleway"] ?? tags["cycleway:left"] ?? tags["cycleway:right"], cycleway.hasPrefix("opposite") {
                forward = true; backward = true
            }
        }
        if !forward || !backward { flags.insert(.oneway) }
        let ferryDuration = roadClass == .ferry ? FerryDuration.parse(tags["duration"]) : nil
        return WayAttributes(roadClass: roadClass, forward: forward, backward: backward, speedKmhForward: speed, speedKmhBackward: speed,
                             maxspeedKmh: 0, flags: flags, ferryDurationSeconds: ferryDuration,
                             name: tags["name"] ?? "", ref: tags["ref"] ?? "")
    }
}

/// The bicycle (after OSRM bicycle.lua: 15 km/h on roads, slower on tracks, paths and rough surfaces; footways and
/// steps only where `bicycle=yes|designated`, without OSRM's bike pushing).
public struct BicycleProfile: TableDrivenProfile {
    public init() {}
    public var id: ProfileID { .bicycle }

    public static let rules = ProfileRules(
        name: "bicycle", mode: .cycling,
        accessKeys: ["bicycle", "vehicle", "access"],
        blockedAccess: ["no", "agricultural", "forestry", "delivery", "use_sidepath", "dismount"],
        allowedAccess: ["yes", "permissive", "designated"],
        privateAccess: ["private"], destinationAccess: [],
        highwaySpeeds: [
            "cycleway": 15, "primary": 15, "primary_link": 15, "secondary": 15, "secondary_link": 15, "tertiary": 15,
            "tertiary_link": 15, "residential": 15, "unclassified": 15, "living_street": 15, "service": 15,
            "track": 12, "path": 13, "default": 15,
            // Ways bicycles take only when tagged for them ("default" above): trunk, footway, pedestrian, steps.
        ],
        surfaceSpeeds: [
            "asphalt": 15, "chipseal": 15, "concrete": 15, "concrete_lanes": 15, "wood": 10, "metal": 10,
            "cobblestone:flattened": 10, "paving_stones": 10, "compacted": 10, "cobblestone": 7, "unpaved": 6,
            "fine_gravel": 10, "gravel": 6, "pebblestone": 6, "grass_paver": 6, "ground": 10, "dirt": 8, "earth": 6,
            "laterite": 5, "grass": 6, "mud": 3, "sand": 3, "woodchips": 3, "sett": 9,
        ],
        onewayKeys: ["oneway:bicycle", "oneway"],
        barriers: ["yes", "wall", "fence"],
        avoidable: [.ferry],
        restrictionKeys: ["restriction:bicycle"],
        exceptValues: ["bicycle"])

    public var rules: ProfileRules { Self.rules }
}

/// The pedestrian (after OSRM foot.lua: 5 km/h on every walkable way, steps slower; walks both ways along oneways).
public struct FootProfile: TableDrivenProfile {
    public init() {}
    public var id: ProfileID { .foot }

    public static let walkingSpeedKmh = 5.0

    public static let rules = ProfileRules(
        name: "foot", mode: .walking,
        accessKeys: ["foot", "access"],
        blockedAccess: ["no", "agricultural", "forestry", "delivery", "use_sidepath"],
        allowedAccess: ["yes", "foot", "permissive", "designated"],
        privateAccess: ["private"], destinationAccess: [],
        highwaySpeeds: [
            "primary": 5, "primary_link": 5, "secondary": 5, "secondary_link": 5, "tertiary": 5, "tertiary_link": 5,
            "unclassified": 5, "residential": 5, "living_street": 5, "service": 5, "track": 5, "path": 5,
            "steps": 3, "pedestrian": 5, "footway": 5, "platform": 5, "default": 5,
        ],
        surfaceSpeeds: ["fine_gravel": 3.75, "gravel": 3.75, "pebblestone": 3.75, "mud": 2.5, "sand": 2.5],
        onewayKeys: ["oneway:foot"],
        barriers: ["yes", "wall", "fence"],
        avoidable: [.ferry],
        restrictionKeys: ["restriction:foot"],
        exceptValues: ["foot"],
        usesTurnRestrictions: false)

    public var rules: ProfileRules { Self.rules }
}
