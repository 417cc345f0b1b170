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
        let arena = TextArena.take()
        defer { TextArena.give(arena) }
        return arena.capitalizedString(writePhrase(steps[index], upcoming: false, arena))
    }

    /// The instruction written into the thread's `TextArena` and handed over from there: no String is made.
    public func withInstruction(steps: [GuidanceStep], index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard steps.indices.contains(index) else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        let arena = TextArena.take()
        defer { TextArena.give(arena) }
        let sentence = arena.appendCapitalized(writePhrase(steps[index], upcoming: false, arena))
        body(arena.bytes(sentence))
    }

    /// `capitalized(phrase(step, upcoming: false))`: the step's instruction.
    func capitalizedPhrase(_ step: GuidanceStep) -> String {
        let arena = TextArena.take()
        defer { TextArena.give(arena) }
        return arena.capitalizedString(writePhrase(step, upcoming: false, arena))
    }

    // MARK: Phrases (mid-sentence form, not capitalized)

    /// The maneuver of `step` in words; `upcoming` asks for the future form where the language has one (arrival).
    package func phrase(_ step: GuidanceStep, upcoming: Bool) -> String {
        let arena = TextArena.take()
        defer { TextArena.give(arena) }
        return arena.string(writePhrase(step, upcoming: upcoming, arena))
    }

    /// `phrase(step, upcoming:)` appended to `arena` from the compiled templates; returns its range.
    func writePhrase(_ step: GuidanceStep, upcoming: Bool, _ arena: TextArena) -> Range<Int> {
        typealias C = CompiledPhrasebook
        let compiled = book.compiled
        let m = step.maneuver
        let ferry = step.mode == .ferry && m.type != .arrive && m.type != .notification
        let type = ferry ? C.ferryType : Self.typeNumber(m.type)
        let road = writeRoad(step, arena)
        let destination = arena.appendList(step.destinations, separator: compiled.destinationSeparator, limit: 3)
        let exitNumber = arena.appendList(step.exits, separator: "", limit: 1)
        let ordinal = (m.type == .arrive ? m.waypoint : m.exit).flatMap { compiled.ordinal($0) }
        let subkey = subkeyNumber(for: m, type: type)

        var template = compiled.empty
        if let entry = compiled.entry(type: type, subkey: subkey) {
            // The first variant the entry has, in the order the step asks for them; else the entry's default.
            var found = -1
            func offer(_ variant: Int) { if found < 0 && entry[variant] != nil { found = variant } }
            func candidates(prefix: Int = 0, preferDestination: Bool = false) {
                if preferDestination {
                    if !destination.isEmpty { offer(prefix + C.Variant.destination) }
                    if !road.isEmpty { offer(prefix + C.Variant.name) }
                } else {
                    if !road.isEmpty { offer(prefix + C.Variant.name) }
                    if !destination.isEmpty { offer(prefix + C.Variant.destination) }
                }
                offer(prefix + C.Variant.default)
            }
            switch m.type {
            case _ where ferry:
                candidates()
            case .arrive:
                if ordinal != nil {
                    if upcoming { offer(C.Variant.upcomingWaypoint) }
                    offer(C.Variant.waypoint)
                }
                if upcoming { offer(C.Variant.upcoming) }
                offer(C.Variant.default)
            case .roundabout, .rotary:
                func roundabout(prefix p: Int) {
                    if ordinal != nil {
                        if !road.isEmpty { offer(p + C.Variant.exitName) }
                        if !destination.isEmpty { offer(p + C.Variant.exitDestination) }
                        offer(p + C.Variant.exit)
                    }
                    candidates(prefix: p)
                }
                if m.type == .rotary && !step.rotaryName.isEmpty { roundabout(prefix: C.Variant.named) }
                roundabout(prefix: 0)
            case .offRamp:
                if !exitNumber.isEmpty {
                    if !destination.isEmpty { offer(C.Variant.exitDestination) }
                    offer(C.Variant.exit)
                }
                candidates(preferDestination: true)
            case .onRamp, .fork, .merge:
                candidates(preferDestination: true)
            default:
                candidates()
            }
            if found >= 0, let t = entry[found] { template = t } else if let t = entry[C.Variant.default] { template = t }
        }

        var values = SlotValues()
        values[C.Slot.road.rawValue] = road
        values[C.Slot.destination.rawValue] = destination
        values[C.Slot.exit.rawValue] = exitNumber
        if template.uses(C.Slot.ordinal.rawValue), let ordinal { values[C.Slot.ordinal.rawValue] = arena.append(ordinal) }
        if template.uses(C.Slot.rotary.rawValue) { values[C.Slot.rotary.rawValue] = arena.append(step.rotaryName) }
        if template.uses(C.Slot.side.rawValue), let side = Self.sideNumber(of: m.modifier), let word = compiled.sides[side] {
            values[C.Slot.side.rawValue] = arena.append(word)
        }
        if template.uses(C.Slot.direction.rawValue) {
            values[C.Slot.direction.rawValue] = arena.append(compiled.directions[Self.compassNumber(m.bearingAfter)])
        }
        if template.uses(C.Slot.modifier.rawValue) {
            let word = m.modifier.map(Self.modifierNumber) ?? ManeuverModifier.allCases.count
            values[C.Slot.modifier.rawValue] = arena.append(compiled.modifiers[word])
        }
        return arena.fill(template, values)
    }

    /// Which entry of the type applies: the notice, the arrival side, the modifier; types that speak of a side
    /// ({side}) use their `straight` entry when the modifier has none. A number of `CompiledPhrasebook.subkeys`.
    private func subkeyNumber(for m: Maneuver, type: Int) -> Int {
        let defaultKey = 0, straightKey = 1
        switch m.type {
        case .notification: return m.notice.map(Self.noticeSubkey) ?? defaultKey
        case .arrive:
            guard let side = m.side ?? m.modifier else { return defaultKey }
            return side == .straight ? straightKey : (Self.sideNumber(of: side).map { 2 + $0 } ?? defaultKey)
        case .merge, .onRamp, .offRamp, .fork:
            return Self.side(of: m.modifier) == nil ? straightKey : defaultKey
        default:
            let key = m.modifier.map { CompiledPhrasebook.subkeyOfModifier[Self.modifierNumber($0)] } ?? straightKey
            return book.compiled.hasEntry(type: type, subkey: key) ? key : defaultKey
        }
    }

    /// `roadText(step)` appended to `arena`; returns its range.
    func writeRoad(_ step: GuidanceStep, _ arena: TextArena) -> Range<Int> {
        let compiled = book.compiled
        let name = arena.appendTrimmed(step.name)
        let refs = arena.appendList(step.ref, separator: compiled.refSeparator)
        if name.isEmpty && refs.isEmpty && !step.roadClass.isMotorClass {
            let raw = Int(step.roadClass.rawValue)
            guard compiled.unnamed.indices.contains(raw), let word = compiled.unnamed[raw] else { return arena.count..<arena.count }
            return arena.append(word)
        }
        if name.isEmpty { return refs }
        if refs.isEmpty || arena.sameText(refs, name) { return name }
        var values = SlotValues()
        values[0] = name
        values[1] = refs
        return arena.fill(compiled.nameAndRef, values)
    }

    /// "Name (ref)", "Name", "A 8 / E 52"; for an unnamed cycleway, footway, path, steps or pedestrian street the
    /// phrasebook's word for it (`phrases.unnamed_<class>`: "the cycleway"); else "".
    package func roadText(_ step: GuidanceStep) -> String {
        let arena = TextArena.take()
        defer { TextArena.give(arena) }
        return arena.string(writeRoad(step, arena))
    }

    func refList(_ step: GuidanceStep) -> [String] {
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
        Phrasebook.requiredDirections[compassNumber(bearing)]
    }

    /// The index of `compass(bearing)` in `Phrasebook.requiredDirections`.
    package static func compassNumber(_ bearing: Int) -> Int {
        let normalized = ((Double(bearing).truncatingRemainder(dividingBy: 360)) + 360).truncatingRemainder(dividingBy: 360)
        return Int((normalized + 22.5) / 45) % 8
    }

    /// 0 for "left", 1 for "right" (`side(of:)`), nil for straight, U-turn or none.
    package static func sideNumber(of modifier: ManeuverModifier?) -> Int? {
        switch modifier {
        case .left, .slightLeft, .sharpLeft: 0
        case .right, .slightRight, .sharpRight: 1
        default: nil
        }
    }

    /// The index of `type` in `ManeuverType.allCases` (the compiled tables' type number).
    package static func typeNumber(_ type: ManeuverType) -> Int {
        switch type {
        case .depart: 0
        case .arrive: 1
        case .turn: 2
        case .newName: 3
        case .continue: 4
        case .merge: 5
        case .onRamp: 6
        case .offRamp: 7
        case .fork: 8
        case .endOfRoad: 9
        case .roundabout: 10
        case .rotary: 11
        case .exitRoundabout: 12
        case .exitRotary: 13
        case .roundaboutTurn: 14
        case .notification: 15
        }
    }

    /// The index of `modifier` in `ManeuverModifier.allCases`.
    package static func modifierNumber(_ modifier: ManeuverModifier) -> Int {
        switch modifier {
        case .uturn: 0
        case .sharpRight: 1
        case .right: 2
        case .slightRight: 3
        case .straight: 4
        case .slightLeft: 5
        case .left: 6
        case .sharpLeft: 7
        }
    }

    /// The subkey number of a notice.
    package static func noticeSubkey(_ notice: GuidanceNotice) -> Int {
        CompiledPhrasebook.subkeyOfNotice[noticeNumber(notice)]
    }

    /// The index of `notice` in `CompiledPhrasebook.notices`.
    package static func noticeNumber(_ notice: GuidanceNotice) -> Int {
        switch notice {
        case .tollRoad: 0
        case .ferry: 1
        case .leavingFerry: 2
        case .pushBike: 3
        case .rideBike: 4
        }
    }

    /// Replaces each `{key}` of `values` in `template` (values are inserted verbatim, never re-scanned). The
    /// reference the compiled templates are filled by (`CompiledTemplate`); the narrator itself does not call it.
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
