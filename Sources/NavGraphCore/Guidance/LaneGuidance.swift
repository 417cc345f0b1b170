/// Lanes of an approach from its `turn:lanes` tag, marked valid and active for a maneuver.
enum LaneGuidance {
    /// OSM `turn:lanes` values as the Directions API's indications, in the vocabulary the Mapbox SDK's
    /// `LaneIndication` decodes (it rejects anything else, so merges become slight turns).
    static func indication(_ value: Substring) -> String {
        switch value.trimmingCharacters(in: .whitespaces) {
        case "left": "left"
        case "slight_left": "slight left"
        case "sharp_left": "sharp left"
        case "through": "straight"
        case "right": "right"
        case "slight_right": "slight right"
        case "sharp_right": "sharp right"
        case "reverse": "uturn"
        case "merge_to_left": "slight left"
        case "merge_to_right": "slight right"
        default: "none"
        }
    }

    /// Parses "left|through;right|" into lanes left to right.
    package static func parse(_ tag: String) -> [[String]] {
        tag.split(separator: "|", omittingEmptySubsequences: false).map { lane in
            let values = lane.split(separator: ";").map(indication)
            return values.isEmpty ? ["none"] : values
        }
    }

    /// Families of indications that may serve a maneuver direction, best first.
    package static func acceptable(for direction: ManeuverModifier) -> [String] {
        switch direction {
        case .straight: ["straight", "none"]
        case .slightRight: ["slight right", "right", "straight"]
        case .right: ["right", "slight right", "sharp right"]
        case .sharpRight: ["sharp right", "right"]
        case .slightLeft: ["slight left", "left", "straight"]
        case .left: ["left", "slight left", "sharp left"]
        case .sharpLeft: ["sharp left", "left"]
        case .uturn: ["uturn", "sharp left", "left"]
        }
    }

    /// The lanes for an approach tagged `parsed`, for a maneuver in `direction`; nil when untagged. When the next
    /// maneuver follows closely (`nextSide`: its direction), only the valid lanes on that side stay `active`: the
    /// driver should already take the lanes that lead on to it.
    /// The tag comes split by `parse` (the step builder parses each tag once).
    package static func lanes(parsed: [[String]], direction: ManeuverModifier, nextSide: ManeuverModifier? = nil) -> [Lane]? {
        guard var lanes = allLanes(parsed: parsed, direction: direction) else { return nil }
        if let nextSide { prefer(&lanes, towards: nextSide) }
        return lanes
    }

    /// Keeps `active` on the half of the valid lanes (at least one) nearest the side of the next maneuver.
    package static func prefer(_ lanes: inout [Lane], towards next: ManeuverModifier) {
        let valid = lanes.indices.filter { lanes[$0].valid }
        guard valid.count > 1 else { return }
        let keep = (valid.count + 1) / 2
        let chosen: ArraySlice<Int>
        switch next {
        case .left, .slightLeft, .sharpLeft, .uturn: chosen = valid.prefix(keep)
        case .right, .slightRight, .sharpRight: chosen = valid.suffix(keep)
        case .straight: return
        }
        for index in valid { lanes[index].active = chosen.contains(index) }
    }

    static func allLanes(parsed: [[String]], direction: ManeuverModifier) -> [Lane]? {
        guard !parsed.isEmpty, parsed.count > 1 || parsed.first != ["none"] else { return nil }
        for candidate in acceptable(for: direction) {
            guard parsed.contains(where: { $0.contains(candidate) }) else { continue }
            return parsed.map { indications in
                let valid = indications.contains(candidate)
                return Lane(indications: indications, valid: valid, active: valid, validIndication: valid ? candidate : nil)
            }
        }
        return parsed.map { Lane(indications: $0, valid: false, active: false) }
    }
}
