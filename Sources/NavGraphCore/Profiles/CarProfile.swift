import Foundation

/// What the car profile decides about one OSM way.
public struct WayAttributes: Sendable, Equatable {
    public var roadClass: RoadClass
    public var forward: Bool
    public var backward: Bool
    public var speedKmhForward: Double
    public var speedKmhBackward: Double
    /// Posted maxspeed in km/h, 0 when unknown, `Maxspeed.unlimited` for `maxspeed=none`.
    public var maxspeedKmh: Double
    public var flags: EdgeFlags
    /// Ferry crossing time for the whole way in seconds, from the `duration` tag.
    public var ferryDurationSeconds: Double?
    public var name: String
    public var ref: String
}

/// The car profile: which ways a car may use, in which direction and how fast.
public enum CarProfile {
    public static let name = "car"

    /// Applied to posted limits: cars rarely keep to the limit on average (OSRM uses the same idea).
    public static let maxspeedFactor = 0.8
    /// Used for `maxspeed=none` (OSRM's `none` = 140, before `maxspeedFactor`).
    public static let unlimitedSpeedKmh = 140.0
    /// Narrowest `maxwidth:physical|maxwidth|width|est_width` in metres a car passes (OSRM `vehicle_width`).
    public static let vehicleWidth = 1.9
    /// Tags whose value gives a way's width, first found first.
    static let widthKeys = ["maxwidth:physical", "maxwidth", "width", "est_width"]
    /// Tags whose value (or its `:forward` / `:backward` form, looked up first) gives the speed limit, in OSRM's order.
    static let maxspeedKeys = ["maxspeed:advisory", "maxspeed", "source:maxspeed", "maxspeed:type"]
    /// Each of `maxspeedKeys` with its `:forward` and `:backward` forms, written out: literal strings are never
    /// reference counted, while built ones would be retained and released from both profiling threads for every way.
    static let maxspeedKeyForms = [
        ("maxspeed:advisory", "maxspeed:advisory:forward", "maxspeed:advisory:backward"),
        ("maxspeed", "maxspeed:forward", "maxspeed:backward"),
        ("source:maxspeed", "source:maxspeed:forward", "source:maxspeed:backward"),
        ("maxspeed:type", "maxspeed:type:forward", "maxspeed:type:backward"),
    ]
    /// Highest speed in km/h on a surface, track grade or smoothness (OSRM car.lua); unlisted values do not limit.
    static let surfaceSpeeds: [String: Double] = [
        "cement": 80, "compacted": 80, "fine_gravel": 80, "paving_stones": 60, "metal": 60, "bricks": 60,
        "grass": 40, "wood": 40, "sett": 40, "grass_paver": 40, "gravel": 40, "unpaved": 40, "ground": 40, "dirt": 40,
        "pebblestone": 40, "tartan": 40, "cobblestone": 30, "clay": 30, "earth": 20, "stone": 20, "rocky": 20, "sand": 20,
        "laterite": 15, "mud": 10, "ice": 20, "snow": 30,
    ]
    static let tracktypeSpeeds: [String: Double] = ["grade1": 60, "grade2": 40, "grade3": 30, "grade4": 25, "grade5": 20]
    static let smoothnessSpeeds: [String: Double] = ["intermediate": 80, "bad": 40, "very_bad": 20, "horrible": 10, "very_horrible": 5]

    /// Access values that close a way to cars (OSRM car.lua's `access_tag_blacklist` less its restricted values).
    static let blockedAccess: Set<String> = [
        "no", "agricultural", "forestry", "emergency", "psv", "taxi", "share_taxi", "minibus", "bus", "foot",
        "emergency_vehicle", "restricted", "military", "official",
    ]
    /// Access values that allow a car only to reach or leave places on the way (OSRM `restricted_access_tag_list`).
    /// `private` is one of them, as in car.lua: the way is routable, entering it costs `restrictedEntryMilliseconds`
    /// of search cost (no time), a private service road is no preferred start or end, and a private track stays closed.
    package static let privateAccess: Set<String> = ["private"]
    static let destinationAccess: Set<String> = ["destination", "customers", "delivery", "permit", "residents", "unknown"]
    /// Access values OSRM reads as an explicit permission (`access_tag_whitelist`).
    static let allowedAccess: Set<String> = ["yes", "motorcar", "motor_vehicle", "vehicle", "permissive", "designated", "hov"]

