import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import NavGraphServer

/// Localized street names (`name:XX`): a crafted T whose east branch has German and English names of its own.
@Suite struct CraftedGuidanceNameTests {
    /// The stem (Stem Road, S-C) ends at a street that is Via Roma east of C (name:de Romstraße, name:en Rome Street,
    /// name:it the same as name) and West Street west of it. One column or line is 62.5 m; C lies at 45.0 N, 7.0 E.
    static func town(named name: String) throws -> DrawnMap {
        try MapDrawing("""
            W---C---E
                |
                |
                |
                S
            """, gridMetres: 62.5, anchor: "C",
            ways: [("CW", ["highway": "residential", "name": "West Street"]),
                   ("CE", ["highway": "residential", "name": "Via Roma", "name:de": "Romstraße", "name:en": "Rome Street",
                           "name:it": "Via Roma", "name:ja": "ローマ通り"]),
                   ("SC", ["highway": "residential", "name": "Stem Road"])])
            .importGraph(named: name)
    }

    /// Every test's route: from Stem Road, 50 m north of S, to Via Roma, 50 m short of E.
    static func ends(_ map: DrawnMap) -> (from: Coordinate, to: Coordinate) { (map.point("S", north: 50), map.point("E", east: -50)) }

    /// The leg's steps and summary for a name language, with the words of a narrator in the same language.
    static func leg(_ map: DrawnMap, _ router: Router, language: String?) throws
        -> (steps: [GuidanceStep], summary: String, narrator: PhrasebookNarrator) {
        var options = RouteOptions()
        options.nameLanguage = language
        let ends = Self.ends(map)
        var response = try router.route([ends.from, ends.to], options: options)
        router.addSteps(to: &response)
        let leg = response.routes[0].legs[0]
        return (leg.steps, leg.summary, try PhrasebookNarrator(locale: language ?? "en", units: .metric))
    }

    /// The step onto the east branch and all the text of it a driver sees or hears: instruction, the voice
    /// announcements and banners of the step before it (which announce it).
    static func turnText(_ leg: (steps: [GuidanceStep], summary: String, narrator: PhrasebookNarrator)) throws
        -> (step: GuidanceStep, instruction: String, voice: [String], banner: [String]) {
        let index = try #require(leg.steps.firstIndex { $0.maneuver.type == .endOfRoad || $0.maneuver.type == .turn })
        let voice = leg.narrator.voiceInstructions(steps: leg.steps, index: index - 1).map(\.announcement)
        let banners = leg.narrator.bannerInstructions(steps: leg.steps, index: index - 1)
        return (leg.steps[index], leg.narrator.instruction(steps: leg.steps, index: index), voice,
                banners.map(\.primary.text) + banners.flatMap { $0.primary.components.map(\.text) })
    }

    /// A requested language (any region or case) names the east branch in the step, instruction, voice, banners and
    /// summary; a language without a name of its own, or none, keeps the local name.
    @Test func stepsSummaryVoiceAndBannersUseTheRequestedLanguage() throws {
        let map = try Self.town(named: "crafted-localized-names")
        let router = Router(graph: map.graph)
        for (language, expected) in [("de", "Romstraße"), ("en", "Rome Street"), ("de-AT", "Romstraße"), ("EN_gb", "Rome Street"),
                                     ("es", "Via Roma"), ("it", "Via Roma"), ("ja", "Via Roma"), (nil, "Via Roma")] as [(String?, String)] {
            let leg = try Self.leg(map, router, language: language)
            let turn = try Self.turnText(leg)
            let label = language ?? "no language"
            #expect(turn.step.name == expected, "\(label)")
            #expect(turn.instruction.contains(expected), "\(label): \(turn.instruction)")
            // The step before the turn speaks of its own road first, then announces the turn.
            let announcing = turn.voice.filter { !$0.contains("Stem Road") }
            #expect(!announcing.isEmpty && announcing.allSatisfy { $0.contains(expected) }, "\(label): \(turn.voice)")
            #expect(turn.banner.contains(expected), "\(label): \(turn.banner)")
            #expect(leg.summary.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.contains(expected), "\(label): \(leg.summary)")
            for other in ["Romstraße", "Rome Street", "Via Roma"] where other != expected {
                #expect(!turn.instruction.contains(other) && !leg.summary.contains(other), "\(label): \(turn.instruction) / \(leg.summary)")
            }
            // Unlocalized roads and the ref keep their names.
            #expect(leg.steps.first?.name == "Stem Road", "\(label)")
        }
        // Only the ways with a name of their own are in the table, and only in their languages.
        let graph = router.graph
        #expect(graph.nameWay.count == 1)
        let kept = graph.nameLanguages.indices.filter { graph.nameLocal[$0] != 0 }.map { graph.nameLanguages[$0] }
        #expect(Set(kept) == ["de", "en"])
    }

