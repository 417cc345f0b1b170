import Foundation

/// Voice and banner instructions written into a `JSONSink` (the one writer of their JSON: a tree builder, the byte
/// stream of a Directions body, or `jsonData()`), with the Mapbox Directions v5 key names as the MapboxDirections
/// Swift SDK's `SpokenInstruction`, `VisualInstructionBanner`, `VisualInstruction` and `VisualInstruction.Component`
/// decode them.
extension VoiceInstruction {
    /// The `voiceInstructions` entry as compact JSON bytes.
    public func jsonData() -> Data {
        var stream = JSONStream()
        write(to: &stream)
        return stream.finish().data
    }

    func write<S: JSONSink & ~Copyable>(to sink: inout S) {
        sink.beginObject()
        sink.member("distanceAlongGeometry", measure: distanceAlongGeometry)
        sink.member("announcement", announcement)
        sink.member("ssmlAnnouncement", ssmlAnnouncement)
        sink.endObject()
    }

    /// The same entry from the UTF-8 of its texts (`StepNarrator.forEachVoiceInstruction`).
    static func write<S: JSONSink & ~Copyable>(distanceAlongGeometry: Double, announcement: UnsafeBufferPointer<UInt8>,
                                               ssmlAnnouncement: UnsafeBufferPointer<UInt8>, to sink: inout S) {
        sink.beginObject()
        sink.member("distanceAlongGeometry", measure: distanceAlongGeometry)
        sink.key("announcement")
        sink.string(utf8: announcement)
        sink.key("ssmlAnnouncement")
        sink.string(utf8: ssmlAnnouncement)
        sink.endObject()
    }
}

extension BannerInstruction {
    /// The `bannerInstructions` entry as compact JSON bytes.
    public func jsonData() -> Data {
        var stream = JSONStream()
        write(to: &stream)
        return stream.finish().data
    }

    /// `secondary` is written as null when absent (as the Directions API does), `sub` only when present.
    func write<S: JSONSink & ~Copyable>(to sink: inout S) {
        sink.beginObject()
        sink.member("distanceAlongGeometry", measure: distanceAlongGeometry)
        sink.key("primary")
        primary.write(to: &sink)
        sink.key("secondary")
        if let secondary { secondary.write(to: &sink) } else { sink.null() }
        if let sub {
            sink.key("sub")
            sub.write(to: &sink)
        }
        sink.endObject()
    }
}

extension BannerContent {
    func write<S: JSONSink & ~Copyable>(to sink: inout S) {
        sink.beginObject()
        sink.member("text", text)
        if let type { sink.member("type", type) }
        if let modifier { sink.member("modifier", modifier) }
        if let degrees {
            sink.key("degrees")
            sink.number(degrees, decimals: 0)
        }
        if let drivingSide { sink.member("driving_side", drivingSide) }
        sink.key("components")
        sink.beginArray()
        for component in components { component.write(to: &sink) }
        sink.endArray()
        sink.endObject()
    }
}

extension BannerComponent {
    func write<S: JSONSink & ~Copyable>(to sink: inout S) {
        sink.beginObject()
        sink.member("type", type)
        sink.member("text", text)
        if let abbreviation { sink.member("abbr", abbreviation) }
        if let abbreviationPriority { sink.member("abbr_priority", integer: abbreviationPriority) }
        if let directions {
            sink.key("directions")
            sink.beginArray()
            for direction in directions { sink.string(direction) }
            sink.endArray()
        }
        if let active { sink.member("active", bool: active) }
        if let activeDirection { sink.member("active_direction", activeDirection) }
        sink.endObject()
    }
}
