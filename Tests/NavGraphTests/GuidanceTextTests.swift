import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Instruction text of every maneuver in every language, ordinals, locale fallback, and the phrasebook files.
@Suite struct GuidanceTextTests {
    typealias F = GuidanceTextFixtures

    /// Every type × modifier (and none) × what the step names (nothing, a name, a ref, destinations, an exit
    /// number, a rotary name, a notice) reads as a finished sentence in every language.
    @Test(arguments: PhrasebookNarrator.supportedLocales)
    func everyManeuverHasTextWithoutPlaceholders(locale: String) throws {
        let narrator = try PhrasebookNarrator(locale: locale, units: .metric)
        #expect(narrator.voiceLocale == locale)
        let labels: [(name: String, ref: String, destinations: String, exits: String, rotary: String)] = [
            ("", "", "", "", ""), ("Rue Grimaldi", "", "", "", ""), ("", "A 8;E 80", "", "", ""),
            ("", "", "Nice;Menton", "", ""), ("Avenue de Verdun", "D 6007", "Nice", "", ""),
            ("", "", "Genova", "57", ""), ("Via Roma", "", "", "", "Place d'Armes"),
        ]
        var seen = 0
        for type in ManeuverType.allCases {
            for modifier in [nil] + ManeuverModifier.allCases.map(Optional.some) {
                for label in labels {
                    for notice in type == .notification ? [nil, .tollRoad, .ferry, .leavingFerry] : [GuidanceNotice?.none] {
                        let exit = [.roundabout, .rotary, .roundaboutTurn, .exitRoundabout, .exitRotary].contains(type) ? 2 : nil
                        let middle = F.step(type, modifier, name: label.name, ref: label.ref, destinations: label.destinations,
                                            exits: label.exits, exit: exit, notice: notice, side: type == .arrive ? modifier : nil,
                                            rotaryName: label.rotary)
                        let steps = F.route(middle)
                        let text = narrator.instruction(steps: steps, index: 1)
                        let context = "\(locale) \(type.rawValue) \(modifier?.rawValue ?? "-") \(label) \(notice?.rawValue ?? "")"
                        #expect(!text.isEmpty, "\(context)")
                        #expect(!text.contains("{") && !text.contains("}"), "\(context): \(text)")
                        #expect(text.first?.isUppercase == true, "\(context): \(text)")
                        #expect(!text.contains("  "), "\(context): \(text)")
                        for v in narrator.voiceInstructions(steps: steps, index: 0) + narrator.voiceInstructions(steps: steps, index: 1) {
                            #expect(!v.announcement.isEmpty && !v.announcement.contains("{"), "\(context): \(v.announcement)")
                        }
                        for b in narrator.bannerInstructions(steps: steps, index: 0) {
                            #expect(!b.primary.text.isEmpty && !b.primary.text.contains("{"), "\(context): \(b.primary.text)")
                        }
                        seen += 1
                    }
                }
            }
        }
        #expect(seen > 1000)
    }

    @Test func ferryStepsSayFerry() throws {
        let ferry = F.step(.turn, .right, name: "Helgoland", mode: .ferry)
        let en = try PhrasebookNarrator(locale: "en", units: .metric)
        let de = try PhrasebookNarrator(locale: "de", units: .metric)
        #expect(en.instruction(steps: F.route(ferry), index: 1) == "Take the ferry Helgoland")
        #expect(de.instruction(steps: F.route(ferry), index: 1) == "Die Fähre Helgoland nehmen")
        let toll = F.step(.notification, .straight, name: "A 8", notice: .tollRoad)
        #expect(en.instruction(steps: F.route(toll), index: 1) == "Continue on the toll road A 8")
    }

