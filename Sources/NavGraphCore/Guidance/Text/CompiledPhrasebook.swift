/// One phrasebook's templates compiled once, when the phrasebook is loaded: maneuver templates in tables indexed by
/// type, subkey and variant number, phrase templates, value words as UTF-8, and spoken distances precomputed.
/// Immutable; the narrator reads it from any thread.
package final class CompiledPhrasebook: Sendable {
    /// The slots of a maneuver template, in `maneuverKeys` order.
    enum Slot: Int, CaseIterable {
        case road, destination, exit, ordinal, rotary, side, direction, modifier
    }
    package static let maneuverKeys = ["road", "destination", "exit", "ordinal", "rotary", "side", "direction", "modifier"]

    /// The maneuver types with entries: the wire types, then `ferry`.
    package static let types = ManeuverType.allCases.map(\.rawValue) + ["ferry"]
    static let ferryType = ManeuverType.allCases.count
    /// Every subkey the narrator asks for: default, the modifiers, the arrival sides, the notices.
    package static let subkeys = ["default", "straight", "left", "right"]
        + ManeuverModifier.allCases.map(\.rawValue).filter { !["straight", "left", "right"].contains($0) }
        + ["toll", "ferry", "ferry_end", "push_bike", "push_bike_end"]
    /// Every variant the narrator asks for.
    package static let variants = ["default", "name", "destination", "exit", "exit_name", "exit_destination",
                                   "waypoint", "upcoming_waypoint", "upcoming"]
        + ["default", "name", "destination", "exit", "exit_name", "exit_destination"].map { "named_" + $0 }

    /// Variant numbers (indices of `variants`).
    package enum Variant {
        static let `default` = 0, name = 1, destination = 2, exit = 3, exitName = 4, exitDestination = 5
        static let waypoint = 6, upcomingWaypoint = 7, upcoming = 8
        /// The `named_` form of the first six.
        static let named = 9
    }

    /// Subkey number of a string (a linear scan of 14: used only where a subkey comes from data).
    package static func subkey(_ key: String) -> Int? { subkeys.firstIndex(of: key) }
    package static let subkeyOfModifier = ManeuverModifier.allCases.map { subkeys.firstIndex(of: $0.rawValue) ?? 0 }
    /// The notices in `PhrasebookNarrator.noticeNumber` order, and their subkey numbers.
    package static let notices: [GuidanceNotice] = [.tollRoad, .ferry, .leavingFerry, .pushBike, .rideBike]
    static let subkeyOfNotice = notices.map { subkeys.firstIndex(of: $0.rawValue) ?? 0 }

    /// `maneuvers[type][subkey]` exists (`Phrasebook.hasEntry`), by `type * subkeys.count + subkey`.
    private let present: ContiguousArray<Bool>
    /// The entry a lookup of (type, subkey) reads after the phrasebook's fallbacks (`Phrasebook.template`):
    /// an index into `entries`, -1 for none (the empty template).
    private let resolved: ContiguousArray<Int32>
    /// Per entry, per variant number: the compiled template, nil when the entry has no such variant.
    private let entries: ContiguousArray<ContiguousArray<CompiledTemplate?>>
    private let emptyTemplate = CompiledTemplate("", keys: [])

    /// Value words: directions by `Phrasebook.requiredDirections` order, modifiers by `ManeuverModifier.allCases`
    /// order (then the word for no modifier), sides left and right, ordinals 0...`ordinalLimit` (nil: none).
    package let directions: ContiguousArray<ContiguousArray<UInt8>>
    package let modifiers: ContiguousArray<ContiguousArray<UInt8>>
    package let sides: ContiguousArray<ContiguousArray<UInt8>?>
    private let smallOrdinals: ContiguousArray<ContiguousArray<UInt8>?>
    private let largeOrdinals: [Int: ContiguousArray<UInt8>]
    private static let ordinalLimit = 32

    /// Phrases: `ref_separator`, `destination_separator`, `unnamed_<class>` by `RoadClass.rawValue`.
    let refSeparator: String
    let destinationSeparator: String
    package let unnamed: ContiguousArray<ContiguousArray<UInt8>?>
    /// `name_and_ref` (slots name, ref), `then` (instruction, next), `in_distance` (distance, instruction).
    let nameAndRef: CompiledTemplate
    package let then: CompiledTemplate
    package let inDistance: CompiledTemplate

    /// Spoken distances, precomputed: metres and feet by tenth of their value, kilometres by tenths, miles by halves.
    private let meters: PhraseTable, feet: PhraseTable, kilometers: PhraseTable, miles: PhraseTable, mileFractions: PhraseTable
    private let words: SpokenDistance.Words

    /// Compiles the parts of a phrasebook (`Phrasebook`'s properties of the same names).
    init(maneuvers: [String: [String: [String: String]]], phrases: [String: String], directions: [String: String],
                 modifiers: [String: String], sides: [String: String], ordinals: [Int: String], words: SpokenDistance.Words) {
        let typeCount = Self.types.count, subkeyCount = Self.subkeys.count
        var present = ContiguousArray<Bool>(repeating: false, count: typeCount * subkeyCount)
        var resolved = ContiguousArray<Int32>(repeating: -1, count: typeCount * subkeyCount)
        var entries = ContiguousArray<ContiguousArray<CompiledTemplate?>>()
        var entryIndex: [String: Int32] = [:] // "type\u{0}subkey" of an entry compiled already
        func compiledEntry(type: String, subkey: String, _ templates: [String: String]) -> Int32 {
            let id = type + "\u{0}" + subkey
            if let index = entryIndex[id] { return index }
            entries.append(ContiguousArray(Self.variants.map { variant in
                templates[variant].map { CompiledTemplate($0, keys: Self.maneuverKeys) }
            }))
            entryIndex[id] = Int32(entries.count - 1)
            return Int32(entries.count - 1)
        }
        for (t, type) in Self.types.enumerated() {
            let entryType = maneuvers[type] != nil ? type : "turn"
            let typeEntries = maneuvers[entryType] ?? [:]
            for (s, subkey) in Self.subkeys.enumerated() {
                present[t * subkeyCount + s] = maneuvers[type]?[subkey] != nil
                if let templates = typeEntries[subkey] {
                    resolved[t * subkeyCount + s] = compiledEntry(type: entryType, subkey: subkey, templates)
                } else if let templates = typeEntries["default"] {
                    resolved[t * subkeyCount + s] = compiledEntry(type: entryType, subkey: "default", templates)
                }
            }
        }
        self.present = present; self.resolved = resolved; self.entries = entries

        func bytes(_ text: String) -> ContiguousArray<UInt8> { ContiguousArray(text.utf8) }
        self.directions = ContiguousArray(Phrasebook.requiredDirections.map { bytes(directions[$0] ?? "") })
        let straight = modifiers["straight"] ?? ""
        self.modifiers = ContiguousArray(ManeuverModifier.allCases.map { bytes(modifiers[$0.rawValue] ?? straight) } + [bytes(straight)])
        self.sides = [sides["left"].map(bytes), sides["right"].map(bytes)]
        smallOrdinals = ContiguousArray((0...Self.ordinalLimit).map { ordinals[$0].map(bytes) })
        largeOrdinals = ordinals.filter { $0.key > Self.ordinalLimit || $0.key < 0 }.mapValues(bytes)

        refSeparator = phrases["ref_separator"] ?? " / "
        destinationSeparator = phrases["destination_separator"] ?? ", "
        unnamed = ContiguousArray((0...(RoadClass.allCases.map { Int($0.rawValue) }.max() ?? 0)).map { raw in
            RoadClass(rawValue: UInt8(raw)).flatMap { phrases["unnamed_" + $0.osmName] }.map(bytes)
        })
        nameAndRef = CompiledTemplate(phrases["name_and_ref"] ?? "{name} ({ref})", keys: ["name", "ref"])
        then = CompiledTemplate(phrases["then"] ?? "{instruction}, {next}", keys: ["instruction", "next"])
        inDistance = CompiledTemplate(phrases["in_distance"] ?? "{distance}: {instruction}", keys: ["distance", "instruction"])

        meters = PhraseTable(count: 100) { SpokenDistance.text(.meters($0 * 10), words) }
        feet = PhraseTable(count: 111) { SpokenDistance.text(.feet($0 * 10), words) }
        kilometers = PhraseTable(count: 2001) { SpokenDistance.text(.kilometers(tenths: $0), words) }
        miles = PhraseTable(count: 401) { SpokenDistance.text(.miles(halves: $0), words) }
        mileFractions = PhraseTable(count: SpokenDistance.mileFractions.count) { SpokenDistance.text(.mileFraction($0), words) }
        self.words = words
    }

    // MARK: Lookups

    /// `Phrasebook.hasEntry(type:subkey:)` by numbers.
    @inline(__always) package func hasEntry(type: Int, subkey: Int) -> Bool { present[type * Self.subkeys.count + subkey] }

    /// The templates a (type, subkey) lookup reads, nil for none (every variant then gives the empty template).
    @inline(__always) package func entry(type: Int, subkey: Int) -> ContiguousArray<CompiledTemplate?>? {
        let index = resolved[type * Self.subkeys.count + subkey]
        return index < 0 ? nil : entries[Int(index)]
    }

    /// The empty template (a lookup that finds nothing).
    package var empty: CompiledTemplate { emptyTemplate }

    /// The ordinal word for `n`, nil when the phrasebook has none.
    @inline(__always) package func ordinal(_ n: Int) -> ContiguousArray<UInt8>? {
        n >= 0 && n <= Self.ordinalLimit ? smallOrdinals[n] : largeOrdinals[n]
    }

    /// Appends the words of a spoken distance; returns their range.
    func appendDistance(_ phrase: SpokenDistance.Phrase, to arena: TextArena) -> Range<Int> {
        switch phrase {
        case .meters(let n) where n % 10 == 0: if let r = meters.append(n / 10, to: arena) { return r }
        case .feet(let n) where n % 10 == 0: if let r = feet.append(n / 10, to: arena) { return r }
        case .kilometers(let tenths): if let r = kilometers.append(tenths, to: arena) { return r }
        case .miles(let halves): if let r = miles.append(halves, to: arena) { return r }
        case .mileFraction(let i): if let r = mileFractions.append(i, to: arena) { return r }
        default: break
        }
        return arena.append(SpokenDistance.text(phrase, words))
    }

    /// The words of a spoken distance as a String.
    func distanceText(_ phrase: SpokenDistance.Phrase) -> String {
        let arena = TextArena(capacity: 64)
        return arena.string(appendDistance(phrase, to: arena))
    }
}

/// A precomputed list of phrases by number, stored as one byte blob.
private struct PhraseTable: Sendable {
    private let bytes: ContiguousArray<UInt8>
    private let offsets: ContiguousArray<Int32>

    init(count: Int, _ make: (Int) -> String) {
        var bytes = ContiguousArray<UInt8>(), offsets = ContiguousArray<Int32>([0])
        for i in 0..<count {
            bytes.append(contentsOf: make(i).utf8)
            offsets.append(Int32(bytes.count))
        }
        self.bytes = bytes; self.offsets = offsets
    }

    /// Appends phrase `i`, nil when it is outside the table.
    func append(_ i: Int, to arena: TextArena) -> Range<Int>? {
        guard i >= 0 && i + 1 < offsets.count else { return nil }
        return bytes.withUnsafeBufferPointer { arena.append(UnsafeBufferPointer(rebasing: $0[Int(offsets[i])..<Int(offsets[i + 1])])) }
    }
}
