import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Voice announcement timing, units, SSML, and Mapbox-shaped banners (lanes, shields, exits, roundabout degrees).
@Suite struct GuidanceVoiceBannerTests {
    typealias F = GuidanceTextFixtures

    /// Over many step lengths and speeds: distances count down strictly and stay inside each step.
    @Test func voiceDistancesDecreaseWithinTheStep() throws {
        let narrator = try PhrasebookNarrator(locale: "en", units: .imperial)
        let metric = try PhrasebookNarrator(locale: "fr", units: .metric)
        var checked = 0
        for length in [0.0, 4, 25, 60, 120, 180, 300, 450, 700, 1100, 1800, 3000, 8000, 25000] {
            for speed in [3.0, 8, 14, 22, 30, 36] {
                for next in [5.0, 40, 400] {
                    let steps = [F.step(.depart, name: "A", distance: length, duration: length / speed),
                                 F.step(.turn, .left, name: "B", distance: length, duration: length / speed),
                                 F.step(.turn, .right, name: "C", distance: next, duration: next / speed),
                                 F.step(.arrive, distance: 0, duration: 0)]
                    for n in [narrator, metric] {
                        for index in steps.indices {
                            let voice = n.voiceInstructions(steps: steps, index: index)
                            let d = voice.map(\.distanceAlongGeometry)
                            #expect(zip(d, d.dropFirst()).allSatisfy { $0 > $1 }, "\(length) m at \(speed) m/s, step \(index): \(d)")
                            #expect(d.allSatisfy { $0 >= 0 && $0 <= steps[index].distance }, "\(d) outside \(steps[index].distance)")
                            if index < steps.count - 1 { #expect(!voice.isEmpty, "\(length) m, step \(index)") }
                            let banners = n.bannerInstructions(steps: steps, index: index)
                            let b = banners.map(\.distanceAlongGeometry)
                            #expect(!banners.isEmpty && b.first == steps[index].distance)
                            #expect(zip(b, b.dropFirst()).allSatisfy { $0 > $1 } && b.allSatisfy { $0 >= 0 })
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 1000)
    }

    /// A 3 km step at 60 km/h: the early, near and final announcements; the first step says the departure first.
    @Test func longStepHasEarlyNearAndFinalAnnouncements() throws {
        let steps = [F.step(.depart, name: "Main Street", distance: 3000, duration: 180, bearingAfter: 90),
                     F.step(.turn, .left, name: "Oak Avenue", distance: 3000, duration: 180),
                     F.step(.arrive, side: .left, distance: 0, duration: 0)]
        let en = try PhrasebookNarrator(locale: "en", units: .metric)
        let first = en.voiceInstructions(steps: steps, index: 0)
        #expect(first.first?.distanceAlongGeometry == 3000)
        #expect(first.first?.announcement == "Head east on Main Street")
        // 16.7 m/s: early 75 s = 1250 m ("1.3 kilometres", placed at 1300 m), near 18 s = 300 m, final 5 s = 83 m.
        #expect(first.map(\.announcement) == ["Head east on Main Street", "In 1.3 kilometres, turn left onto Oak Avenue",
                                               "In 300 metres, turn left onto Oak Avenue", "Turn left onto Oak Avenue"])
        #expect(first.map(\.distanceAlongGeometry).dropFirst().first == 1300)
        let second = en.voiceInstructions(steps: steps, index: 1)
        #expect(second.map(\.announcement) == ["In 1.3 kilometres, you will arrive at your destination, on the left",
                                                "In 300 metres, you will arrive at your destination, on the left",
                                                "You have arrived at your destination, on the left"])
        #expect(en.voiceInstructions(steps: steps, index: 2).isEmpty)
    }

    @Test func spokenDistancesFollowTheUnits() throws {
        let steps = [F.step(.depart, name: "Main Street", distance: 3000, duration: 180),
                     F.step(.turn, .left, name: "Oak Avenue", distance: 3000, duration: 180),
                     F.step(.arrive, distance: 0, duration: 0)]
        let metric = try PhrasebookNarrator(locale: "en", units: .metric).voiceInstructions(steps: steps, index: 0).map(\.announcement)
        let imperial = try PhrasebookNarrator(locale: "en", units: .imperial).voiceInstructions(steps: steps, index: 0).map(\.announcement)
        #expect(metric.contains("In 300 metres, turn left onto Oak Avenue"))
        #expect(imperial.contains("In 1,000 feet, turn left onto Oak Avenue"))
        #expect(imperial.contains("In three quarters of a mile, turn left onto Oak Avenue"))
        #expect(!metric.joined().contains("mile") && !metric.joined().contains("feet"))
        #expect(!imperial.joined().contains("metre"))
        let de = try PhrasebookNarrator(locale: "de", units: .imperial).voiceInstructions(steps: steps, index: 0).map(\.announcement)
        #expect(de.contains("In 1.000 Fuß links abbiegen auf Oak Avenue"))
        let fr = try PhrasebookNarrator(locale: "fr", units: .metric).voiceInstructions(steps: steps, index: 0).map(\.announcement)
        #expect(fr.contains("Dans 1,3 kilomètres, tournez à gauche sur Oak Avenue"))
    }

    /// Two maneuvers 30 m apart are chained: "…, then …".
    @Test func closeManeuversAreChained() throws {
        let steps = [F.step(.depart, name: "Main Street", distance: 1000, duration: 80),
                     F.step(.turn, .right, name: "Oak Avenue", distance: 30, duration: 4),
                     F.step(.turn, .left, name: "Elm Street", distance: 500, duration: 40),
                     F.step(.arrive, distance: 0, duration: 0)]
        let en = try PhrasebookNarrator(locale: "en", units: .metric)
        let last = try #require(en.voiceInstructions(steps: steps, index: 0).last)
        #expect(last.announcement == "Turn right onto Oak Avenue, then turn left onto Elm Street")
        let banner = try #require(en.bannerInstructions(steps: steps, index: 0).first)
        #expect(banner.sub?.text == "Elm Street" && banner.sub?.type == "turn" && banner.sub?.modifier == "left")
    }

    @Test func ssmlIsEscaped() throws {
        let steps = F.route(F.step(.turn, .left, name: "Rue <A> & \"B\""))
        let voice = try PhrasebookNarrator(locale: "en", units: .metric).voiceInstructions(steps: steps, index: 0)
        let last = try #require(voice.last)
        #expect(last.announcement == "Turn left onto Rue <A> & \"B\"")
        #expect(last.ssmlAnnouncement == "<speak><amazon:effect name=\"drc\"><prosody rate=\"1.08\">Turn left onto "
                + "<say-as interpret-as=\"address\">Rue &lt;A&gt; &amp; &quot;B&quot;</say-as></prosody></amazon:effect></speak>")
        let decoded = try F.jsonObject(last.jsonData())
        #expect(Set(decoded.keys) == ["distanceAlongGeometry", "announcement", "ssmlAnnouncement"])
        #expect(decoded["ssmlAnnouncement"] as? String == last.ssmlAnnouncement)
    }