    /// Returns nil when a car may not use the way at all.
    public static func attributes(tags: OSMTags) -> WayAttributes? {
        let roadClass: RoadClass
        if tags["route"] == "ferry" {
            roadClass = .ferry
        } else if let highway = tags["highway"], let parsed = RoadClass(highwayTag: highway) {
            roadClass = parsed
        } else if let highway = tags["highway"], !avoidedHighways.contains(highway),
                  let access = accessKeys(for: .track).lazy.compactMap({ tags[$0] }).first.map(resolvedAccess),
                  !blockedAccess.contains(access), !privateAccess.contains(access), !destinationAccess.contains(access) || access == "unknown" {
            // Other highways (footway, path, pedestrian, ...) are outside car.lua's speed table too: like tracks, a car
            // uses one only where an access tag allows it, at 10 km/h; navgraph files them as tracks.
            roadClass = .track
        } else {
            return nil
        }
        if tags["area"] == "yes" || tags["impassable"] == "yes" || tags["smoothness"] == "impassable" { return nil }
        for key in widthKeys {
            guard let raw = tags[key] else { continue }
            if let metres = Double(raw.prefix { $0.isNumber || $0 == "." }), metres > 0, metres <= vehicleWidth { return nil }
            break
        }
        if let status = tags["status"], status == "impassable" { return nil }

        var flags: EdgeFlags = []
        let access = accessKeys(for: roadClass).lazy.compactMap({ tags[$0] }).first.map(resolvedAccess)
        // Tracks are outside OSRM's speed table: a car uses one only where an access tag allows it outright.
        if roadClass == .track {
            guard let access, !blockedAccess.contains(access), !privateAccess.contains(access),
                  !destinationAccess.contains(access) || access == "unknown" else { return nil }
        }
        if tags["service"] == "emergency_access" { return nil }
        if let access {
            if blockedAccess.contains(access) { return nil }
            if privateAccess.contains(access) { flags.formUnion([.privateAccess, .destinationOnly]) }
            if destinationAccess.contains(access) { flags.insert(.destinationOnly) }
        }
        if roadClass == .ferry { flags.insert(.ferry) }
        if tags["toll:motorcar"] == "yes" || (tags["toll"] == "yes" && tags["toll:motorcar"] != "no") { flags.insert(.toll) }
        if let junction = tags["junction"], junction == "roundabout" || junction == "circular" { flags.insert(.roundabout) }
        if tags["junction"] == "circular" { flags.insert(.circular) }
        if let bridge = tags["bridge"], bridge != "no" { flags.insert(.bridge) }
        if let tunnel = tags["tunnel"], tunnel != "no" { flags.insert(.tunnel) }

        var forward = true, backward = true
        let oneway = tags["oneway:motorcar"] ?? tags["oneway"]
        switch oneway {
        case "yes", "true", "1": backward = false
        case "-1", "reverse": forward = false
        case "reversible", "alternating": return nil
        case "no", "false", "0": break
        default:
            if roadClass == .motorway || flags.contains(.roundabout) { backward = false }
        }
        if !backward || !forward { flags.insert(.oneway) }

        let maxspeed = Maxspeed.parse(tags["maxspeed"])
        let (forwardLimit, backwardLimit) = speedLimits(tags)
        func lower(_ first: Double?, _ second: Double?) -> Double? { first.map { min($0, second ?? $0) } ?? second }
        let surfaceLimit = lower(lower(tags["surface"].flatMap { surfaceSpeeds[$0] }, tags["tracktype"].flatMap { tracktypeSpeeds[$0] }),
                                 tags["smoothness"].flatMap { smoothnessSpeeds[$0] })
        func speed(limit: Double?) -> Double {
            guard roadClass != .ferry else { return roadClass.defaultSpeedKmh }
            let base = limit.map { max(5, $0 * maxspeedFactor) } ?? roadClass.defaultSpeedKmh
            return min(base, surfaceLimit ?? base)
        }
        let ferryDuration = roadClass == .ferry ? FerryDuration.parse(tags["duration"]) : nil
        return WayAttributes(
            roadClass: roadClass, forward: forward, backward: backward,
            speedKmhForward: speed(limit: forwardLimit), speedKmhBackward: speed(limit: backwardLimit),
            maxspeedKmh: tags["maxspeed"] == "none" ? Maxspeed.unlimited : maxspeed ?? 0, flags: flags, ferryDurationSeconds: ferryDuration,
            name: tags["name"] ?? "", ref: tags["ref"] ?? "")
    }
}

/// What a node does to a car passing through it (OSRM car.lua's `process_node`); stored per junction at import only.
public enum NodeBarrier: UInt8, Sendable {
    case none = 0
    /// `barrier=gate|lift_gate` without an access tag: passable after `TurnCosts.gateSeconds`.
    case gate = 1
    /// Any other barrier (bollard, block, ...) or a node whose access tag closes it to cars: only a U-turn there.
    case impassable = 2
}

