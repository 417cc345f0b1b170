import Foundation
@testable import NavGraphCore

/// The narrator as it was before the phrasebook templates were compiled (commit aa76140): every phrase made with
/// Strings from the phrasebook's dictionaries and `PhrasebookNarrator.fill`. The equivalence tests compare the
/// compiled narrator's output with this one's, byte for byte.
struct ReferenceNarrator {
    let book: Phrasebook
    let units: DistanceUnits
    /// For the parts of the banners that the text change did not touch (lanes, roundabout degrees).
    let current: PhrasebookNarrator

    init(locale: String, units: DistanceUnits) throws {
        current = try PhrasebookNarrator(locale: locale, units: units)
        book = current.book
        self.units = units
    }

    /// `TextPieces.list` as it was: Character-wise split, generic trim.
    static func list(_ value: String) -> [String] {
        guard !value.isEmpty else { return [] }
        return value.split(separator: ";").map { TextPieces.trimmed($0) }.filter { !$0.isEmpty }
    }

    func instruction(steps: [GuidanceStep], index: Int) -> String {
        guard steps.indices.contains(index) else { return "" }
        return PhrasebookNarrator.capitalized(phrase(steps[index], upcoming: false))
    }

    func phrase(_ step: GuidanceStep, upcoming: Bool) -> String {
        let m = step.maneuver
        var type = m.type.rawValue
        if step.mode == .ferry && m.type != .arrive && m.type != .notification { type = "ferry" }
        let road = roadText(step)
        let destination = destinationText(step)
        let exitNumber = ReferenceNarrator.list(step.exits).first ?? ""
        let ordinal = (m.type == .arrive ? m.waypoint : m.exit).flatMap { book.ordinals[$0] }
        let sideWord = PhrasebookNarrator.side(of: m.modifier).flatMap { book.sides[$0] }
        let subkey = subkey(for: m, type: type)

        var variants: [String] = []
        switch m.type {
        case _ where type == "ferry":
            variants = candidates(road: road, destination: destination)
        case .arrive:
            let stop = ordinal == nil ? [] : (upcoming ? ["upcoming_waypoint", "waypoint"] : ["waypoint"])
            variants = stop + (upcoming ? ["upcoming", "default"] : ["default"])
        case .roundabout, .rotary:
            let prefixes = (m.type == .rotary && !step.rotaryName.isEmpty) ? ["named_", ""] : [""]
            for p in prefixes {
                if ordinal != nil {
                    if !road.isEmpty { variants.append(p + "exit_name") }
                    if !destination.isEmpty { variants.append(p + "exit_destination") }
                    variants.append(p + "exit")
                }
                variants += candidates(road: road, destination: destination).map { p + $0 }
            }
        case .offRamp:
            if !exitNumber.isEmpty {
                if !destination.isEmpty { variants.append("exit_destination") }
                variants.append("exit")
            }
            variants += candidates(road: road, destination: destination, preferDestination: true)
        case .onRamp, .fork, .merge:
            variants = candidates(road: road, destination: destination, preferDestination: true)
        default:
            variants = candidates(road: road, destination: destination)
        }
        let template = book.template(type: type, subkey: subkey, variants: variants)
        let values: KeyValuePairs<String, String> = [
            "road": road, "destination": destination, "exit": exitNumber, "ordinal": ordinal ?? "",
            "rotary": step.rotaryName, "side": sideWord ?? "",
            "direction": book.directions[PhrasebookNarrator.compass(m.bearingAfter)] ?? "",
            "modifier": m.modifier.flatMap { book.modifiers[$0.rawValue] } ?? book.modifiers["straight"] ?? "",
        ]
        return PhrasebookNarrator.fill(template, values)
    }

    private func subkey(for m: Maneuver, type: String) -> String {
        switch m.type {
        case .notification: return m.notice?.rawValue ?? "default"
        case .arrive:
            guard let side = m.side ?? m.modifier else { return "default" }
            return side == .straight ? "straight" : (PhrasebookNarrator.side(of: side) ?? "default")
        case .merge, .onRamp, .offRamp, .fork:
            return PhrasebookNarrator.side(of: m.modifier) == nil ? "straight" : "default"
        default:
            let key = m.modifier?.rawValue ?? "straight"
            return book.hasEntry(type: type, subkey: key) ? key : "default"
        }
    }

