/// The pedestrian, after OSRM v26 foot.lua: 5 km/h on every walkable way (steps, platforms, piers and parkings
/// included), slower on loose surfaces; walks both ways along oneways (only `oneway:foot` binds); a street whose
/// sidewalks are mapped as their own ways (`sidewalk*=separate`) is left to them unless access allows walking on it.
public struct FootProfile: VehicleProfile {
    public init() {}
    public var id: ProfileID { .foot }

    public static let walkingSpeedKmh = 5.0

    public static let rules = ProfileRules(
        name: "foot", mode: .walking,
        accessKeys: ["foot", "access"],
        blockedAccess: ["no", "agricultural", "forestry", "delivery", "use_sidepath"],
        allowedAccess: ["yes", "foot", "permissive", "designated"],
        privateAccess: ["private"], destinationAccess: [],
        highwaySpeeds: Dictionary(uniqueKeysWithValues: [
            "primary", "primary_link", "secondary", "secondary_link", "tertiary", "tertiary_link", "unclassified", "residential",
            "living_street", "service", "track", "path", "steps", "pedestrian", "platform", "footway", "pier",
        ].map { ($0, walkingSpeedKmh) }),
        surfaceSpeeds: ["fine_gravel": 3.75, "gravel": 3.75, "pebblestone": 3.75, "mud": 2.5, "sand": 2.5],
        onewayKeys: ["oneway:foot"],
        barriers: ["yes", "wall", "fence"],
        avoidable: [.ferry],
        restrictionKeys: ["restriction:foot"],
        exceptValues: ["foot"],
        usesTurnRestrictions: false)

    public var rules: ProfileRules { Self.rules }

    public func attributes(tags: OSMTags) -> WayAttributes? {
        let rules = Self.rules
        let highway = tags["highway"], railway = tags["railway"], amenity = tags["amenity"], manMade = tags["man_made"]
        let isFerry = tags["route"] == "ferry"
        if tags["impassable"] == "yes" || tags["status"] == "impassable" || tags["motorroad"] == "yes" { return nil }
        if tags.contains("proposed"), highway == nil || highway == "proposed" { return nil }
        let access = rules.directionalAccess(tags)
        var forward = !(access.forward.map(rules.isClosed) ?? false), backward = !(access.backward.map(rules.isClosed) ?? false)
        guard forward || backward else { return nil }
        // A street whose sidewalks are their own ways: open only where an access tag allows walking.
        let sidewalks = [tags["sidewalk"], tags["sidewalk:both"], tags["sidewalk:left"], tags["sidewalk:right"]]
        if sidewalks.contains("separate") {
            if access.forward == nil { forward = false }
            if access.backward == nil { backward = false }
            guard forward || backward else { return nil }
        }

        var roadClass = highway.flatMap(RoadClass.init(anyHighwayTag:)) ?? .footway
        var flags: EdgeFlags = []
        let speed: Double
        if isFerry {
            roadClass = .ferry; flags.insert(.ferry); speed = rules.ferrySpeedKmh
        } else if let highway, let listed = rules.highwaySpeeds[highway] {
            speed = listed
        } else if railway == "platform" || manMade == "pier" {
            speed = Self.walkingSpeedKmh
        } else if amenity == "parking" || amenity == "parking_entrance" {
            roadClass = .service; speed = Self.walkingSpeedKmh
        } else if access.forward != nil || access.backward != nil {
            // Any way an access tag does not close (foot=yes on a cycleway, ...).
            speed = Self.walkingSpeedKmh
            if access.forward == nil { forward = false }
            if access.backward == nil { backward = false }
        } else {
            return nil
        }
        let surfaceSpeed = tags["surface"].flatMap { rules.surfaceSpeeds[$0] }.map { min(speed, $0) } ?? speed

        flags.formUnion(ActiveWayRules.structureFlags(tags))
        switch tags["oneway:foot"] {
        case "yes", "true", "1": backward = false
        case "-1", "reverse": forward = false
        default: break
        }
        guard forward || backward else { return nil }
        if !forward || !backward { flags.insert(.oneway) }
        let ferryDuration = roadClass == .ferry ? FerryDuration.parse(tags["duration"]) : nil
        return WayAttributes(roadClass: roadClass, forward: forward, backward: backward, speedKmhForward: surfaceSpeed,
                             speedKmhBackward: surfaceSpeed, maxspeedKmh: 0, flags: flags, ferryDurationSeconds: ferryDuration,
                             name: tags["name"] ?? "", ref: tags["ref"] ?? "")
    }
}
