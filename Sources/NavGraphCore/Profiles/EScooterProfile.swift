/// The e-scooter (electric kick scooter), derived from the bicycle: where `escooter=*` is tagged it decides access in
/// place of `bicycle=*`, otherwise the bicycle's rules apply (cycleways, cycle lanes, pushing where riding is not
/// allowed); motorways and trunk roads stay closed whatever the tags; riding is a third faster than cycling, capped
/// at `maxSpeedKmh` (the common legal limit) and at a lower posted `maxspeed`; pushed sections stay at walking speed.
public struct EScooterProfile: VehicleProfile {
    public init() {}
    public var id: ProfileID { .escooter }

    /// Top speed in km/h (20 km/h is the limit in most of Europe; 25 in a few countries).
    public static let maxSpeedKmh = 20.0
    /// Riding speed relative to the bicycle's (15 km/h on a road becomes 20).
    public static let speedFactor = 4.0 / 3.0
    /// Highway classes closed to e-scooters.
    static let closedHighways: Set<String> = ["motorway", "motorway_link", "trunk", "trunk_link"]

    public static let rules: ProfileRules = {
        var rules = BicycleProfile.rules
        rules.name = "escooter"
        rules.accessKeys = ["escooter"] + BicycleProfile.rules.accessKeys
        rules.restrictionKeys = ["restriction:escooter"] + BicycleProfile.rules.restrictionKeys
        rules.exceptValues = BicycleProfile.rules.exceptValues.union(["escooter"])
        return rules
    }()

    public var rules: ProfileRules { Self.rules }

    public func attributes(tags: OSMTags) -> WayAttributes? {
        if let highway = tags["highway"], Self.closedHighways.contains(highway) { return nil }
        let judged: OSMTags
        if let escooter = tags["escooter"] {
            judged = OSMTags(tags.filter { $0.key != "bicycle" }.map { ($0.key, $0.value) } + [("bicycle", escooter)])
        } else {
            judged = tags
        }
        guard var attributes = BicycleProfile().attributes(tags: judged) else { return nil }
        guard !attributes.flags.contains(.ferry) else { return attributes }
        let limits = ActiveWayRules.speedLimits(tags)
        func riding(_ speed: Double, limit: Double?) -> Double { min(speed * Self.speedFactor, Self.maxSpeedKmh, limit ?? .infinity) }
        if !attributes.flags.contains(.pushedForward) { attributes.speedKmhForward = riding(attributes.speedKmhForward, limit: limits.forward) }
        if !attributes.flags.contains(.pushedBackward) { attributes.speedKmhBackward = riding(attributes.speedKmhBackward, limit: limits.backward) }
        return attributes
    }
}
