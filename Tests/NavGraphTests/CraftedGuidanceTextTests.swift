import Foundation
import Testing
@testable import NavGraphCore

/// The compiled phrasebook against the String narrator it replaced (`ReferenceNarrator`, `referenceFill`): every
/// template of every language filled with awkward values, crafted templates where literal runs and slots could
/// diverge (slots at the ends, adjacent slots, empty values, spaces collapsing around them, unknown keys, broken
/// braces, combining marks next to spaces), generated routes in all languages and both unit systems, spoken
/// distances, the byte helpers, and the per-thread arenas under concurrency. Hand-made inputs only (checked tier).
@Suite struct CraftedGuidanceTextTests {
    typealias F = GuidanceTextFixtures

    /// `PhrasebookNarrator.fill` with its values in an array (KeyValuePairs cannot be built at run time): the same
    /// parse, the same first-match lookup, the same collapse.
    static func referenceFill(_ template: String, _ values: [(String, String)]) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                out += rest[open...]; rest = rest[rest.endIndex...]; break
            }
            let key = String(rest[rest.index(after: open)..<close])
            if let value = values.first(where: { $0.0 == key })?.1 { out += value } else { out += rest[open...close] }
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        return TextPieces.collapsedSpaces(out)
    }

    /// Values that make filling hard: empty, spaces at either end or doubled, only spaces, a tab, combining marks
    /// right after a space, a prepended letter before one (U+0600), braces, non-ASCII letters.
    static let awkwardValues = ["", "Via Roma", " Via Roma", "Via Roma ", " ", "  ", "Via  Roma", "Città", "e\u{301}",
                                " \u{301}x", "\u{301}", "x\u{600} ", "A 8 / E 80", "Nice, Menton", "{road}", "a{b", "  lead",
                                "trail  ", "\t", "ß", "straße", "é", "\u{600} x", "x \u{20E3}", "🇮🇹 Roma", "x  \u{301}"]

    /// A seeded generator (SplitMix64), so failures repeat.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Fills `template` both ways with `values` (by key) and returns both results.
    static func both(_ template: String, keys: [String], _ values: [String]) -> (compiled: String, reference: String) {
        let compiled = CompiledTemplate(template, keys: keys)
        let arena = TextArena()
        var slots = SlotValues()
        for (slot, value) in values.enumerated() { slots[slot] = arena.append(value) }
        let filled = arena.string(arena.fill(compiled, slots))
        return (filled, referenceFill(template, Array(zip(keys, values))))
    }

    static func templates(of book: Phrasebook) -> [(template: String, keys: [String])] {
        var out: [(String, [String])] = []
        for (_, entries) in book.maneuvers.sorted(by: { $0.key < $1.key }) {
            for (_, variants) in entries.sorted(by: { $0.key < $1.key }) {
                for (_, template) in variants.sorted(by: { $0.key < $1.key }) { out.append((template, CompiledPhrasebook.maneuverKeys)) }
            }
        }
        for (key, keys) in [("name_and_ref", ["name", "ref"]), ("then", ["instruction", "next"]), ("in_distance", ["distance", "instruction"])] {
            if let t = book.phrases[key] { out.append((t, keys)) }
        }
        for (_, t) in book.distances.sorted(by: { $0.key < $1.key }) { out.append((t, ["count"])) }
        return out
    }

    /// Every template of every phrasebook, filled with every awkward value in every slot and with random mixes.
    @Test(arguments: PhrasebookNarrator.supportedLocales)
    func everyTemplateFillsAsTheStringFillDid(locale: String) throws {
        let book = try Phrasebook.load(locale: locale)
        var random = Seeded(state: 41)
        var checked = 0
        for (template, keys) in Self.templates(of: book) {
            var valueSets: [[String]] = [keys.map { _ in "" }, keys.map { _ in "X" }]
            for value in Self.awkwardValues { valueSets.append(keys.map { _ in value }) }
            for _ in 0..<24 { valueSets.append(keys.map { _ in Self.awkwardValues.randomElement(using: &random) ?? "" }) }
            for values in valueSets {
                let (compiled, reference) = Self.both(template, keys: keys, values)
                #expect(Array(compiled.utf8) == Array(reference.utf8), "\(locale) \(template) \(values)")
                checked += 1
            }
        }
        #expect(checked > 5000)
    }

    /// Templates written to break a compiler: slots at the start and end, adjacent slots, spaces around slots that
    /// may be empty, doubled spaces inside and at the ends of literals, unknown keys, unclosed and nested braces.
    @Test func craftedTemplatesFillAsTheStringFillDid() {
        let keys = ["a", "b", "c"]
        let templates = ["{a}", "{a}{b}", "{a}{b}{c}", "{a} {b}", " {a} ", "  {a}  x  ", "x {a}  {b} y", "{zz} {a}", "{a",
                         "{{a}}", "}{a}{", "a  b {a}", "{a}\u{301}", " \u{301}{a}", "{a}  ", "", "   ", "{b} abbiegen",
                         "turn {a} onto {b}", "x {a} {b} {c} y", "{a} {} {b}", "{}", "{a}{", "{ a }", "{a}}{b}", "\u{600} {a}",
                         "{a} \u{301}", "x{a}x", "  ", "{c}, {a} ({b})", "{a} {b}\t{c}", "é  {a}  é", "x\u{600}  {a}"]
        var checked = 0
        for template in templates {
            for x in Self.awkwardValues {
                for y in ["", " ", "Y", " Y ", "\u{301}"] {
                    for z in ["", "Z  z", "  "] {
                        let (compiled, reference) = Self.both(template, keys: keys, [x, y, z])
                        #expect(Array(compiled.utf8) == Array(reference.utf8), "\(template.debugDescription) \([x, y, z].debugDescription)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 10000)
        #expect(CompiledTemplate("{a} {b}", keys: keys).usedSlots == 0b11)
        #expect(CompiledTemplate("{c} {zz}", keys: keys).usedSlots == 0b100)
    }

    /// The numbers the compiled tables are indexed by follow `allCases`.
    @Test func tableNumbersFollowTheCases() {
        for (i, type) in ManeuverType.allCases.enumerated() { #expect(PhrasebookNarrator.typeNumber(type) == i) }
        for (i, modifier) in ManeuverModifier.allCases.enumerated() { #expect(PhrasebookNarrator.modifierNumber(modifier) == i) }
        for (i, notice) in CompiledPhrasebook.notices.enumerated() {
            #expect(PhrasebookNarrator.noticeNumber(notice) == i)
            #expect(CompiledPhrasebook.subkeys[PhrasebookNarrator.noticeSubkey(notice)] == notice.rawValue)
        }
        for modifier in ManeuverModifier.allCases {
            #expect(CompiledPhrasebook.subkeys[CompiledPhrasebook.subkeyOfModifier[PhrasebookNarrator.modifierNumber(modifier)]] == modifier.rawValue)
            #expect(PhrasebookNarrator.sideNumber(of: modifier).map { ["left", "right"][$0] } == PhrasebookNarrator.side(of: modifier))
        }
        for bearing in -720...720 {
            #expect(Phrasebook.requiredDirections[PhrasebookNarrator.compassNumber(bearing)] == PhrasebookNarrator.compass(bearing))
        }
        #expect(CompiledPhrasebook.types.count == ManeuverType.allCases.count + 1)
    }

    /// Spoken distances from the precomputed tables (and past them) against the String code, both unit systems.
    @Test(arguments: PhrasebookNarrator.supportedLocales)
    func spokenDistancesMatchTheStringCode(locale: String) throws {
        let book = try Phrasebook.load(locale: locale)
        var meters: [Double] = [-5, 0, .nan, .infinity, -.infinity, 1e9, 2e9, 4.99, 5, 94.9, 95, 975, 999, 9949, 9950, 9999, 10_000, 10_499]
        var m = 0.0
        while m < 4000 { meters.append(m); m += 1.7 }
        m = 4000
        while m < 5e8 { meters.append(m); meters.append(m.rounded()); m *= 1.013 }
        for value in meters {
            for units in [DistanceUnits.metric, .imperial] {
                let new = SpokenDistance(meters: value, units: units, book: book)
                let old = ReferenceSpokenDistance(meters: value, units: units, book: book)
                #expect(new.text == old.text && new.roundedMeters == old.roundedMeters, "\(locale) \(value) \(units): \(new) vs \(old)")
            }
        }
    }

    /// Trimming, lists, capitalization, equality and SSML over bytes against the String helpers.
    @Test func byteHelpersMatchTheStringHelpers() {
        let texts = Self.awkwardValues + ["A 8;E 80", "A 8; ;E 80", " ; ", ";", ";;x;", "a;\u{301}b", "x\u{600};y", "\tA\t;\tB ",
                                          "Nice;Menton;Genova;Torino", "é;e\u{301}", "Ärger", "über", "ß-Straße", "1\u{20E3}x",
                                          "a\u{301}bc", "Élysée;  Zürich  ", "x ;y", "x; \u{301}y"]
        let arena = TextArena(capacity: 64) // grows during the test
        for text in texts {
            #expect(arena.string(arena.appendTrimmed(text)) == TextPieces.trimmed(Substring(text)), "\(text.debugDescription)")
            #expect(TextPieces.trimmed(text) == TextPieces.trimmed(Substring(text)), "\(text.debugDescription)")
            #expect(TextPieces.list(text) == ReferenceNarrator.list(text), "\(text.debugDescription)")
            for limit in [1, 3, Int.max] {
                let joined = ReferenceNarrator.list(text).prefix(limit).joined(separator: " / ")
                #expect(arena.string(arena.appendList(text, separator: " / ", limit: limit)) == joined, "\(text.debugDescription) \(limit)")
            }
            for prefix in ["", "a", "é", "e\u{301}", " ", "ß", "1", "{"] {
                let phrase = prefix + text
                #expect(Array(arena.capitalizedString(arena.append(phrase)).utf8) == Array(PhrasebookNarrator.capitalized(phrase).utf8),
                        "\(phrase.debugDescription)")
            }
            for other in ["é", "e\u{301}", "A 8", text, text + "x"] {
                #expect(arena.sameText(arena.append(text), arena.append(other)) == (text == other), "\(text.debugDescription) \(other.debugDescription)")
            }
        }
        let sentences = ["Turn left onto Via Roma", "In 300 metres, turn left onto Via Roma, then turn right onto Via Roma Nord",
                         "Take the A & B <exit> \"now\" it's", "Continue on Via (Roma)", "Via Roma.", "Via Romano", "(Via Roma) and Roma",
                         "Turn onto A B C", "Città  é", ""]
        let addressSets: [[String]] = [[], ["Via Roma"], ["Via Roma", "Via Roma Nord"], ["Roma", "Via Roma"], ["A B", "B C"], ["B C", "A B"],
                                       ["A & B"], ["it's"], ["", "Via Roma", ""], ["Via Roma", "Via Roma", "Roma"], ["Città"], ["x", "y", "z"]]
        for sentence in sentences {
            for addresses in addressSets {
                var names = SSML.AddressNames()
                for address in addresses { names.insert(SSML.appendEscaped(arena.appendTrimmed(address), in: arena)) }
                var copy = sentence
                let ssml = copy.withUTF8 { SSML.announcement($0, names: names, arena: arena) }
                #expect(ssml == SSML.announcement(sentence, addresses: addresses.map { TextPieces.trimmed(Substring($0)) }),
                        "\(sentence) \(addresses)")
            }
        }
    }

    /// Random routes: every step's instruction, voice announcements and banners, in every language and both unit
    /// systems, equal to the String narrator's.
    @Test(arguments: PhrasebookNarrator.supportedLocales)
    func generatedRoutesNarrateAsBefore(locale: String) throws {
        var random = Seeded(state: UInt64(locale.utf8.reduce(7) { $0 &* 31 &+ Int($1) }))
        let names = ["", "Via Roma", "Via Roma Nord", " Via  Roma ", "Corso Buenos Aires", "Città Studi", "A 8", "e\u{301}", "é",
                     "Rue d'Italie & Co", "Straße des 17. Juni", "x\u{600} ", " \u{301}x", "Roma"]
        let refs = ["", "", "A 8;E 80", "SS 11", "A 8; ;E 80", "Via Roma", "é", "e\u{301}", " A 4 "]
        let destinations = ["", "", "Nice;Menton", "Genova; Torino ;Milano;Como", "Città", "a;\u{301}b", ";;"]
        let exits = ["", "", "57", "57;58", " 12 ", "4a"]
        let rotaries = ["", "", "Piazzale Loreto", "Place d'Armes"]
        let distances: [Double] = [0, 4, 30, 90, 150, 320, 700, 1300, 2600, 9000, 15_000, 260_000, 1e7]
        let lanes = [Lane(indications: ["left"], valid: false, active: false), Lane(indications: ["straight", "right"], valid: true, active: true)]
        for units in [DistanceUnits.metric, .imperial] {
            let narrator = try PhrasebookNarrator(locale: locale, units: units)
            let reference = try ReferenceNarrator(locale: locale, units: units)
            for _ in 0..<60 {
                var steps = [F.step(.depart, name: names.randomElement(using: &random) ?? "", distance: distances.randomElement(using: &random) ?? 0,
                                    duration: Double(Int.random(in: 1...600, using: &random)), bearingAfter: Int.random(in: 0..<360, using: &random))]
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    let type = ManeuverType.allCases.filter { $0 != .depart && $0 != .arrive }.randomElement(using: &random) ?? .turn
                    let modifier = Bool.random(using: &random) ? ManeuverModifier.allCases.randomElement(using: &random) : nil
                    let distance = distances.randomElement(using: &random) ?? 0
                    steps.append(F.step(type, modifier, name: names.randomElement(using: &random) ?? "", ref: refs.randomElement(using: &random) ?? "",
                                        destinations: destinations.randomElement(using: &random) ?? "", exits: exits.randomElement(using: &random) ?? "",
                                        exit: Bool.random(using: &random) ? Int.random(in: 1...12, using: &random) : nil,
                                        notice: type == .notification ? CompiledPhrasebook.notices.randomElement(using: &random) : nil,
                                        rotaryName: rotaries.randomElement(using: &random) ?? "",
                                        mode: Int.random(in: 0..<8, using: &random) == 0 ? .ferry : .driving,
                                        drivingSide: Bool.random(using: &random) ? "right" : "left", distance: distance,
                                        duration: distance / Double.random(in: 1...40, using: &random),
                                        bearingBefore: Int.random(in: 0..<360, using: &random), bearingAfter: Int.random(in: 0..<360, using: &random),
                                        lanes: Bool.random(using: &random) ? lanes : nil))
                }
                var arrival = F.step(.arrive, side: [nil, .left, .right, .straight, .uturn].randomElement(using: &random) ?? nil,
                                     distance: 0, duration: 0)
                if Bool.random(using: &random) { arrival.maneuver.waypoint = Int.random(in: 1...12, using: &random) }
                if Bool.random(using: &random) { arrival.maneuver.modifier = ManeuverModifier.allCases.randomElement(using: &random) }
                steps.append(arrival)
                for index in steps.indices {
                    #expect(narrator.instruction(steps: steps, index: index) == reference.instruction(steps: steps, index: index))
                    let voice = narrator.voiceInstructions(steps: steps, index: index)
                    let referenceVoice = reference.voiceInstructions(steps: steps, index: index)
                    #expect(voice == referenceVoice, "\(locale) \(units) step \(index): \(voice) vs \(referenceVoice)")
                    // String == is canonical equivalence: the bytes must match as well.
                    #expect(voice.map { Array($0.announcement.utf8) + Array($0.ssmlAnnouncement.utf8) }
                            == referenceVoice.map { Array($0.announcement.utf8) + Array($0.ssmlAnnouncement.utf8) })
                    #expect(Array(narrator.instruction(steps: steps, index: index).utf8)
                            == Array(reference.instruction(steps: steps, index: index).utf8))
                    #expect(narrator.bannerInstructions(steps: steps, index: index) == reference.bannerInstructions(steps: steps, index: index))
                    #expect(narrator.roadText(steps[index]) == reference.roadText(steps[index]))
                }
            }
        }
    }

    /// Narrators on several threads at once (each thread with its own arena) say what one thread says.
    @Test func concurrentNarratorsAgree() throws {
        let steps = [F.step(.depart, name: "Via Roma", distance: 3000, duration: 180),
                     F.step(.turn, .left, name: "Corso Como", ref: "SS 11", distance: 40, duration: 4),
                     F.step(.roundabout, .right, name: "Via Larga", exit: 2, distance: 900, duration: 70),
                     F.step(.arrive, side: .right, distance: 0, duration: 0)]
        let narrators = try PhrasebookNarrator.supportedLocales.map { try PhrasebookNarrator(locale: $0, units: .metric) }
        @Sendable func words(_ n: PhrasebookNarrator) -> [String] {
            steps.indices.flatMap { i in
                [n.instruction(steps: steps, index: i)] + n.voiceInstructions(steps: steps, index: i).map { $0.announcement + $0.ssmlAnnouncement }
                    + n.bannerInstructions(steps: steps, index: i).map(\.primary.text)
            }
        }
        let expected = narrators.map(words)
        let mismatches = Mismatches()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<50 {
                let k = (worker + round) % narrators.count
                if words(narrators[k]) != expected[k] { mismatches.add() }
            }
        }
        #expect(mismatches.count == 0)
    }
}

/// A locked counter for the concurrency test.
private final class Mismatches: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.lock(); value += 1; lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return value }
}