    /// Lanes tagged `turn:lanes=left|through|through;right` before a right turn:
    ///
    ///        ^   ^
    ///   <-   |   |->        the right lane is the one for the turn
    ///   |    |   |
    ///   L    T   T;R
    @Test func lanesBecomeSubBannerComponents() throws {
        let lanes = [Lane(indications: ["left"], valid: false, active: false),
                     Lane(indications: ["straight"], valid: false, active: false),
                     Lane(indications: ["straight", "right"], valid: true, active: true, validIndication: "right")]
        let steps = [F.step(.depart, name: "Main Street", distance: 1200, duration: 90),
                     F.step(.turn, .right, name: "Oak Avenue", lanes: lanes),
                     F.step(.arrive, distance: 0, duration: 0)]
        let banners = try PhrasebookNarrator(locale: "en", units: .metric).bannerInstructions(steps: steps, index: 0)
        #expect(banners.count == 2)
        #expect(banners.first?.sub == nil && banners.first?.distanceAlongGeometry == 1200)
        let sub = try #require(banners.last?.sub)
        #expect(sub.components.map(\.type) == ["lane", "lane", "lane"])
        #expect(sub.components.map(\.directions) == [["left"], ["straight"], ["straight", "right"]])
        #expect(sub.components.map(\.active) == [false, false, true])
        #expect(sub.components.map(\.activeDirection) == [nil, nil, "right"])
        let json = try F.jsonObject(try #require(banners.last).jsonData())
        let components = try #require((json["sub"] as? [String: Any])?["components"] as? [[String: Any]])
        #expect(components.last?["type"] as? String == "lane")
        #expect(components.last?["directions"] as? [String] == ["straight", "right"])
        #expect(components.last?["active"] as? Bool == true)
        #expect(components.last?["active_direction"] as? String == "right")
        #expect(components.first?["active_direction"] == nil)
    }

    @Test func lanesOutsideTheMapboxVocabularyAreMapped() throws {
        let lanes = [Lane(indications: ["merge to left"], valid: true, active: true), Lane(indications: ["reverse", "sharp_left"], valid: false, active: false)]
        let steps = F.route(F.step(.merge, .slightLeft, name: "A 8", lanes: lanes), departDistance: 100, departDuration: 10)
        let sub = try #require(try PhrasebookNarrator(locale: "en", units: .metric).bannerInstructions(steps: steps, index: 0).first?.sub)
        #expect(sub.components.map(\.directions) == [["slight left"], ["uturn", "none"]])
    }

    /// Motorway exit 57 with refs A 8 and E 80 towards Nice: exit components, shields, delimiters, secondary row.
    @Test func primaryBannerHasExitNumberShieldsAndDestinations() throws {
        let steps = F.route(F.step(.offRamp, .slightRight, name: "Avenue de Verdun", ref: "A 8;E 80", destinations: "Nice;Menton", exits: "57"))
        let banner = try #require(try PhrasebookNarrator(locale: "fr", units: .metric).bannerInstructions(steps: steps, index: 0).first)
        #expect(banner.primary.components.map(\.type) == ["exit", "exit-number", "icon", "delimiter", "icon", "delimiter", "text"])
        #expect(banner.primary.components.map(\.text) == ["Sortie", "57", "A 8", "/", "E 80", "/", "Avenue de Verdun"])
        #expect(banner.primary.text == "Sortie 57 A 8 / E 80 / Avenue de Verdun")
        #expect(banner.primary.type == "off ramp" && banner.primary.modifier == "slight right")
        #expect(banner.secondary?.text == "Nice / Menton")
        let json = try F.jsonObject(banner.jsonData())
        #expect(Set(json.keys) == ["distanceAlongGeometry", "primary", "secondary"])
        let primary = try #require(json["primary"] as? [String: Any])
        #expect(Set(primary.keys) == ["text", "type", "modifier", "driving_side", "components"])
        let unnamed = F.route(F.step(.turn, .left))
        let plain = try #require(try PhrasebookNarrator(locale: "en", units: .metric).bannerInstructions(steps: unnamed, index: 0).first)
        #expect(plain.primary.text == "Turn left" && plain.secondary == nil)
    }

    /// Entering northbound; exits east (a right turn), north (straight on) and west (a left turn).
    @Test func roundaboutDegreesFollowTheDrivingSide() throws {
        let en = try PhrasebookNarrator(locale: "en", units: .metric)
        for (exitBearing, right, left) in [(90, 90.0, 270.0), (0, 180, 180), (270, 270, 90), (180, 360, 360)] {
            for side in ["right", "left"] {
                let exitPoint = Intersection(location: F.origin, bearings: [exitBearing, 180].sorted(), entry: [true, true],
                                             inIndex: nil, outIndex: [exitBearing, 180].sorted().firstIndex(of: exitBearing), geometryIndex: 1)
                let step = F.step(.roundabout, .right, name: "Rue Grimaldi", exit: 1, drivingSide: side, bearingBefore: 0,
                                  bearingAfter: 45, extraIntersections: [exitPoint])
                let banner = try #require(en.bannerInstructions(steps: F.route(step), index: 0).first)
                #expect(banner.primary.degrees == (side == "right" ? right : left), "exit \(exitBearing) \(side)")
                #expect(banner.primary.drivingSide == side)
            }
        }
    }
}

/// Street names in SSML are marked as addresses only where they stand as words, never inside markup.
@Suite struct GuidanceSSMLTests {
    typealias F = GuidanceTextFixtures

    @Test func namesThatLookLikeMarkupAreNotMarked() throws {
        for name in ["amp", "address", "speak", "quot"] {
            let steps = F.route(F.step(.turn, .left, name: "Rue & \(name)"))
            let voice = try PhrasebookNarrator(locale: "en", units: .metric).voiceInstructions(steps: steps, index: 0)
            for v in voice {
                let text = TextCollector()
                let parser = XMLParser(data: Data(v.ssmlAnnouncement.utf8))
                parser.delegate = text
                #expect(parser.parse(), "\(name): \(v.ssmlAnnouncement) \(parser.parserError.map { "\($0)" } ?? "")")
                #expect(text.text == v.announcement, "\(name): \(v.ssmlAnnouncement)")
                #expect(text.elements.filter { $0 == "say-as" }.count == 1, "\(name): \(v.ssmlAnnouncement)")
            }
        }
    }

    /// The character data and element names of a parsed document.
    final class TextCollector: NSObject, XMLParserDelegate {
        var text = ""
        var elements: [String] = []
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) { elements.append(name) }
    }
}
