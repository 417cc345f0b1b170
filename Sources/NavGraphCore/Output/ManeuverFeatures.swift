/// Maneuver points of the primary route for the styled GeoJSON: `featureType: "maneuver"`, type, modifier, an
/// icon name (`turn_left`, `roundabout_right`, `depart`...) and, with a narrator, the instruction.
enum ManeuverFeatures {
    /// Icon name of a maneuver: type and modifier joined with underscores ("off_ramp_slight_right").
    package static func icon(_ maneuver: Maneuver) -> String {
        let type = maneuver.type.rawValue.replacingOccurrences(of: " ", with: "_")
        switch maneuver.type {
        case .depart, .arrive, .notification: return type
        default:
            guard let modifier = maneuver.modifier else { return type }
            if modifier == .uturn { return "uturn" }
            return type + "_" + modifier.rawValue.replacingOccurrences(of: " ", with: "_")
        }
    }

    package static func features(_ route: Route, _ options: OutputOptions) -> [JSON] {
        var features: [JSON] = []
        for (legIndex, leg) in route.legs.enumerated() {
            for (index, step) in leg.steps.enumerated() {
                var properties: [(String, JSON)] = [
                    ("featureType", .string("maneuver")),
                    ("legIndex", .number(Double(legIndex))),
                    ("stepIndex", .number(Double(index))),
                    ("type", .string(step.maneuver.type.rawValue)),
                ]
                if let modifier = step.maneuver.modifier { properties.append(("modifier", .string(modifier.rawValue))) }
                if let exit = step.maneuver.exit { properties.append(("exit", .number(Double(exit)))) }
                properties.append(("icon", .string(icon(step.maneuver))))
                properties.append(("name", .string(step.name)))
                properties.append(("distance", .measure(step.distance)))
                if let narrator = options.narrator {
                    properties.append(("instruction", .string(narrator.instruction(steps: leg.steps, index: index))))
                }
                features.append(.object([
                    ("type", .string("Feature")),
                    ("geometry", .object([("type", .string("Point")), ("coordinates", JSON.position(step.maneuver.location))])),
                    ("properties", .object(properties)),
                ]))
            }
        }
        return features
    }
}
