/// Node barriers of the cycling and walking profiles, after bicycle.lua's and foot.lua's `process_node`: a node whose
/// first access tag in the profile's hierarchy closes the way (`no`, `private`, ...), or, without one, whose
/// `barrier=*` is in the profile's `barriers` (`yes`, `wall`, `fence`; not an audible fence or a rising bollard),
/// lets nobody of the profile through: the importer ends edges there and the profile may only turn back.
package enum ActiveNodeBarriers {
    /// Whether the node blocks the profile. bicycle.lua does not read access tags on crossings (`highway=crossing`).
    package static func blocks(_ profile: ProfileID, rules: ProfileRules, nodeTags tags: OSMTags) -> Bool {
        if let access = rules.accessKeys.lazy.compactMap({ tags[$0] }).first(where: { !$0.isEmpty }) {
            let closes = rules.blockedAccess.contains(access) || rules.privateAccess.contains(access)
            return closes && !(profile != .foot && tags["highway"] == "crossing")
        }
        guard let barrier = tags["barrier"], rules.barriers.contains(barrier) else { return false }
        if barrier == "fence" && (tags["sensory"] == "audible" || tags["sensory"] == "audio") { return false }
        return !(profile == .foot && tags["bollard"] == "rising")
    }
}
