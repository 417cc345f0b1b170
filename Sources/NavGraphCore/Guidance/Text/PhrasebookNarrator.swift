import Foundation

/// The `StepNarrator` of the bundled phrasebooks: instructions, voice announcements and banners for one locale and
/// unit system. Immutable; build one per request (phrasebooks are cached per process).
public struct PhrasebookNarrator: StepNarrator {
    public let voiceLocale: String
    public let units: DistanceUnits
    package let book: Phrasebook

    /// The tags that have a phrasebook of their own; other tags fall back to their language, then to English.
    public static var supportedLocales: [String] { Phrasebook.supportedLocales }

    /// The narrator for a BCP-47 tag ("pt-BR" falls back to "pt", "xx" to "en"); throws `.invalidInput` for a
    /// malformed phrasebook and `.badFile` when none can be found, never for an unknown locale.
    public init(locale: String, units: DistanceUnits) throws {
        self.init(phrasebook: try Phrasebook.load(locale: locale), units: units)
    }

    public init(phrasebook: Phrasebook, units: DistanceUnits) {
        book = phrasebook; voiceLocale = phrasebook.locale; self.units = units
    }

    public func instruction(steps: [GuidanceStep], index: Int) -> String {
        guard steps.indices.contains(index) else { return "" }
        return Self.capitalized(phrase(steps[index], upcoming: false))
    }

    // MARK: Phrases (mid-sentence form, not capitalized)

    /// The maneuver of `step` in words; `upcoming` asks for the future form where the language has one (arrival).
    package func phrase(_ step: GuidanceStep, upcoming: Bool) -> String {
        let m = step.maneuver
        var type = m.type.rawValue
        if step.mode == .ferry && m.type != .arrive && m.type != .notification { type = "ferry" }
        let road = roadText(step)
        let destination = destinationText(step)
        let exitNumber = TextPieces.list(step.exits).first ?? ""
        let ordinal = (m.type == .arrive ? m.waypoint : m.exit).flatMap { book.ordinals[$0] }
        let sideWord = Self.side(of: m.modifier).flatMap { book.sides[$0] }
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
            "rotary": step.rotaryName, "side": sideWord ?? "", "direction": book.directions[Self.compass(m.bearingAfter)] ?? "",
            "modifier": m.modifier.flatMap { book.modifiers[$0.rawValue] } ?? book.modifiers["straight"] ?? "",
        ]
        return Self.fill(template, values)
    }

    /// Which entry of the type applies: the notice, the arrival side, the modifier; types that speak of a side
    /// ({side}) use their `straight` entry when the modifier has none.
    private func subkey(for m: Maneuver, type: String) -> String {
        switch m.type {
        case .notification: return m.notice?.rawValue ?? "default"
        case .arrive:
            guard let side = m.side ?? m.modifier else { return "default" }
            return side == .straight ? "straight" : (Self.side(of: side) ?? "default")
        case .merge, .onRamp, .offRamp, .fork:
            return Self.side(of: m.modifier) == nil ? "straight" : "default"
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

    /// "Name (ref)", "Name", "A 8 / E 52"; for an unnamed cycleway, footway, path, steps or pedestrian street the
    /// phrasebook's word for it (`phrases.unnamed_<class>`: "the cycleway"); else "".
    package func roadText(_ step: GuidanceStep) -> String {
        let name = TextPieces.trimmed(step.name)
        let refs = refList(step).joined(separator: book.phrases["ref_separator"] ?? " / ")
        if name.isEmpty && refs.isEmpty && !step.roadClass.isMotorClass { return book.phrases["unnamed_" + step.roadClass.osmName] ?? "" }
        if name.isEmpty { return refs }
        if refs.isEmpty || refs == name { return name }
        return Self.fill(book.phrases["name_and_ref"] ?? "{name} ({ref})", ["name": name, "ref": refs])
    }

    package func refList(_ step: GuidanceStep) -> [String] {
        TextPieces.list(step.ref)
    }

    /// The signposted destinations, at most three, joined with the language's separator.
    package func destinationText(_ step: GuidanceStep) -> String {
        let parts = TextPieces.list(step.destinations)
        return parts.prefix(3).joined(separator: book.phrases["destination_separator"] ?? ", ")
    }

    // MARK: Helpers

    /// "left" or "right" for modifiers that lean to a side, nil for straight, U-turn or none.
    package static func side(of modifier: ManeuverModifier?) -> String? {
        switch modifier {
        case .left, .slightLeft, .sharpLeft: "left"
        case .right, .slightRight, .sharpRight: "right"
        default: nil
        }
    }

    /// The compass word key for a bearing (north, northeast, ...).
    package static func compass(_ bearing: Int) -> String {
        let names = Phrasebook.requiredDirections
        let normalized = ((Double(bearing).truncatingRemainder(dividingBy: 360)) + 360).truncatingRemainder(dividingBy: 360)
        return names[Int((normalized + 22.5) / 45) % 8]
    }

    /// Replaces each `{key}` of `values` in `template` (values are inserted verbatim, never re-scanned).
    package static func fill(_ template: String, _ values: KeyValuePairs<String, String>) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                out += rest[open...]; rest = rest[rest.endIndex...]; break
            }
            let key = String(rest[rest.index(after: open)..<close])
            if let value = values.first(where: { $0.key == key })?.value { out += value } else { out += rest[open...close] }
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return TextPieces.collapsedSpaces(out)
    }

    /// The sentence with its first letter upper-cased.
    package static func capitalized(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }
}
