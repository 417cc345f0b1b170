/// The car as a VehicleProfile: its decisions are CarProfile's (unchanged); the table documents them.
public struct CarVehicleProfile: VehicleProfile {
    public init() {}
    public var id: ProfileID { .car }

    public static let rules = ProfileRules(
        name: "car", mode: .driving,
        accessKeys: ["motorcar", "motor_vehicle", "vehicle", "access"],
        blockedAccess: CarProfile.blockedAccess, allowedAccess: [],
        privateAccess: CarProfile.privateAccess, destinationAccess: CarProfile.destinationAccess,
        highwaySpeeds: Dictionary(uniqueKeysWithValues: RoadClass.allCases.filter { $0.isMotorClass && $0 != .ferry }.map { ($0.osmName, $0.defaultSpeedKmh) }),
        surfaceSpeeds: CarProfile.surfaceSpeeds,
        onewayKeys: ["oneway:motorcar", "oneway"],
        ferrySpeedKmh: RoadClass.ferry.defaultSpeedKmh,
        barriers: [],
        avoidable: [.toll, .ferry, .highway, .trunk],
        restrictionKeys: ["restriction:motorcar", "restriction:motor_vehicle"],
        exceptValues: ["motorcar", "motor_vehicle"])

    public var rules: ProfileRules { Self.rules }

    public func attributes(tags: OSMTags) -> WayAttributes? { CarProfile.attributes(tags: tags) }
}

/// A motor vehicle that drives like a car except for its own access tags and speed caps: the way is first judged by
/// CarProfile with the car's access tags removed (`strippedCarAttributes`), then by the profile's access hierarchy and
/// caps. The first judgement is the same for every such profile, so a caller judging one way for several may make it
/// once and pass it to `attributes(tags:strippedCar:)`.
package protocol CarDerivedProfile: VehicleProfile {
    /// The way's attributes, given CarProfile's judgement of it without the car's access tags.
    func attributes(tags: OSMTags, strippedCar: WayAttributes?) -> WayAttributes?
}

/// CarProfile's judgement of a way with the car's access tags removed; the car's own judgement when the way has none
/// (`hasCarAccessKey` false).
package func strippedCarAttributes(tags: OSMTags, hasCarAccessKey: Bool) -> WayAttributes? {
    CarProfile.attributes(tags: hasCarAccessKey ? tags.removing(CarDerivedKeys.carAccess) : tags)
}

extension CarDerivedProfile {
    public func attributes(tags: OSMTags) -> WayAttributes? {
        attributes(tags: tags, strippedCar: strippedCarAttributes(tags: tags, hasCarAccessKey: CarDerivedKeys.anyPresent(in: tags)))
    }

    func carDerivedAttributes(tags: OSMTags, strippedCar: WayAttributes?) -> WayAttributes? {
        guard var attributes = strippedCar else { return nil }
        let keys = attributes.roadClass == .ferry ? rules.accessKeys.filter { $0 != "vehicle" && $0 != "access" } : rules.accessKeys
        if let access = keys.lazy.compactMap({ tags[$0] }).first {
            if rules.blockedAccess.contains(access) { return nil }
            // Private ways are restricted like destination-only ones (car.lua's rule), not closed.
            if rules.privateAccess.contains(access) { attributes.flags.formUnion([.privateAccess, .destinationOnly]) }
            if rules.destinationAccess.contains(access) { attributes.flags.insert(.destinationOnly) }
        }
        if let cap = rules.speedCaps[attributes.roadClass.osmName], attributes.roadClass != .ferry {
            attributes.speedKmhForward = min(attributes.speedKmhForward, cap)
            attributes.speedKmhBackward = min(attributes.speedKmhBackward, cap)
        }
        return attributes
    }
}

/// Key lists the car-derived profiles read, made once.
package enum CarDerivedKeys {
    static let carAccess = ["motorcar", "motor_vehicle", "vehicle", "access"]

    /// Whether the way has any of the car's access keys.
    package static func anyPresent(in tags: OSMTags) -> Bool { carAccess.contains(where: tags.contains) }
}

/// The truck (heavy goods vehicle): `hgv`/`goods` access, capped speeds, dimension and hazmat limits.
public struct TruckProfile: CarDerivedProfile {
    public init() {}
    public var id: ProfileID { .truck }

    public static let rules = ProfileRules(
        name: "truck", mode: .driving,
        accessKeys: ["hgv", "goods", "motor_vehicle", "vehicle", "access"],
        blockedAccess: CarProfile.blockedAccess.union(["delivery_no", "agricultural"]), allowedAccess: [],
        privateAccess: CarProfile.privateAccess, destinationAccess: CarProfile.destinationAccess.union(["local"]),
        highwaySpeeds: CarVehicleProfile.rules.highwaySpeeds,
        speedCaps: ["motorway": 85, "motorway_link": 45, "trunk": 80, "trunk_link": 40, "primary": 70, "secondary": 60,
                    "tertiary": 50, "unclassified": 40, "residential": 25, "service": 15, "track": 10],
        surfaceSpeeds: CarProfile.surfaceSpeeds,
        onewayKeys: ["oneway"],
        barriers: [],
        avoidable: [.toll, .ferry, .highway, .trunk],
        restrictionKeys: ["restriction:hgv", "restriction:goods", "restriction:motor_vehicle"],
        exceptValues: ["hgv", "goods", "motor_vehicle"])

    public var rules: ProfileRules { Self.rules }

    package func attributes(tags: OSMTags, strippedCar: WayAttributes?) -> WayAttributes? {
        guard var attributes = carDerivedAttributes(tags: tags, strippedCar: strippedCar) else { return nil }
        if tags["toll:hgv"] == "yes" { attributes.flags.insert(.toll) }
        if tags["toll:hgv"] == "no" { attributes.flags.remove(.toll) }
        return attributes
    }

    public func limits(tags: OSMTags) -> VehicleLimits? { VehicleLimits(tags: tags) }
}

/// The motorcycle (or scooter): `motorcycle` access, a car's speeds.
public struct MotorcycleProfile: CarDerivedProfile {
    public init() {}
    public var id: ProfileID { .motorcycle }

    public static let rules = ProfileRules(
        name: "motorcycle", mode: .driving,
        accessKeys: ["motorcycle", "motor_vehicle", "vehicle", "access"],
        blockedAccess: CarProfile.blockedAccess, allowedAccess: [],
        privateAccess: CarProfile.privateAccess, destinationAccess: CarProfile.destinationAccess,
        highwaySpeeds: CarVehicleProfile.rules.highwaySpeeds,
        surfaceSpeeds: CarProfile.surfaceSpeeds,
        onewayKeys: ["oneway"],
        barriers: [],
        avoidable: [.toll, .ferry, .highway, .trunk],
        restrictionKeys: ["restriction:motorcycle", "restriction:motor_vehicle"],
        exceptValues: ["motorcycle", "motor_vehicle"])

    public var rules: ProfileRules { Self.rules }

    package func attributes(tags: OSMTags, strippedCar: WayAttributes?) -> WayAttributes? {
        guard var attributes = carDerivedAttributes(tags: tags, strippedCar: strippedCar) else { return nil }
        if tags["toll:motorcycle"] == "no" { attributes.flags.remove(.toll) }
        return attributes
    }
}
