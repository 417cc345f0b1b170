/// The bicycle, after OSRM v26 bicycle.lua: 15 km/h on roads and cycleways, slower on tracks, paths and rough
/// surfaces, never above a posted `maxspeed`; where the bicycle may not ride (footways, pedestrian streets, steps,
/// platforms, against a oneway, `bicycle=dismount`) it is pushed at walking speed unless `foot=no`, and the edge is
/// flagged as pushed (`EdgeFlags.pushedForward`/`pushedBackward`) for guidance. Cycle lanes and tracks (`cycleway`,
/// `cycleway:both|left|right`, the `opposite*` values) open a direction of a oneway; `cycleway*=separate` leaves the
/// carriageway to the mapped cycleway. Routes by duration, as bicycle.lua v26 does (`weight_name = 'duration'`).
public struct BicycleProfile: VehicleProfile {
    public init() {}
    public var id: ProfileID { .bicycle }

    /// Riding speed in km/h on roads and cycleways.
    public static let ridingSpeedKmh = 15.0
    /// Speed in km/h of a pushed bicycle (bicycle.lua's `walking_speed`).
    public static let pushingSpeedKmh = 4.0

    public static let rules = ProfileRules(
        name: "bicycle", mode: .cycling,
        accessKeys: ["bicycle", "vehicle", "access"],
        blockedAccess: ["no", "agricultural", "forestry", "delivery", "use_sidepath"],
        allowedAccess: ["yes", "permissive", "designated"],
        privateAccess: ["private"], destinationAccess: [],
        highwaySpeeds: [
            "cycleway": ridingSpeedKmh, "primary": ridingSpeedKmh, "primary_link": ridingSpeedKmh, "secondary": ridingSpeedKmh,
            "secondary_link": ridingSpeedKmh, "tertiary": ridingSpeedKmh, "tertiary_link": ridingSpeedKmh, "residential": ridingSpeedKmh,
            "unclassified": ridingSpeedKmh, "living_street": ridingSpeedKmh, "service": ridingSpeedKmh, "track": 12, "path": 13,
            // Other classes (trunk, ...) only where access allows bicycles.
            "default": ridingSpeedKmh,
        ],
        surfaceSpeeds: [
            "asphalt": 15, "chipseal": 15, "concrete": 15, "concrete_lanes": 15, "wood": 10, "metal": 10,
            "cobblestone:flattened": 10, "paving_stones": 10, "compacted": 10, "cobblestone": 7, "unpaved": 6,
            "fine_gravel": 10, "gravel": 6, "pebblestone": 6, "grass_paver": 6, "ground": 10, "dirt": 8, "earth": 6,
            "laterite": 5, "grass": 6, "mud": 3, "sand": 3, "woodchips": 3, "sett": 9,
        ],
        onewayKeys: ["oneway:bicycle", "oneway"],
        ferrySpeedKmh: 5,
        barriers: ["yes", "wall", "fence"],
        avoidable: [.ferry],
        restrictionKeys: ["restriction:bicycle"],
        exceptValues: ["bicycle"])

    public var rules: ProfileRules { Self.rules }

    /// Pushing speeds in km/h by `highway=*` value, taken wherever the bicycle may not ride.
    static let pushingHighways: [String: Double] = ["footway": pushingSpeedKmh, "pedestrian": pushingSpeedKmh, "steps": 2]
    /// Speeds in km/h of ways without a cycling `highway` class: platforms, piers, parkings, movable bridges.
    static let platformSpeedKmh = pushingSpeedKmh, parkingSpeedKmh = 10.0, movableBridgeSpeedKmh = 5.0
    /// `railway=*` values a bicycle may ride along as a train where access allows it, and that train's speed.
    static let trainRailways: Set<String> = ["train", "railway", "subway", "light_rail", "monorail", "tram"]
    static let trainSpeedKmh = 10.0
    /// Cycle lane values that give their direction a cycling lane, and those that open the opposite direction.
    static let laneValues: Set<String> = ["track", "lane", "share_busway", "sharrow", "shared", "shared_lane"]
    static let oppositeValues: Set<String> = ["opposite", "opposite_lane", "opposite_track"]
    /// `construction=*` values that leave the way in use.
    static let harmlessConstruction: Set<String> = ["no", "widening", "minor"]
    /// Explicit `bicycle=*` values that keep a carriageway open although its cycleway is mapped separately.
    static let separateOverride: Set<String> = ["yes", "permissive", "designated", "destination"]

