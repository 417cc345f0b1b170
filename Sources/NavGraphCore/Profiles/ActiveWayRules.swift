/// Way rules the cycling and walking profiles share (after OSRM's way_handlers.lua and maxspeed.lua): ways closed
/// whatever the access, the posted limits a bicycle or scooter keeps to, and the structure flags of a way.
enum ActiveWayRules {
    /// Whether the way is closed for every active profile: impassable, under construction, only proposed, or a
    /// motorroad.
    static func isBlocked(_ tags: OSMTags, highway: String?, railway: String?, construction harmless: Set<String>) -> Bool {
        if tags["impassable"] == "yes" || tags["status"] == "impassable" || tags["motorroad"] == "yes" { return true }
        if highway == "construction" || railway == "construction" { return true }
        if let construction = tags["construction"], !harmless.contains(construction) { return true }
        if tags.contains("proposed"), highway == nil || highway == "proposed" { return true }
        return false
    }

    /// Posted limits in km/h per direction (`maxspeed:forward|backward` before `maxspeed`), read as OSRM's
    /// Measure.get_max_speed reads them: the leading number, in mph when the value says so; nil where none is given.
    static func speedLimits(_ tags: OSMTags) -> (forward: Double?, backward: Double?) {
        let common = limit(tags["maxspeed"])
        return (limit(tags["maxspeed:forward"]) ?? common, limit(tags["maxspeed:backward"]) ?? common)
    }

    /// The leading number of a `maxspeed` value in km/h (mph converted), nil when it has none or it is 0.
    package static func limit(_ raw: String?) -> Double? {
        guard let raw, let number = Double(raw.prefix(while: \.isNumber)), number > 0 else { return nil }
        return raw.contains("mph") || raw.contains("mp/h") ? number * 1.609344 : number
    }

    /// Roundabout, circular, bridge and tunnel flags of the way.
    static func structureFlags(_ tags: OSMTags) -> EdgeFlags {
        var flags: EdgeFlags = []
        if let junction = tags["junction"], junction == "roundabout" || junction == "circular" { flags.insert(.roundabout) }
        if tags["junction"] == "circular" { flags.insert(.circular) }
        if let bridge = tags["bridge"], bridge != "no" { flags.insert(.bridge) }
        if let tunnel = tags["tunnel"], tunnel != "no" { flags.insert(.tunnel) }
        return flags
    }
}