extension CarProfile {
    /// Barriers a car passes freely (OSRM `barrier_whitelist`).
    static let passableBarriers: Set<String> = ["cattle_grid", "border_control", "toll_booth", "sally_port", "no", "entrance",
                                                "height_restrictor", "arch"]
    /// Barriers a car passes after a wait (OSRM `barrier_penalties`).
    static let delayingBarriers: Set<String> = ["gate", "lift_gate"]
    /// Lowest `maxheight` in metres a car passes under (OSRM `vehicle_height`).
    public static let vehicleHeight = 2.0

    /// The barrier a tagged node forms for a car, as car.lua decides: an access tag on the node decides alone (closed
    /// when blocked, else open, gates included); otherwise `barrier=*` outside the lists closes, except rising bollards,
    /// lowered or flush kerbs, a kerb tagged as a crossing, audible fences, and a height restrictor a car fits under.
    public static func barrier(nodeTags tags: OSMTags) -> NodeBarrier {
        if let access = ["motorcar", "motor_vehicle", "vehicle", "access"].lazy.compactMap({ tags[$0] }).first.map(resolvedAccess) {
            return blockedAccess.contains(access) ? .impassable : .none
        }
        guard let barrier = tags["barrier"] else { return .none }
        if barrier == "height_restrictor", let raw = tags["maxheight"],
           let metres = Double(raw.prefix { $0.isNumber || $0 == "." }), metres < vehicleHeight { return .impassable }
        if delayingBarriers.contains(barrier) { return .gate }
        if passableBarriers.contains(barrier) || tags["bollard"] == "rising" || tags["kerb"] == "lowered" || tags["kerb"] == "flush"
            || (barrier == "kerb" && tags["highway"] == "crossing")
            || (barrier == "fence" && (tags["sensory"] == "audible" || tags["sensory"] == "audio")) { return .none }
        return .impassable
    }

    /// Highways car.lua never routes on, whatever their access tags (its `avoid` list).
    static let avoidedHighways: Set<String> = ["steps", "construction", "proposed"]

    /// Access tags in the order they are read: the most specific first; ferries only read motor vehicle ones.
    static func accessKeys(for roadClass: RoadClass) -> [String] {
        roadClass == .ferry ? ferryAccessKeys : roadAccessKeys
    }
    private static let ferryAccessKeys = ["motorcar", "motor_vehicle"]
    private static let roadAccessKeys = ["motorcar", "motor_vehicle", "vehicle", "access"]

    /// One access value from a `;` list, as OSRM picks it: allowed before restricted before blocked before others.
    static func resolvedAccess(_ raw: String) -> String {
        guard raw.contains(";") else { return raw }
        func rank(_ value: String) -> Int {
            allowedAccess.contains(value) ? 3 : privateAccess.contains(value) || destinationAccess.contains(value) ? 2 : blockedAccess.contains(value) ? 1 : 0
        }
        let parts = raw.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        return parts.enumerated().max { (rank($0.element), -$0.offset) < (rank($1.element), -$1.offset) }?.element ?? raw
    }

    /// Speed limits (km/h, before `maxspeedFactor`) per direction from `maxspeedKeys`, as OSRM reads them: for each key
    /// in turn, its `:forward` / `:backward` form, then the plain key, until both directions have a value.
    static func speedLimits(_ tags: OSMTags) -> (forward: Double?, backward: Double?) {
        let (forward, backward) = tags.perDirection(maxspeedKeyForms)
        return (Maxspeed.parse(forward), Maxspeed.parse(backward))
    }
}