    /// The turn onto the east branch in the German phrasebook's words and the German name, and the English ones.
    @Test func germanAndEnglishInstructionsReadNaturally() throws {
        let map = try Self.town(named: "crafted-localized-names-words")
        let router = Router(graph: map.graph)
        let german = try Self.turnText(try Self.leg(map, router, language: "de-CH"))
        // "Rechts abbiegen …" for a turn, "Am Ende der Straße rechts abbiegen …" where OSRM's rules say end of road.
        #expect(german.instruction.lowercased().contains("rechts") && german.instruction.hasSuffix("auf Romstraße"), "\(german.instruction)")
        let english = try Self.turnText(try Self.leg(map, router, language: "en"))
        #expect(english.instruction.contains("right") && english.instruction.contains("onto Rome Street"), "\(english.instruction)")
    }

    /// The CLI's `--locale` and the server's `language` reach the names; without them the local names stay.
    @Test func commandLineAndServerPassTheLanguage() throws {
        let map = try Self.town(named: "crafted-localized-names-cli")
        let graph = map.graph, (from, to) = Self.ends(map)
        let file = graph.file.path
        let points = [String(format: "%.7f,%.7f", from.lat, from.lon), String(format: "%.7f,%.7f", to.lat, to.lon)]
        let german = try Fixtures.run(["route", file] + points + ["--locale", "de-AT", "--format", "summary"])
        #expect(german.status == 0, "\(german.stderr)")
        #expect(german.stdout.contains("via Romstraße") || german.stdout.contains(", Romstraße"), "\(german.stdout)")
        #expect(german.stdout.contains("Romstraße") && !german.stdout.contains("Via Roma"), "\(german.stdout)")
        let local = try Fixtures.run(["route", file] + points + ["--format", "summary"])
        #expect(local.status == 0 && local.stdout.contains("Via Roma") && !local.stdout.contains("Rome Street"), "\(local.stdout)")

        let service = RoutingService(engine: RoutingEngine(graph: graph))
        func names(_ query: String) throws -> (steps: [String], instructions: [String], summary: String) {
            let target = "/route/v1/driving/\(from.lon),\(from.lat);\(to.lon),\(to.lat)?steps=true&voice_instructions=true&banner_instructions=true" + query
            let response = service.handle(HTTPRequest(method: "GET", target: target))
            let json = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            let leg = try #require(((json["routes"] as? [[String: Any]])?.first?["legs"] as? [[String: Any]])?.first)
            let steps = leg["steps"] as? [[String: Any]] ?? []
            return (steps.compactMap { $0["name"] as? String },
                    steps.compactMap { ($0["maneuver"] as? [String: Any])?["instruction"] as? String }, leg["summary"] as? String ?? "")
        }
        let english = try names("&language=en-US")
        #expect(english.steps.contains("Rome Street") && !english.steps.contains("Via Roma"), "\(english.steps)")
        #expect(english.instructions.contains { $0.contains("Rome Street") }, "\(english.instructions)")
        #expect(english.summary.contains("Rome Street"), "\(english.summary)")
        let plain = try names("")
        #expect(plain.steps.contains("Via Roma") && !plain.steps.contains("Rome Street"), "\(plain.steps)")
    }
}
