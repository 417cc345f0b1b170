import Foundation

/// The banners shown while a step is driven, in the Mapbox Directions v5 shape: `primary` names the next
/// maneuver's road (exit number, road shields, name) with its type and modifier, `secondary` its destinations when
/// it also has a name, `sub` its lanes or a maneuver that follows closely. A lane banner appears about 25 s
/// (150 to 500 m) before the maneuver when the step is longer than that.
extension PhrasebookNarrator {
    package static let laneTiming = (seconds: 25.0, min: 150.0, max: 500.0)

    public func bannerInstructions(steps: [GuidanceStep], index: Int) -> [BannerInstruction] {
        guard steps.indices.contains(index) else { return [] }
        // Each step is read out of `steps` once (a copy of a `GuidanceStep` retains all its Strings and tables).
        let distance = steps[index].distance
        let length = max(0, distance.isFinite ? distance : 0)
        guard index + 1 < steps.count else {
            // The last step (arrival, no length): its own maneuver.
            return [BannerInstruction(distanceAlongGeometry: length, primary: primaryContent(steps: steps, index: index),
                                      secondary: secondaryContent(steps[index]))]
        }
        let nextIndex = index + 1
        let next = steps[nextIndex]
        let primary = primaryContent(steps: steps, index: nextIndex)
        let secondary = secondaryContent(next)
        let lanes = laneContent(next)
        var following: BannerContent?
        if nextIndex + 1 < steps.count {
            let close = min(max(Self.speed(next) * Self.chainTiming.seconds, Self.chainTiming.min), Self.chainTiming.max)
            if next.distance < close { following = primaryContent(steps: steps, index: nextIndex + 1) }
        }
        guard let lanes else {
            return [BannerInstruction(distanceAlongGeometry: length, primary: primary, secondary: secondary, sub: following)]
        }
        let laneDistance = min(max(Self.speed(steps[index]) * Self.laneTiming.seconds, Self.laneTiming.min), Self.laneTiming.max)
        if length - laneDistance < Self.minimumSeparation {
            return [BannerInstruction(distanceAlongGeometry: length, primary: primary, secondary: secondary, sub: lanes)]
        }
        return [BannerInstruction(distanceAlongGeometry: length, primary: primary, secondary: secondary, sub: following),
                BannerInstruction(distanceAlongGeometry: laneDistance, primary: primary, secondary: secondary, sub: lanes)]
    }

    /// The `primary` row for the maneuver of `steps[index]`.
    package func primaryContent(steps: [GuidanceStep], index: Int) -> BannerContent {
        let step = steps[index]
        let m = step.maneuver
        let exitNumber = TextPieces.list(step.exits).first ?? ""
        let refs = refList(step)
        let name = TextPieces.trimmed(step.name)
        // Exit and number, then the road's parts (its refs as icons, its name) between "/" delimiters: one array,
        // sized for them up front.
        var components: [BannerComponent] = []
        components.reserveCapacity(2 * refs.count + 3)
        if !exitNumber.isEmpty && m.type != .roundabout && m.type != .rotary {
            components.append(BannerComponent(type: "exit", text: book.phrases["exit"] ?? "Exit"))
            components.append(BannerComponent(type: "exit-number", text: exitNumber))
        }
        let roadStart = components.count
        func addRoadPart(_ part: BannerComponent) {
            if components.count > roadStart { components.append(BannerComponent(type: "delimiter", text: "/")) }
            components.append(part)
        }
        for ref in refs { addRoadPart(BannerComponent(type: "icon", text: ref)) }
        if !name.isEmpty && !refs.contains(name) { addRoadPart(BannerComponent(type: "text", text: name)) }
        if components.count == roadStart && m.type != .arrive, let destination = destinationList(step).first {
            addRoadPart(BannerComponent(type: "text", text: destination))
        }
        if components.count == roadStart {
            // No road to name (an unnamed street, the arrival): the instruction itself.
            components.append(BannerComponent(type: "text", text: capitalizedPhrase(step)))
        }
        let modifier = m.type == .arrive ? (m.side ?? m.modifier) : m.modifier
        return BannerContent(text: Self.joinedText(components), type: m.type.rawValue, modifier: modifier?.rawValue,
                             degrees: roundaboutDegrees(steps: steps, index: index), drivingSide: step.drivingSide,
                             components: components)
    }

