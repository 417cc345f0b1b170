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
    /// Used for `maxspeed=none`.
    public static let unlimitedSpeedKmh = 130.0

    static let blockedAccess: Set<String> = ["no", "agricultural", "forestry", "emergency", "psv", "bus", "delivery_no", "military", "discouraged_no"]
    static let privateAccess: Set<String> = ["private"]
    static let destinationAccess: Set<String> = ["destination", "customers", "delivery"]

    /// Returns nil when a car may not use the way at all.
    public static func attributes(tags: [String: String]) -> WayAttributes? {
        let roadClass: RoadClass
        if tags["route"] == "ferry" {
            roadClass = .ferry
        } else if let highway = tags["highway"], let parsed = RoadClass(highwayTag: highway) {
            roadClass = parsed
        } else {
            return nil
        }
        if tags["area"] == "yes" || tags["impassable"] == "yes" { return nil }
        if let status = tags["status"], status == "impassable" { return nil }

        var flags: EdgeFlags = []
        let accessKeys = roadClass == .ferry ? ["motorcar", "motor_vehicle"] : ["motorcar", "motor_vehicle", "vehicle", "access"]
        if let access = accessKeys.lazy.compactMap({ tags[$0] }).first {
            if blockedAccess.contains(access) { return nil }
            if privateAccess.contains(access) { flags.insert(.privateAccess) }
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
        let forwardLimit = Maxspeed.parse(tags["maxspeed:forward"]) ?? maxspeed
        let backwardLimit = Maxspeed.parse(tags["maxspeed:backward"]) ?? maxspeed
        func speed(limit: Double?) -> Double {
            guard let limit, roadClass != .ferry else { return roadClass.defaultSpeedKmh }
            return max(5, limit * maxspeedFactor)
        }
        let ferryDuration = roadClass == .ferry ? FerryDuration.parse(tags["duration"]) : nil
        return WayAttributes(
            roadClass: roadClass, forward: forward, backward: backward,
            speedKmhForward: speed(limit: forwardLimit), speedKmhBackward: speed(limit: backwardLimit),
            maxspeedKmh: tags["maxspeed"] == "none" ? Maxspeed.unlimited : maxspeed ?? 0, flags: flags, ferryDurationSeconds: ferryDuration,
            name: tags["name"] ?? "", ref: tags["ref"] ?? "")
    }
}

/// Parses OSM `maxspeed` values into km/h.
public enum Maxspeed {
    /// Stored (edge.maxspeed) for `maxspeed=none`; the Directions output writes `{"none": true}`.
    public static let unlimited = 255.0
    /// Implicit limits for country-style values such as `DE:urban`; the zone suffix decides when the country is not listed.
    static let zoneDefaults: [String: Double] = [
        "urban": 50, "rural": 90, "motorway": 120, "trunk": 100, "living_street": 10,
        "walk": 7, "zone30": 30, "zone:30": 30, "zone20": 20, "bicycle_road": 30, "school": 30,
    ]
    static let countryOverrides: [String: Double] = [
        "DE:rural": 100, "DE:motorway": CarProfile.unlimitedSpeedKmh, "AT:rural": 100, "AT:motorway": 130,
        "FR:rural": 80, "FR:motorway": 130, "IT:rural": 90, "IT:motorway": 130, "IT:trunk": 110,
        "PT:rural": 90, "PT:motorway": 120, "ES:rural": 90, "ES:motorway": 120, "GB:nsl_single": 96.5,
        "GB:nsl_dual": 112.6, "GB:motorway": 112.6, "UK:nsl_single": 96.5, "UK:nsl_dual": 112.6,
        "UK:motorway": 112.6, "FI:rural": 80, "FI:motorway": 120, "MT:rural": 80, "MT:urban": 50,
        "RU:rural": 90, "RU:motorway": 110, "CH:rural": 80, "CH:motorway": 120, "NL:rural": 80,
    ]

    /// Returns km/h, or nil for values that say nothing usable (`signals`, `variable`, garbage).
    public static func parse(_ raw: String?) -> Double? {
        guard var value = raw?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let semicolon = value.firstIndex(of: ";") { value = String(value[..<semicolon]) }
        switch value {
        case "none": return CarProfile.unlimitedSpeedKmh
        case "walk": return 7
        default: break
        }
        if let listed = countryOverrides[value] { return listed }
        if let colon = value.firstIndex(of: ":"), value.prefix(upTo: colon).count == 2 {
            let zone = String(value[value.index(after: colon)...])
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
        guard let value = raw?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
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
