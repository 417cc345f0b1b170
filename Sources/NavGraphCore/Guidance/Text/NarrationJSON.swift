import Foundation

/// The Directions JSON of voice and banner instructions, with the Mapbox Directions v5 key names
/// (as the MapboxDirections Swift SDK's `SpokenInstruction`, `VisualInstructionBanner`, `VisualInstruction` and
/// `VisualInstruction.Component` decode them).
extension VoiceInstruction {
    package var json: JSON {
        .object([
            ("distanceAlongGeometry", .measure(distanceAlongGeometry)),
            ("announcement", .string(announcement)),
            ("ssmlAnnouncement", .string(ssmlAnnouncement)),
        ])
    }
}

extension BannerInstruction {
    /// `secondary` is written as null when absent (as the Directions API does); `sub` is left out.
    package var json: JSON {
        var members: [(String, JSON)] = [
            ("distanceAlongGeometry", .measure(distanceAlongGeometry)),
            ("primary", primary.json),
            ("secondary", secondary?.json ?? .null),
        ]
        if let sub { members.append(("sub", sub.json)) }
        return .object(members)
    }
}

extension BannerContent {
    package var json: JSON {
        var members: [(String, JSON)] = [("text", .string(text))]
        if let type { members.append(("type", .string(type))) }
        if let modifier { members.append(("modifier", .string(modifier))) }
        if let degrees { members.append(("degrees", .number(degrees, decimals: 0))) }
        if let drivingSide { members.append(("driving_side", .string(drivingSide))) }
        members.append(("components", .array(components.map(\.json))))
        return .object(members)
    }
}

extension BannerComponent {
    package var json: JSON {
        var members: [(String, JSON)] = [("type", .string(type)), ("text", .string(text))]
        if let abbreviation { members.append(("abbr", .string(abbreviation))) }
        if let abbreviationPriority { members.append(("abbr_priority", .number(Double(abbreviationPriority)))) }
        if let directions { members.append(("directions", .array(directions.map { .string($0) }))) }
        if let active { members.append(("active", .bool(active))) }
        if let activeDirection { members.append(("active_direction", .string(activeDirection))) }
        return .object(members)
    }
}

extension VoiceInstruction {
    /// The `voiceInstructions` entry as compact JSON bytes.
    public func jsonData() -> Data { json.data(pretty: false) }
}

extension BannerInstruction {
    /// The `bannerInstructions` entry as compact JSON bytes.
    public func jsonData() -> Data { json.data(pretty: false) }
}