    /// The `secondary` row: the destinations, when the primary row already names the road.
    package func secondaryContent(_ step: GuidanceStep) -> BannerContent? {
        let destinations = destinationList(step)
        let hasRoad = !TextPieces.trimmed(step.name).isEmpty || !refList(step).isEmpty
        guard hasRoad, !destinations.isEmpty, step.maneuver.type != .arrive else { return nil }
        var components: [BannerComponent] = []
        for (i, d) in destinations.enumerated() {
            if i > 0 { components.append(BannerComponent(type: "delimiter", text: "/")) }
            components.append(BannerComponent(type: "text", text: d))
        }
        return BannerContent(text: Self.joinedText(components), type: step.maneuver.type.rawValue,
                             modifier: step.maneuver.modifier?.rawValue, components: components)
    }

    /// The components' texts joined by spaces (`map(\.text).joined(separator: " ")` without the array of texts).
    static func joinedText(_ components: [BannerComponent]) -> String {
        guard components.count > 1 else { return components.first?.text ?? "" }
        var text = ""
        text.reserveCapacity(components.reduce(components.count) { $0 + $1.text.utf8.count })
        for (i, component) in components.enumerated() {
            if i > 0 { text += " " }
            text += component.text
        }
        return text
    }

    /// The `sub` row of lanes at the maneuver, when they tell the driver something (several lanes, not all usable
    /// or not all alike).
    package func laneContent(_ step: GuidanceStep) -> BannerContent? {
        guard let lanes = step.intersections.first?.lanes, lanes.count > 1, lanes.contains(where: \.valid) else { return nil }
        let components = lanes.map { lane -> BannerComponent in
            let directions = lane.indications.map(Self.laneDirection)
            var activeDirection: String?
            if lane.valid {
                activeDirection = lane.validIndication.map(Self.laneDirection)
                    ?? step.maneuver.modifier.map(\.rawValue).flatMap { directions.contains($0) ? $0 : nil }
                    ?? directions.first { $0 != "none" }
                if activeDirection == "none" { activeDirection = nil }
            }
            return BannerComponent(type: "lane", text: "", directions: directions, active: lane.valid, activeDirection: activeDirection)
        }
        return BannerContent(text: "", type: nil, modifier: nil, components: components)
    }

    /// An OSRM lane indication in the Mapbox `LaneIndication` vocabulary (merges become slight turns).
    static func laneDirection(_ indication: String) -> String {
        switch indication {
        case "sharp right", "right", "slight right", "straight", "slight left", "left", "sharp left", "uturn", "none": indication
        case "merge to left", "slide left": "slight left"
        case "merge to right", "slide right": "slight right"
        case "through": "straight"
        case "reverse": "uturn"
        default: "none"
        }
    }

    func destinationList(_ step: GuidanceStep) -> [String] {
        TextPieces.list(step.destinations)
    }

    /// For roundabout maneuvers: the angle the roundabout is left at, 180 = straight on, measured the way the
    /// traffic turns (so a first exit to the near side is below 180 on either driving side).
    package func roundaboutDegrees(steps: [GuidanceStep], index: Int) -> Double? {
        let step = steps[index]
        let m = step.maneuver
        let entry: Int, exit: Int
        switch m.type {
        case .roundabout, .rotary:
            entry = m.bearingBefore
            if index + 1 < steps.count, [.exitRoundabout, .exitRotary].contains(steps[index + 1].maneuver.type) {
                exit = steps[index + 1].maneuver.bearingAfter
            } else if let n = m.exit, step.intersections.indices.contains(n), let out = step.intersections[n].outIndex,
                      step.intersections[n].bearings.indices.contains(out) {
                exit = step.intersections[n].bearings[out]
            } else if let last = step.intersections.last(where: { $0.outIndex != nil }), let out = last.outIndex,
                      last.bearings.indices.contains(out) {
                exit = last.bearings[out]
            } else {
                exit = m.bearingAfter
            }
        case .roundaboutTurn:
            entry = m.bearingBefore; exit = m.bearingAfter
        case .exitRoundabout, .exitRotary:
            guard index > 0, [.roundabout, .rotary].contains(steps[index - 1].maneuver.type) else { return nil }
            entry = steps[index - 1].maneuver.bearingBefore; exit = m.bearingAfter
        default:
            return nil
        }
        let turn = Double(((exit - entry) % 360 + 540) % 360 - 180) // -180..<180, positive = right
        var degrees = step.drivingSide == "left" ? 180 + turn : 180 - turn
        if degrees <= 0 { degrees += 360 }
        return degrees
    }
}
