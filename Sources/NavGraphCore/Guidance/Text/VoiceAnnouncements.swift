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
        guard steps.indices.contains(index), index + 1 < steps.count else { return [] }
        let step = steps[index], next = steps[index + 1]
        let length = max(0, step.distance.isFinite ? step.distance : 0)
        let speed = Self.speed(step)
        func clamp(_ t: (seconds: Double, min: Double, max: Double)) -> Double { min(max(speed * t.seconds, t.min), t.max) }

        // What is said of the next maneuver, alone and chained with the one after it when that follows closely;
        // at the maneuver itself an arrival is said in the present ("you have arrived").
        let nextPhrase = phrase(next, upcoming: true)
        var thenPhrase: String?
        if index + 2 < steps.count, next.distance < min(max(Self.speed(next) * Self.chainTiming.seconds, Self.chainTiming.min), Self.chainTiming.max) {
            thenPhrase = phrase(steps[index + 2], upcoming: true)
        }
        func chained(_ first: String, _ second: String?) -> String {
            guard let second else { return first }
            return PhrasebookNarrator.fill(book.phrases["then"] ?? "{instruction}, {next}", ["instruction": first, "next": second])
        }
        let fullPhrase = chained(nextPhrase, thenPhrase)
        let atPhrase = next.maneuver.type == .arrive ? chained(phrase(next, upcoming: false), thenPhrase) : fullPhrase
        func inDistance(_ meters: Double, _ what: String) -> String {
            let distance = SpokenDistance(meters: meters, units: units, book: book)
            return PhrasebookNarrator.fill(book.phrases["in_distance"] ?? "{distance}: {instruction}", ["distance": distance.text, "instruction": what])
        }
        /// The announcement point for a target distance: where its spoken rounding is true, when that fits.
        func point(_ target: Double) -> Double {
            let rounded = SpokenDistance(meters: target, units: units, book: book).roundedMeters
            return min(rounded <= length ? rounded : target, length)
        }

        let addresses = steps[index...min(index + 2, steps.count - 1)].map { TextPieces.trimmed($0.name) }
        let near = clamp(Self.nearTiming), early = clamp(Self.earlyTiming), at = min(clamp(Self.atTiming), length)
        let gap = max(50, 0.3 * near)
        var planned: [(distance: Double, text: String)] = []
        if index == 0 || step.maneuver.type == .depart {
            // The departure itself, chained with the first maneuver when that comes before the "near" point.
            let depart = phrase(step, upcoming: false)
            if length <= near + gap {
                planned.append((length, chained(depart, fullPhrase)))
            } else {
                planned.append((length, depart))
                if length - early >= gap { planned.append((point(early), inDistance(point(early), nextPhrase))) }
                planned.append((point(near), inDistance(point(near), fullPhrase)))
            }
            planned.append((at, atPhrase))
        } else if length - at < gap {
            planned.append((length, atPhrase))
        } else {
            if length > near + gap {
                let first = length >= early ? point(early) : length
                planned.append((first, inDistance(first, nextPhrase)))
            }
            planned.append((point(near), inDistance(point(near), fullPhrase)))
            planned.append((at, atPhrase))
        }

        // Strictly decreasing by at least `minimumSeparation`, within the step; crowding entries are dropped.
        var result: [VoiceInstruction] = []
        for (distance, text) in planned {
            let d = min(max(0, distance), length)
            if let last = result.last, d > last.distanceAlongGeometry - Self.minimumSeparation { continue }
            let sentence = PhrasebookNarrator.capitalized(text)
            result.append(VoiceInstruction(distanceAlongGeometry: d, announcement: sentence,
                                           ssmlAnnouncement: SSML.announcement(sentence, addresses: addresses)))
        }
        return result
    }

    /// Metres between two announcements of one step at the least.
    package static let minimumSeparation = 10.0

    /// Metres per second over the step (distance / duration), 13.9 m/s (50 km/h) when unknown, within 2...40.
    package static func speed(_ step: GuidanceStep) -> Double {
        guard step.duration > 0, step.distance > 0, step.distance.isFinite, step.duration.isFinite else { return 13.9 }
        return min(max(step.distance / step.duration, 2), 40)
    }
}