    private func candidates(road: String, destination: String, preferDestination: Bool = false) -> [String] {
        var out: [String] = []
        let named = road.isEmpty ? [] : ["name"], towards = destination.isEmpty ? [] : ["destination"]
        out += preferDestination ? towards + named : named + towards
        return out + ["default"]
    }

    func roadText(_ step: GuidanceStep) -> String {
        let name = TextPieces.trimmed(Substring(step.name))
        let refs = ReferenceNarrator.list(step.ref).joined(separator: book.phrases["ref_separator"] ?? " / ")
        if name.isEmpty && refs.isEmpty && !step.roadClass.isMotorClass { return book.phrases["unnamed_" + step.roadClass.osmName] ?? "" }
        if name.isEmpty { return refs }
        if refs.isEmpty || refs == name { return name }
        return PhrasebookNarrator.fill(book.phrases["name_and_ref"] ?? "{name} ({ref})", ["name": name, "ref": refs])
    }

    func destinationText(_ step: GuidanceStep) -> String {
        ReferenceNarrator.list(step.destinations).prefix(3).joined(separator: book.phrases["destination_separator"] ?? ", ")
    }

    // MARK: Voice (VoiceAnnouncements.swift at aa76140)

    func voiceInstructions(steps: [GuidanceStep], index: Int) -> [VoiceInstruction] {
        typealias N = PhrasebookNarrator
        guard steps.indices.contains(index), index + 1 < steps.count else { return [] }
        let step = steps[index], next = steps[index + 1]
        let length = max(0, step.distance.isFinite ? step.distance : 0)
        let speed = N.speed(step)
        func clamp(_ t: (seconds: Double, min: Double, max: Double)) -> Double { min(max(speed * t.seconds, t.min), t.max) }
        let nextPhrase = phrase(next, upcoming: true)
        var thenPhrase: String?
        if index + 2 < steps.count, next.distance < min(max(N.speed(next) * N.chainTiming.seconds, N.chainTiming.min), N.chainTiming.max) {
            thenPhrase = phrase(steps[index + 2], upcoming: true)
        }
        func chained(_ first: String, _ second: String?) -> String {
            guard let second else { return first }
            return N.fill(book.phrases["then"] ?? "{instruction}, {next}", ["instruction": first, "next": second])
        }
        let fullPhrase = chained(nextPhrase, thenPhrase)
        let atPhrase = next.maneuver.type == .arrive ? chained(phrase(next, upcoming: false), thenPhrase) : fullPhrase
        func inDistance(_ meters: Double, _ what: String) -> String {
            let distance = ReferenceSpokenDistance(meters: meters, units: units, book: book)
            return N.fill(book.phrases["in_distance"] ?? "{distance}: {instruction}", ["distance": distance.text, "instruction": what])
        }
        func point(_ target: Double) -> Double {
            let rounded = ReferenceSpokenDistance(meters: target, units: units, book: book).roundedMeters
            return min(rounded <= length ? rounded : target, length)
        }
        let addresses = steps[index...min(index + 2, steps.count - 1)].map { TextPieces.trimmed(Substring($0.name)) }
        let near = clamp(N.nearTiming), early = clamp(N.earlyTiming), at = min(clamp(N.atTiming), length)
        let gap = max(50, 0.3 * near)
        var planned: [(distance: Double, text: String)] = []
        if index == 0 || step.maneuver.type == .depart {
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
        var result: [VoiceInstruction] = []
        for (distance, text) in planned {
            let d = min(max(0, distance), length)
            if let last = result.last, d > last.distanceAlongGeometry - N.minimumSeparation { continue }
            let sentence = N.capitalized(text)
            result.append(VoiceInstruction(distanceAlongGeometry: d, announcement: sentence,
                                           ssmlAnnouncement: SSML.announcement(sentence, addresses: addresses)))
        }
        return result
    }

    // MARK: Banners (BannerInstructions.swift at aa76140; lanes and degrees from the current narrator)

    func bannerInstructions(steps: [GuidanceStep], index: Int) -> [BannerInstruction] {
        typealias N = PhrasebookNarrator
        guard steps.indices.contains(index) else { return [] }
        let step = steps[index]
        let length = max(0, step.distance.isFinite ? step.distance : 0)
        guard index + 1 < steps.count else {
            return [BannerInstruction(distanceAlongGeometry: length, primary: primaryContent(steps: steps, index: index),
                                      secondary: secondaryContent(step))]
        }
        let nextIndex = index + 1
        let primary = primaryContent(steps: steps, index: nextIndex)
        let secondary = secondaryContent(steps[nextIndex])
        let lanes = current.laneContent(steps[nextIndex])
        var following: BannerContent?
        if nextIndex + 1 < steps.count {
            let next = steps[nextIndex]
            let close = min(max(N.speed(next) * N.chainTiming.seconds, N.chainTiming.min), N.chainTiming.max)
            if next.distance < close { following = primaryContent(steps: steps, index: nextIndex + 1) }
        }
        guard let lanes else {
            return [BannerInstruction(distanceAlongGeometry: length, primary: primary, secondary: secondary, sub: following)]
        }
        let laneDistance = min(max(N.speed(step) * N.laneTiming.seconds, N.laneTiming.min), N.laneTiming.max)
        if length - laneDistance < N.minimumSeparation {
            return [BannerInstruction(distanceAlongGeometry: length, primary: primary, secondary: secondary, sub: lanes)]
        }
        return [BannerInstruction(distanceAlongGeometry: length, primary: primary, secondary: secondary, sub: following),
                BannerInstruction(distanceAlongGeometry: laneDistance, primary: primary, secondary: secondary, sub: lanes)]
    }

    func primaryContent(steps: [GuidanceStep], index: Int) -> BannerContent {
        let step = steps[index]
        let m = step.maneuver
        var components: [BannerComponent] = []
        let exitNumber = ReferenceNarrator.list(step.exits).first ?? ""
        if !exitNumber.isEmpty && m.type != .roundabout && m.type != .rotary {
            components.append(BannerComponent(type: "exit", text: book.phrases["exit"] ?? "Exit"))
            components.append(BannerComponent(type: "exit-number", text: exitNumber))
        }
        let refs = ReferenceNarrator.list(step.ref)
        let name = TextPieces.trimmed(Substring(step.name))
        var roadParts: [BannerComponent] = refs.map { BannerComponent(type: "icon", text: $0) }
        if !name.isEmpty && !refs.contains(name) { roadParts.append(BannerComponent(type: "text", text: name)) }
        if roadParts.isEmpty && m.type != .arrive, let destination = ReferenceNarrator.list(step.destinations).first {
            roadParts.append(BannerComponent(type: "text", text: destination))
        }
        for (i, part) in roadParts.enumerated() {
            if i > 0 { components.append(BannerComponent(type: "delimiter", text: "/")) }
            components.append(part)
        }
        if roadParts.isEmpty {
            components.append(BannerComponent(type: "text", text: PhrasebookNarrator.capitalized(phrase(step, upcoming: false))))
        }
        let modifier = m.type == .arrive ? (m.side ?? m.modifier) : m.modifier
        return BannerContent(text: components.map(\.text).joined(separator: " "), type: m.type.rawValue, modifier: modifier?.rawValue,
                             degrees: current.roundaboutDegrees(steps: steps, index: index), drivingSide: step.drivingSide,
                             components: components)
    }

    func secondaryContent(_ step: GuidanceStep) -> BannerContent? {
        let destinations = ReferenceNarrator.list(step.destinations)
        let hasRoad = !TextPieces.trimmed(Substring(step.name)).isEmpty || !ReferenceNarrator.list(step.ref).isEmpty
        guard hasRoad, !destinations.isEmpty, step.maneuver.type != .arrive else { return nil }
        var components: [BannerComponent] = []
        for (i, d) in destinations.enumerated() {
            if i > 0 { components.append(BannerComponent(type: "delimiter", text: "/")) }
            components.append(BannerComponent(type: "text", text: d))
        }
        return BannerContent(text: components.map(\.text).joined(separator: " "), type: step.maneuver.type.rawValue,
                             modifier: step.maneuver.modifier?.rawValue, components: components)
    }
}

/// `SpokenDistance` as it was at aa76140: rounding and words in one, from the phrasebook's dictionaries.
struct ReferenceSpokenDistance: Equatable {
    let text: String
    let roundedMeters: Double