    /// Exits 1 to 10: each language's own ordinal word (as its file spells it), all different.
    @Test func roundaboutExitsUseOrdinals() throws {
        for file in F.phrasebookFiles {
            let locale = file.deletingPathExtension().lastPathComponent
            let ordinals = try #require(try F.jsonObject(Data(contentsOf: file))["ordinals"] as? [String: String])
            let narrator = try PhrasebookNarrator(locale: locale, units: .metric)
            var texts = Set<String>()
            for n in 1...10 {
                let text = narrator.instruction(steps: F.route(F.step(.roundabout, .right, name: "Rue Grimaldi", exit: n)), index: 1)
                let word = try #require(ordinals[String(n)])
                #expect(text.contains(word), "\(locale) exit \(n): \(text)")
                texts.insert(text)
            }
            #expect(texts.count == 10, "\(locale)")
        }
        //      |
        //   .--b--.        enter from the south (a), leave by the 3rd exit
        //   |     |
        //   '--a--'
        //      |
        let third = F.route(F.step(.roundabout, .left, name: "Rue Grimaldi", exit: 3))
        #expect(try PhrasebookNarrator(locale: "en", units: .metric).instruction(steps: third, index: 1)
                == "At the roundabout, take the 3rd exit onto Rue Grimaldi")
        #expect(try PhrasebookNarrator(locale: "de", units: .metric).instruction(steps: third, index: 1)
                == "Im Kreisverkehr die dritte Ausfahrt auf Rue Grimaldi nehmen")
        #expect(try PhrasebookNarrator(locale: "fr", units: .metric).instruction(steps: third, index: 1)
                == "Au rond-point, prenez la troisième sortie sur Rue Grimaldi")
        #expect(try PhrasebookNarrator(locale: "es", units: .metric).instruction(steps: third, index: 1)
                == "En la rotonda, tome la tercera salida hacia Rue Grimaldi")
    }

    @Test func plainTurnsReadNaturally() throws {
        let left = F.route(F.step(.turn, .left, name: "Main Street"))
        #expect(try PhrasebookNarrator(locale: "en", units: .metric).instruction(steps: left, index: 1) == "Turn left onto Main Street")
        #expect(try PhrasebookNarrator(locale: "de", units: .metric).instruction(steps: left, index: 1) == "Links abbiegen auf Main Street")
        #expect(try PhrasebookNarrator(locale: "it", units: .metric).instruction(steps: left, index: 1) == "Svolta a sinistra su Main Street")
        #expect(try PhrasebookNarrator(locale: "nl", units: .metric).instruction(steps: left, index: 1) == "Ga linksaf naar Main Street")
        let en = try PhrasebookNarrator(locale: "en", units: .metric)
        #expect(en.instruction(steps: left, index: 0) == "Head north on Boulevard Albert 1er")
        #expect(en.instruction(steps: left, index: 2) == "You have arrived at your destination, on the right")
        let ramp = F.route(F.step(.offRamp, .slightRight, destinations: "Nice;Menton", exits: "57"))
        #expect(en.instruction(steps: ramp, index: 1) == "Take exit 57 on the right towards Nice, Menton")
        let named = F.route(F.step(.turn, .right, name: "Avenue de Verdun", ref: "D 6007"))
        #expect(en.instruction(steps: named, index: 1) == "Turn right onto Avenue de Verdun (D 6007)")
    }

    @Test func localesFallBackToLanguageThenEnglish() throws {
        let cases = ["pt-BR": "pt", "pt_br": "pt", "de-AT": "de", "DE": "de", "de_DE": "de", "fr-CA": "fr", "nl-BE": "nl",
                     "xx": "en", "": "en", "zh-Hans-CN": "en", "../../etc/passwd": "en", "en-GB": "en", "it": "it", "es-419": "es"]
        for (requested, expected) in cases {
            #expect(try PhrasebookNarrator(locale: requested, units: .metric).voiceLocale == expected, "\(requested)")
        }
        let dir = try #require(Phrasebook.directory)
        #expect(FileManager.default.fileExists(atPath: dir + "/en.json"))
    }

    /// The test runner sits in .build/<config>/ like the navgraph binary: it must read the copied resource bundle,
    /// not the source tree.
    @Test func phrasebooksComeFromTheResourceBundle() throws {
        let dir = try #require(Phrasebook.directory)
        #expect(dir.contains("navgraph_NavGraphCore.resources") || dir.contains("navgraph_NavGraphCore.bundle"), "\(dir)")
    }

    /// Every file has exactly the keys of en.json, and parses as a phrasebook.
    @Test func phrasebookFilesHaveTheSameKeys() throws {
        func keys(_ value: Any, _ prefix: String = "") -> Set<String> {
            guard let dict = value as? [String: Any] else { return [prefix] }
            return dict.reduce(into: Set<String>()) { $0.formUnion(keys($1.value, prefix.isEmpty ? $1.key : prefix + "." + $1.key)) }
        }
        let files = F.phrasebookFiles
        #expect(Set(files.map { $0.deletingPathExtension().lastPathComponent }) == Set(PhrasebookNarrator.supportedLocales))
        let en = try #require(files.first { $0.lastPathComponent == "en.json" })
        let reference = keys(try F.jsonObject(Data(contentsOf: en)))
        #expect(reference.count > 150)
        for file in files {
            let data = try Data(contentsOf: file)
            let own = keys(try F.jsonObject(data))
            #expect(own.subtracting(reference).isEmpty, "\(file.lastPathComponent) has extra keys \(own.subtracting(reference).sorted())")
            #expect(reference.subtracting(own).isEmpty, "\(file.lastPathComponent) lacks \(reference.subtracting(own).sorted())")
            _ = try Phrasebook(json: data, locale: file.deletingPathExtension().lastPathComponent, source: file.path)
        }
    }

    @Test func malformedPhrasebooksAreInvalidInput() throws {
        for text in ["{}", "[1]", "not json", #"{"meta":{},"ordinals":{"1":"1st"}}"#] {
            #expect {
                _ = try Phrasebook(json: Data(text.utf8), locale: "en", source: "test.json")
            } throws: { ($0 as? NavGraphError)?.code == .invalidInput && "\($0)".contains("test.json") }
        }
        let en = try Data(contentsOf: try #require(F.phrasebookFiles.first { $0.lastPathComponent == "en.json" }))
        var object = try F.jsonObject(en)
        var maneuvers = try #require(object["maneuvers"] as? [String: Any])
        maneuvers.removeValue(forKey: "fork")
        object["maneuvers"] = maneuvers
        #expect {
            _ = try Phrasebook(json: try JSONSerialization.data(withJSONObject: object), locale: "en", source: "nofork.json")
        } throws: { "\($0)".contains("fork") }
    }
}
