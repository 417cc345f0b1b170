/// The `steps` of a Directions leg (Mapbox Directions v5 / OSRM shape), and the `maxspeed` annotation.
extension DirectionsResponse {
    package static func steps(_ leg: RouteLeg, _ options: OutputOptions) -> [JSON] {
        leg.steps.indices.map { step(leg.steps, $0, leg: leg, options) }
    }

    /// `{"speed": 50, "unit": "km/h"}`, `{"none": true}` or `{"unknown": true}` from a stored limit.
    package static func maxspeed(_ stored: UInt8) -> JSON {
        switch stored {
        case 0: .object([("unknown", .bool(true))])
        case 255: .object([("none", .bool(true))])
        default: .object([("speed", .number(Double(stored))), ("unit", .string("km/h"))])
        }
    }

    private static func step(_ steps: [GuidanceStep], _ index: Int, leg: RouteLeg, _ options: OutputOptions) -> JSON {
        let step = steps[index]
        let range = step.geometryRange
        var coordinates = Array(leg.coordinates[range])
        if coordinates.count == 1 { coordinates.append(coordinates[0]) }
        var members: [(String, JSON)] = [
            ("distance", .measure(step.distance)),
            ("duration", .measure(step.duration)),
            ("weight", .measure(step.weight)),
            ("name", .string(step.name)),
        ]
        if !step.ref.isEmpty { members.append(("ref", .string(step.ref))) }
        if !step.destinations.isEmpty { members.append(("destinations", .string(step.destinations))) }
        if !step.exits.isEmpty { members.append(("exits", .string(step.exits))) }
        if !step.rotaryName.isEmpty { members.append(("rotary_name", .string(step.rotaryName))) }
        members += [
            ("mode", .string(step.mode.rawValue)),
            ("driving_side", .string(step.drivingSide)),
            ("geometry", geometry(coordinates, options.geometry)),
            ("maneuver", maneuver(step, instruction: options.narrator?.instruction(steps: steps, index: index))),
            ("intersections", .array(step.intersections.map(intersection))),
        ]
        if let narrator = options.narrator, options.voiceInstructions {
            members.append(("voiceInstructions", .array(narrator.voiceInstructions(steps: steps, index: index).map(\.json))))
        }
        if let narrator = options.narrator, options.bannerInstructions {
            members.append(("bannerInstructions", .array(narrator.bannerInstructions(steps: steps, index: index).map(\.json))))
        }
        return .object(members)
    }

    private static func maneuver(_ step: GuidanceStep, instruction: String?) -> JSON {
        let m = step.maneuver
        var members: [(String, JSON)] = [
            ("type", .string(m.type.rawValue)),
        ]
        if let modifier = m.modifier ?? m.side { members.append(("modifier", .string(modifier.rawValue))) }
        if let exit = m.exit { members.append(("exit", .number(Double(exit)))) }
        members += [
            ("location", JSON.position(m.location)),
            ("bearing_before", .number(Double(m.bearingBefore))),
            ("bearing_after", .number(Double(m.bearingAfter))),
        ]
        if let instruction { members.append(("instruction", .string(instruction))) }
        return .object(members)
    }

    private static func intersection(_ i: Intersection) -> JSON {
        var members: [(String, JSON)] = [
            ("location", JSON.position(i.location)),
            ("bearings", .array(i.bearings.map { .number(Double($0)) })),
            ("entry", .array(i.entry.map(JSON.bool))),
        ]
        if let inIndex = i.inIndex { members.append(("in", .number(Double(inIndex)))) }
        if let outIndex = i.outIndex { members.append(("out", .number(Double(outIndex)))) }
        // Leg-relative, as Mapbox's client reads it (it indexes the leg's segment annotations with it).
        members.append(("geometry_index", .number(Double(i.geometryIndex))))
        if let lanes = i.lanes {
            members.append(("lanes", .array(lanes.map { lane in
                var fields: [(String, JSON)] = [
                    ("valid", .bool(lane.valid)),
                    ("active", .bool(lane.active)),
                    ("indications", .array(lane.indications.map(JSON.string))),
                ]
                if let valid = lane.validIndication { fields.append(("valid_indication", .string(valid))) }
                return .object(fields)
            })))
        }
        if i.isTollCollection { members.append(("toll_collection", .object([("type", .string("toll_booth"))]))) }
        if i.hasTrafficSignal { members.append(("traffic_signal", .bool(true))) }
        if i.hasStopSign { members.append(("stop_sign", .bool(true))) }
        if i.hasYieldSign { members.append(("yield_sign", .bool(true))) }
        return .object(members)
    }
}
