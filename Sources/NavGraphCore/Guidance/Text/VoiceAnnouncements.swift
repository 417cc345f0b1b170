import Foundation

/// When and what the voice says while a step is driven: it announces the NEXT step's maneuver early (about 75 s
/// ahead, 400 m to 2 km), shortly before (about 18 s, 100 to 800 m), and at the maneuver (about 5 s, 20 to 150 m),
/// scaled by the step's speed; on the first step it first says the departure. Announcements that do not fit in the
/// step are dropped; the distances count down strictly and stay within [0, step distance].
extension PhrasebookNarrator {
    /// Seconds before the maneuver for each announcement, and the metre bounds they are clamped to.
    package static let earlyTiming = (seconds: 75.0, min: 400.0, max: 2000.0)
    package static let nearTiming = (seconds: 18.0, min: 100.0, max: 800.0)
    package static let atTiming = (seconds: 5.0, min: 20.0, max: 150.0)
    /// A following maneuver closer than this many seconds (clamped to 50...250 m) is chained with "then".
    package static let chainTiming = (seconds: 12.0, min: 50.0, max: 250.0)

    public func voiceInstructions(steps: [GuidanceStep], index: Int) -> [VoiceInstruction] {
        var result: [VoiceInstruction] = []
        forEachVoiceInstruction(steps: steps, index: index) { distance, announcement, ssml in
            result.append(VoiceInstruction(distanceAlongGeometry: distance, announcement: String(decoding: announcement, as: UTF8.self),
                                           ssmlAnnouncement: String(decoding: ssml, as: UTF8.self)))
        }
        return result
    }

    /// The announcements are written into the thread's `TextArena` and handed over from there: no String is made.
    public func forEachVoiceInstruction(steps: [GuidanceStep], index: Int,
                                        _ body: (Double, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Void) {
        guard steps.indices.contains(index), index + 1 < steps.count else { return }
        let arena = TextArena.take()
        defer { TextArena.give(arena) }
        // The nested functions below read these rather than `self` (capturing `self` copies the narrator).
        let compiled = book.compiled, units = self.units
        let step = steps[index], next = steps[index + 1]
        let length = max(0, step.distance.isFinite ? step.distance : 0)
        let speed = Self.speed(step)
        func clamp(_ t: (seconds: Double, min: Double, max: Double)) -> Double { min(max(speed * t.seconds, t.min), t.max) }

        // What is said of the next maneuver, alone and chained with the one after it when that follows closely;
        // at the maneuver itself an arrival is said in the present ("you have arrived"). Phrases are arena ranges.
        let nextPhrase = writePhrase(next, upcoming: true, arena)
        var thenPhrase: Range<Int>?
        if index + 2 < steps.count, next.distance < min(max(Self.speed(next) * Self.chainTiming.seconds, Self.chainTiming.min), Self.chainTiming.max) {
            thenPhrase = writePhrase(steps[index + 2], upcoming: true, arena)
        }
        func chained(_ first: Range<Int>, _ second: Range<Int>?) -> Range<Int> {
            guard let second else { return first }
            var values = SlotValues()
            values[0] = first
            values[1] = second
            return arena.fill(compiled.then, values)
        }
        let fullPhrase = chained(nextPhrase, thenPhrase)
        let atPhrase = next.maneuver.type == .arrive ? chained(writePhrase(next, upcoming: false, arena), thenPhrase) : fullPhrase
        func inDistance(_ meters: Double, _ what: Range<Int>) -> Range<Int> {
            var values = SlotValues()
            values[0] = compiled.appendDistance(SpokenDistance.spoken(meters: meters, units: units).phrase, to: arena)
            values[1] = what
            return arena.fill(compiled.inDistance, values)
        }
        /// The announcement point for a target distance: where its spoken rounding is true, when that fits.
        func point(_ target: Double) -> Double {
            let rounded = SpokenDistance.spoken(meters: target, units: units).roundedMeters
            return min(rounded <= length ? rounded : target, length)
        }

        // The street names the SSML marks as addresses: escaped once for all the step's announcements.
        var addresses = SSML.AddressNames()
        for s in index...min(index + 2, steps.count - 1) {
            addresses.insert(SSML.appendEscaped(arena.appendTrimmed(steps[s].name), in: arena))
        }
        // Strictly decreasing by at least `minimumSeparation`, within the step; crowding entries are dropped (their
        // words are not made).
        var lastDistance: Double? // of the last announcement made
        func announce(_ distance: Double, _ text: () -> Range<Int>) {
            let d = min(max(0, distance), length)
            if let lastDistance, d > lastDistance - Self.minimumSeparation { return }
            lastDistance = d
            let sentence = arena.appendCapitalized(text())
            SSML.withAnnouncement(arena.bytes(sentence), names: addresses, arena: arena) { body(d, arena.bytes(sentence), $0) }
        }

        let near = clamp(Self.nearTiming), early = clamp(Self.earlyTiming), at = min(clamp(Self.atTiming), length)
        let gap = max(50, 0.3 * near)
        if index == 0 || step.maneuver.type == .depart {
            // The departure itself, chained with the first maneuver when that comes before the "near" point.
            let depart = writePhrase(step, upcoming: false, arena)
            if length <= near + gap {
                announce(length) { chained(depart, fullPhrase) }
            } else {
                announce(length) { depart }
                if length - early >= gap { announce(point(early)) { inDistance(point(early), nextPhrase) } }
                announce(point(near)) { inDistance(point(near), fullPhrase) }
            }
            announce(at) { atPhrase }
        } else if length - at < gap {
            announce(length) { atPhrase }
        } else {
            if length > near + gap {
                let first = length >= early ? point(early) : length
                announce(first) { inDistance(first, nextPhrase) }
            }
            announce(point(near)) { inDistance(point(near), fullPhrase) }
            announce(at) { atPhrase }
        }
    }

    /// Metres between two announcements of one step at the least.
    package static let minimumSeparation = 10.0

    /// Metres per second over the step (distance / duration), 13.9 m/s (50 km/h) when unknown, within 2...40.
    package static func speed(_ step: GuidanceStep) -> Double {
        guard step.duration > 0, step.distance > 0, step.distance.isFinite, step.duration.isFinite else { return 13.9 }
        return min(max(step.distance / step.duration, 2), 40)
    }
}