/// Parses OSM `maxspeed` values into km/h.
public enum Maxspeed {
    /// Stored (edge.maxspeed) for `maxspeed=none`; the Directions output writes `{"none": true}`.
    public static let unlimited = 255.0
    /// Implicit limits for country-style values such as `DE:urban`; the zone suffix decides when the country is not
    /// listed (OSRM's defaults: urban 50, rural 90, trunk 110, motorway 130).
    static let zoneDefaults: [String: Double] = [
        "urban": 50, "rural": 90, "motorway": 130, "trunk": 110, "living_street": 10,
        "walk": 7, "zone30": 30, "zone:30": 30, "zone20": 20, "bicycle_road": 30, "school": 30,
    ]
    /// Country values that differ from the zone defaults (OSRM car.lua's table, a few more); keys upper-case.
    static let countryOverrides: [String: Double] = [
        "DE:rural": 100, "DE:motorway": CarProfile.unlimitedSpeedKmh, "DE:living_street": 7, "AT:rural": 100, "AT:trunk": 100,
        "AT:motorway": 130, "AR:urban": 40, "AR:rural": 110, "BE:motorway": 120, "BE-BRU:rural": 70, "BE-BRU:urban": 30,
        "BE-VLG:rural": 70, "BG:motorway": 140, "BY:urban": 60, "BY:motorway": 110, "CA-ON:rural": 80,
        "FR:rural": 80, "FR:motorway": 130, "IT:rural": 90, "IT:motorway": 130, "IT:trunk": 110, "DK:rural": 80,
        "PT:rural": 90, "PT:motorway": 120, "ES:rural": 90, "ES:trunk": 90, "ES:motorway": 120, "GB:nsl_single": 96.5,
        "GB:nsl_dual": 112.6, "GB:motorway": 112.6, "UK:nsl_single": 96.5, "UK:nsl_dual": 112.6,
        "UK:motorway": 112.6, "FI:rural": 80, "FI:motorway": 120, "MT:rural": 80, "MT:urban": 50, "LV:living_street": 20,
        "RU:urban": 60, "RU:rural": 90, "RU:motorway": 110, "RU:living_street": 20, "CH:rural": 80, "CH:trunk": 100,
        "CH:motorway": 120, "NL:rural": 80, "NL:trunk": 100, "NO:rural": 80, "NO:motorway": 110, "PH:urban": 40,
        "PH:rural": 80, "PH:motorway": 100, "PL:rural": 100, "PL:expressway": 120, "PL:motorway": 140, "RO:trunk": 100,
        "ZA:urban": 60, "ZA:rural": 100,
    ]

    /// Returns km/h, or nil for values that say nothing usable (`signals`, `variable`, garbage).
    public static func parse(_ raw: String?) -> Double? {
        guard var value = raw?.trimmingTagSpaces, !value.isEmpty else { return nil }
        if let semicolon = value.firstIndex(of: ";") { value = String(value[..<semicolon]) }
        if let number = Double(value) { return number > 0 && number < 400 ? number : nil }  // the common plain number
        switch value {
        case "none": return CarProfile.unlimitedSpeedKmh
        case "walk": return 7
        default: break
        }
        if let colon = value.firstIndex(of: ":"), (2...6).contains(value.prefix(upTo: colon).count) {
            let zone = String(value[value.index(after: colon)...]).lowercased()
            if let listed = countryOverrides[value.prefix(upTo: colon).uppercased() + ":" + zone] { return listed }
            if let zoneSpeed = zoneDefaults[zone] { return zoneSpeed }
            if zone.hasPrefix("zone"), let number = Double(zone.drop(while: { !$0.isNumber })) { return number }
            return nil
        }
        var factor = 1.0
        if value.hasSuffix("mph") {
            factor = 1.609344
            value = String(value.dropLast(3)).trimmingCharacters(in: .whitespaces)
        } else if value.hasSuffix("km/h") || value.hasSuffix("kmh") {
            value = String(value.prefix(while: { $0.isNumber || $0 == "." })).trimmingCharacters(in: .whitespaces)
        } else if value.hasSuffix("knots") {
            factor = 1.852
            value = String(value.dropLast(5)).trimmingCharacters(in: .whitespaces)
        }
        guard let number = Double(value), number > 0, number < 400 else { return nil }
        return number * factor
    }
}

/// Parses the `duration` tag of ferries: `HH:MM`, `HH:MM:SS`, minutes, or ISO 8601 `PT1H30M`.
public enum FerryDuration {
    public static func parse(_ raw: String?) -> Double? {
        guard let value = raw?.trimmingTagSpaces, !value.isEmpty else { return nil }
        if value.hasPrefix("PT") || value.hasPrefix("pt") {
            var seconds = 0.0, number = ""
            for character in value.dropFirst(2).uppercased() {
                if character.isNumber || character == "." { number.append(character); continue }
                guard let amount = Double(number) else { return nil }
                switch character {
                case "H": seconds += amount * 3600
                case "M": seconds += amount * 60
                case "S": seconds += amount
                default: return nil
                }
                number = ""
            }
            return seconds > 0 ? seconds : nil
        }
        let parts = value.split(separator: ":").map { Double($0) }
        if parts.contains(where: { $0 == nil }) { return nil }
        let numbers = parts.compactMap { $0 }
        let seconds: Double
        switch numbers.count {
        case 1: seconds = numbers[0] * 60
        case 2: seconds = numbers[0] * 3600 + numbers[1] * 60
        case 3: seconds = numbers[0] * 3600 + numbers[1] * 60 + numbers[2]
        default: return nil
        }
        return seconds > 0 ? seconds : nil
    }
}