    public func attributes(tags: OSMTags) -> WayAttributes? {
        let rules = Self.rules
        let highway = tags["highway"], railway = tags["railway"], manMade = tags["man_made"], amenity = tags["amenity"]
        let publicTransport = tags["public_transport"], bridge = tags["bridge"]
        let isFerry = tags["route"] == "ferry"
        guard highway != nil || isFerry || railway != nil || amenity != nil || manMade != nil || publicTransport != nil || bridge != nil
        else { return nil }
        if ActiveWayRules.isBlocked(tags, highway: highway, railway: railway, construction: Self.harmlessConstruction) { return nil }

        let access = rules.access(tags).map(rules.resolvedAccess)
        let directional = rules.directionalAccess(tags)
        if let access, rules.isClosed(access) { return nil }
        if let forward = directional.forward, let backward = directional.backward, rules.isClosed(forward), rules.isClosed(backward) { return nil }

        // Riding speed by way type (nil: the bicycle may not ride it, it may still be pushed), and the class kept.
        var roadClass = highway.flatMap(RoadClass.init(anyHighwayTag:)) ?? .path
        var speed: Double?
        var pushable = false
        var flags: EdgeFlags = []
        if bridge == "movable" {
            speed = Self.movableBridgeSpeedKmh; pushable = true
        } else if isFerry {
            roadClass = .ferry; flags.insert(.ferry); speed = rules.ferrySpeedKmh
        } else if railway == "platform" || publicTransport == "platform" {
            roadClass = .footway; speed = Self.platformSpeedKmh; pushable = true
        } else if let railway, Self.trainRailways.contains(railway), let access, rules.allowedAccess.contains(access) {
            roadClass = .ferry; flags.insert(.ferry); speed = Self.trainSpeedKmh
        } else if amenity == "parking" || amenity == "parking_entrance" {
            roadClass = .service; speed = Self.parkingSpeedKmh; pushable = true
        } else if let highway, highway != "default", let listed = rules.highwaySpeeds[highway] {
            speed = listed; pushable = true
        } else if let access, rules.allowedAccess.contains(access) {
            speed = rules.highwaySpeeds["default"]; pushable = true
        }

        // Directions: the bicycle's oneway tags, then cycle lanes that open a direction again.
        let junction = tags["junction"]
        let impliedOneway = junction == "roundabout" || junction == "circular" || highway == "motorway"
        var forward = speed != nil, backward = speed != nil, reversed = false
        switch tags["oneway:bicycle"] {
        case "yes", "1", "true": backward = false
        case "no", "0", "false": break
        case "-1": forward = false; reversed = true
        default:
            switch tags["oneway"] {
            case "yes", "1", "true": backward = false
            case "no", "0", "false": break
            case "-1": forward = false; reversed = true
            default: if impliedOneway { backward = false }
            }
        }
        let lanes = CycleLanes(tags: tags)
        let (laneForward, laneBackward) = lanes.directions(twoWay: forward && backward && !impliedOneway, reversed: reversed)
        var forwardSpeed = speed ?? 0, backwardSpeed = speed ?? 0
        if laneForward { forward = true; forwardSpeed = Self.ridingSpeedKmh }
        if laneBackward { backward = true; backwardSpeed = Self.ridingSpeedKmh }

        // Pushing where riding is not allowed, unless pedestrians are kept off too.
        var pushedForward = false, pushedBackward = false
        if (!forward || !backward), tags["foot"] != "no" {
            var push: (forward: Double?, backward: Double?) = (nil, nil)
            if let highway, let walking = Self.pushingHighways[highway] {
                push = (walking, walking)
            } else if manMade == "pier" {
                push = (Self.pushingSpeedKmh, Self.pushingSpeedKmh)
            } else if tags["foot"] == "yes" || (pushable && tags["foot:forward"] != "yes" && tags["foot:backward"] != "yes") {
                push = (Self.pushingSpeedKmh, impliedOneway ? nil : Self.pushingSpeedKmh)
            } else if tags["foot:forward"] == "yes" {
                push.forward = Self.pushingSpeedKmh
            } else if tags["foot:backward"] == "yes" {
                push.backward = Self.pushingSpeedKmh
            }
            if !forward, let walking = push.forward { forward = true; forwardSpeed = walking; pushedForward = true }
            if !backward, let walking = push.backward { backward = true; backwardSpeed = walking; pushedBackward = true }
        }
        if tags["bicycle"] == "dismount" {
            forward = true; backward = true; pushedForward = true; pushedBackward = true
            forwardSpeed = Self.pushingSpeedKmh; backwardSpeed = Self.pushingSpeedKmh
        }
        // A posted limit below the riding speed binds the cyclist too.
        let limits = ActiveWayRules.speedLimits(tags)
        if let limit = limits.forward { forwardSpeed = min(forwardSpeed, limit) }
        if let limit = limits.backward { backwardSpeed = min(backwardSpeed, limit) }
        // Directional access closes what it names.
        if let value = directional.forward, rules.isClosed(value) { forward = false }
        if let value = directional.backward, rules.isClosed(value) { backward = false }
        // A carriageway whose cycleway is mapped as its own way.
        if lanes.separate, !(tags["bicycle"].map(Self.separateOverride.contains) ?? false) { return nil }
        if let surface = tags["surface"], let limit = rules.surfaceSpeeds[surface] {
            forwardSpeed = min(forwardSpeed, limit); backwardSpeed = min(backwardSpeed, limit)
        }
        let ferryDuration = flags.contains(.ferry) ? FerryDuration.parse(tags["duration"]) : nil
        if forwardSpeed <= 0 && ferryDuration == nil { forward = false }
        if backwardSpeed <= 0 && ferryDuration == nil { backward = false }
        guard forward || backward else { return nil }

        flags.formUnion(ActiveWayRules.structureFlags(tags))
        if !forward || !backward { flags.insert(.oneway) }
        if pushedForward && forward { flags.insert(.pushedForward) }
        if pushedBackward && backward { flags.insert(.pushedBackward) }
        return WayAttributes(roadClass: roadClass, forward: forward, backward: backward, speedKmhForward: max(forwardSpeed, 1),
                             speedKmhBackward: max(backwardSpeed, 1), maxspeedKmh: 0, flags: flags, ferryDurationSeconds: ferryDuration,
                             name: tags["name"] ?? "", ref: tags["ref"] ?? "")
    }
}