    init(meters: Double, units: DistanceUnits, book: Phrasebook) {
        let meters = min(max(0, meters.isFinite ? meters : 0), 1e9)
        switch units {
        case .metric: self = Self.metric(meters, book)
        case .imperial: self = Self.imperial(meters, book)
        }
    }

    private init(text: String, roundedMeters: Double) { self.text = text; self.roundedMeters = roundedMeters }

    private static func metric(_ m: Double, _ book: Phrasebook) -> ReferenceSpokenDistance {
        let step: Double = m < 100 ? 10 : 50
        let rounded = max(step, (m / step).rounded() * step)
        if rounded < 1000 {
            return .init(text: fill(book.distances["meters"], count: number(rounded, decimals: 0, book)), roundedMeters: rounded)
        }
        let km = m < 10_000 ? (m / 100).rounded() / 10 : (m / 1000).rounded()
        if km == 1 { return .init(text: book.distances["kilometer_one"] ?? "1 km", roundedMeters: 1000) }
        let decimals = km == km.rounded() ? 0 : 1
        return .init(text: fill(book.distances["kilometers"], count: number(km, decimals: decimals, book)), roundedMeters: km * 1000)
    }

    private static func imperial(_ m: Double, _ book: Phrasebook) -> ReferenceSpokenDistance {
        let miles = m / SpokenDistance.metresPerMile
        if miles < 0.2 {
            let feet = m / SpokenDistance.metresPerFoot
            let step: Double = feet < 100 ? 10 : (feet < 500 ? 50 : 100)
            let rounded = max(step, (feet / step).rounded() * step)
            return .init(text: fill(book.distances["feet"], count: number(rounded, decimals: 0, book)),
                         roundedMeters: rounded * SpokenDistance.metresPerFoot)
        }
        let fractions: [(limit: Double, miles: Double, key: String)] = [
            (0.375, 0.25, "mile_quarter"), (0.625, 0.5, "mile_half"), (0.875, 0.75, "mile_three_quarters"), (1.25, 1, "mile_one"),
        ]
        if let f = fractions.first(where: { miles < $0.limit }) {
            return .init(text: book.distances[f.key] ?? "\(f.miles) mi", roundedMeters: f.miles * SpokenDistance.metresPerMile)
        }
        let rounded = miles < 10 ? (miles * 2).rounded() / 2 : miles.rounded()
        let decimals = rounded == rounded.rounded() ? 0 : 1
        return .init(text: fill(book.distances["miles"], count: number(rounded, decimals: decimals, book)),
                     roundedMeters: rounded * SpokenDistance.metresPerMile)
    }

    private static func fill(_ template: String?, count: String) -> String {
        PhrasebookNarrator.fill(template ?? "{count}", ["count": count])
    }

    static func number(_ value: Double, decimals: Int, _ book: Phrasebook) -> String {
        let scaled = Int((value * (decimals == 0 ? 1 : 10)).rounded())
        let whole = decimals == 0 ? scaled : scaled / 10
        var digits = String(whole)
        if whole >= 1000, !book.thousandsSeparator.isEmpty {
            var grouped = ""
            for (i, ch) in digits.reversed().enumerated() {
                if i > 0 && i % 3 == 0 { grouped.append(contentsOf: book.thousandsSeparator.reversed()) }
                grouped.append(ch)
            }
            digits = String(grouped.reversed())
        }
        if decimals == 0 { return digits }
        return digits + book.decimalSeparator + String(scaled % 10)
    }
}
