/// The `steps` of a Directions leg (Mapbox Directions v5 / OSRM shape), and the `maxspeed` annotation.
extension DirectionsResponse {
    /// `{"speed": 50, "unit": "km/h"}`, `{"none": true}` or `{"unknown": true}` from a stored limit.
    static func maxspeed<S: JSONSink & ~Copyable>(_ stored: UInt8, to sink: inout S) {
        sink.beginObject()
        switch stored {
        case 0: sink.member("unknown", bool: true)
        case 255: sink.member("none", bool: true)
        default:
            sink.member("speed", integer: Int(stored))
            sink.member("unit", literal: "km/h")
        }
        sink.endObject()
    }

    static func step<S: JSONSink & ~Copyable>(_ steps: [GuidanceStep], _ index: Int, leg: RouteLeg, _ options: OutputOptions,
                                                      to sink: inout S) {
        let step = steps[index]
        sink.beginObject()
        sink.member("distance", measure: step.distance)
        sink.member("duration", measure: step.duration)
        sink.member("weight", measure: step.weight)
        sink.member("name", step.name)
        if !step.ref.isEmpty { sink.member("ref", step.ref) }
        if !step.destinations.isEmpty { sink.member("destinations", step.destinations) }
        if !step.exits.isEmpty { sink.member("exits", step.exits) }
        if !step.rotaryName.isEmpty { sink.member("rotary_name", step.rotaryName) }
        sink.member("mode", step.mode.rawValue)
        sink.member("driving_side", step.drivingSide)
        let coordinates = leg.coordinates[step.geometryRange]
        sink.key("geometry")
        // A one-point step (arrival) is a two-point line.
        geometry(coordinates, repeatLast: coordinates.count == 1 ? 1 : 0, options.geometry, to: &sink)
        sink.key("maneuver")
        maneuver(step, to: &sink) { sink in
            guard let narrator = options.narrator else { return }
            sink.key("instruction")
            narrator.withInstruction(steps: steps, index: index) { sink.string(utf8: $0) }
        }
        sink.key("intersections")
        sink.beginArray()
        for intersection in step.intersections { self.intersection(intersection, to: &sink) }
        sink.endArray()
        if let narrator = options.narrator, options.voiceInstructions {
            sink.key("voiceInstructions")
            sink.beginArray()
            narrator.forEachVoiceInstruction(steps: steps, index: index) { distance, announcement, ssml in
                VoiceInstruction.write(distanceAlongGeometry: distance, announcement: announcement, ssmlAnnouncement: ssml, to: &sink)
            }
            sink.endArray()
        }
        if let narrator = options.narrator, options.bannerInstructions {
            sink.key("bannerInstructions")
            sink.beginArray()
            for banner in narrator.bannerInstructions(steps: steps, index: index) { banner.write(to: &sink) }
            sink.endArray()
        }
        sink.endObject()
    }

    /// The step's `maneuver`; `instruction` writes its last member, the instruction, when there is one.
    private static func maneuver<S: JSONSink & ~Copyable>(_ step: GuidanceStep, to sink: inout S, instruction: (inout S) -> Void) {
        let m = step.maneuver
        sink.beginObject()
        sink.member("type", m.type.rawValue)
        if let modifier = m.modifier ?? m.side { sink.member("modifier", modifier.rawValue) }
        if let exit = m.exit { sink.member("exit", integer: exit) }
        sink.key("location")
        sink.position(m.location)
        sink.member("bearing_before", integer: m.bearingBefore)
        sink.member("bearing_after", integer: m.bearingAfter)
        instruction(&sink)
        sink.endObject()
    }

    private static func intersection<S: JSONSink & ~Copyable>(_ i: Intersection, to sink: inout S) {
        sink.beginObject()
        sink.key("location")
        sink.position(i.location)
        sink.key("bearings")
        sink.beginArray()
        for bearing in i.bearings { sink.integer(bearing) }
        sink.endArray()
        sink.key("entry")
        sink.beginArray()
        for allowed in i.entry { sink.bool(allowed) }
        sink.endArray()
        if let inIndex = i.inIndex { sink.member("in", integer: inIndex) }
        if let outIndex = i.outIndex { sink.member("out", integer: outIndex) }
        // Leg-relative, as Mapbox's client reads it (it indexes the leg's segment annotations with it).
        sink.member("geometry_index", integer: i.geometryIndex)
        if let lanes = i.lanes {
            sink.key("lanes")
            self.lanes(lanes, to: &sink)
        }
        if i.isTollCollection {
            sink.key("toll_collection")
            sink.beginObject()
            sink.member("type", "toll_booth")
            sink.endObject()
        }
        if i.hasTrafficSignal { sink.member("traffic_signal", bool: true) }
        if i.hasStopSign { sink.member("stop_sign", bool: true) }
        if i.hasYieldSign { sink.member("yield_sign", bool: true) }
        sink.endObject()
    }

    /// An intersection's `lanes`, left to right.
    package static func lanes<S: JSONSink & ~Copyable>(_ lanes: [Lane], to sink: inout S) {
        sink.beginArray()
        for lane in lanes {
            sink.beginObject()
            sink.member("valid", bool: lane.valid)
            sink.member("active", bool: lane.active)
            sink.key("indications")
            sink.beginArray()
            for indication in lane.indications { sink.string(indication) }
            sink.endArray()
            if let valid = lane.validIndication { sink.member("valid_indication", valid) }
            sink.endObject()
        }
        sink.endArray()
    }
}