/// The cycle lanes and tracks a road's tags describe (`cycleway`, `cycleway:both`, `cycleway:left`, `cycleway:right`),
/// as bicycle.lua reads them to open the directions of a oneway.
struct CycleLanes {
    package var both: String?, left: String?, right: String?

    package init(tags: OSMTags) {
        both = tags["cycleway"] ?? tags["cycleway:both"]
        left = tags["cycleway:left"]
        right = tags["cycleway:right"]
    }

    /// Whether the cycleway is mapped as a way of its own.
    package var separate: Bool { [both, left, right].contains("separate") }

    /// The directions (along the way, against it) that have a cycle lane or track: on a two-way road per side; on a
    /// oneway a contraflow (`opposite*`) value opens both, a plain lane the oneway's own (`reversed`: it runs against
    /// the way).
    package func directions(twoWay: Bool, reversed: Bool) -> (forward: Bool, backward: Bool) {
        func lane(_ value: String?) -> Bool { value.map(BicycleProfile.laneValues.contains) ?? false }
        func opposite(_ value: String?) -> Bool { value.map(BicycleProfile.oppositeValues.contains) ?? false }
        if twoWay {
            return (lane(both) || lane(right) || opposite(left), lane(both) || lane(left) || opposite(right))
        }
        if opposite(both) || opposite(left) || opposite(right) { return (true, true) }
        if lane(both) || lane(left) || lane(right) { return (!reversed, reversed) }
        return (false, false)
    }
}
