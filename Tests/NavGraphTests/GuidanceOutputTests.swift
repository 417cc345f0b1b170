import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Steps in the Directions JSON: the fields Mapbox's client requires, narrator fields only with a narrator.
@Suite struct GuidanceOutputTests {
    /// A test double for the text layer: words made from the maneuver type, so the test can see where they go.
    struct EchoNarrator: StepNarrator {
        var voiceLocale: String { "en" }
        func instruction(steps: [GuidanceStep], index: Int) -> String { "do \(steps[index].maneuver.type.rawValue)" }
        func voiceInstructions(steps: [GuidanceStep], index: Int) -> [VoiceInstruction] {
            [VoiceInstruction(distanceAlongGeometry: steps[index].distance, announcement: "say \(index)", ssmlAnnouncement: "<speak>say \(index)</speak>")]
        }
        func bannerInstructions(steps: [GuidanceStep], index: Int) -> [BannerInstruction] {
            [BannerInstruction(distanceAlongGeometry: steps[index].distance,
                               primary: BannerContent(text: "show \(index)", type: steps[index].maneuver.type.rawValue, modifier: nil,
                                                      components: [BannerComponent(type: "text", text: "show \(index)")]))]
        }
    }

    func monacoResponse() throws -> RouteResponse {
        let graph = try Fixtures.graph("monaco")
        let router = Router(graph: graph)
        var response = try router.route([Coordinate(lat: 43.7384, lon: 7.4246), Coordinate(lat: 43.7402, lon: 7.4268),
                                         Coordinate(lat: 43.7311, lon: 7.4197)])
        router.addSteps(to: &response)
        return response
    }

    func legs(_ data: Data) throws -> (root: [String: Any], legs: [[String: Any]]) {
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let route = try #require((root["routes"] as? [[String: Any]])?.first)
        return (root, try #require(route["legs"] as? [[String: Any]]))
    }

    @Test func stepsCarryManeuversAndIntersectionsWithoutMadeUpText() throws {
        let response = try monacoResponse()
        let (root, legs) = try legs(DirectionsResponse.make(response, OutputOptions(geometry: .geojson)))
        #expect((root["uuid"] as? String)?.count == 36)
        for (legJSON, leg) in zip(legs, response.routes[0].legs) {
            let steps = try #require(legJSON["steps"] as? [[String: Any]])
            #expect(steps.count == leg.steps.count && steps.count >= 2)
            #expect(abs((legJSON["weight"] as? Double ?? 0) - leg.weight) < 0.051)
            for step in steps {
                for key in ["distance", "duration", "weight", "name", "mode", "driving_side", "geometry", "maneuver", "intersections"] {
                    #expect(step[key] != nil, "step lacks \(key)")
                }
                #expect(step["voiceInstructions"] == nil && step["bannerInstructions"] == nil)
                let maneuver = try #require(step["maneuver"] as? [String: Any])
                #expect(maneuver["instruction"] == nil)
                for key in ["type", "location", "bearing_before", "bearing_after"] { #expect(maneuver[key] != nil, "maneuver lacks \(key)") }
                for intersection in try #require(step["intersections"] as? [[String: Any]]) {
                    let bearings = try #require(intersection["bearings"] as? [Int])
                    #expect((intersection["entry"] as? [Bool])?.count == bearings.count)
                    #expect(intersection["geometry_index"] is Int)
                }
            }
            let maxspeed = try #require((legJSON["annotation"] as? [String: Any])?["maxspeed"] as? [[String: Any]])
            #expect(maxspeed.count == leg.coordinates.count - 1)
            #expect(maxspeed.allSatisfy { $0["unknown"] as? Bool == true || $0["none"] as? Bool == true || ($0["speed"] is Int && $0["unit"] as? String == "km/h") })
        }
        #expect((root["routes"] as? [[String: Any]])?.first?["voiceLocale"] == nil)
    }

    @Test func narratorWordsGoWhereTheClientReadsThem() throws {
        let response = try monacoResponse()
        var options = OutputOptions()
        options.narrator = EchoNarrator()
        let (root, legs) = try legs(DirectionsResponse.make(response, options))
        #expect((root["routes"] as? [[String: Any]])?.first?["voiceLocale"] as? String == "en")
        let steps = try #require(legs.first?["steps"] as? [[String: Any]])
        let maneuver = try #require(steps.first?["maneuver"] as? [String: Any])
        #expect(maneuver["instruction"] as? String == "do depart")
        #expect((steps.first?["voiceInstructions"] as? [[String: Any]])?.first?["announcement"] as? String == "say 0")
        let banner = try #require((steps.first?["bannerInstructions"] as? [[String: Any]])?.first)
        #expect((banner["primary"] as? [String: Any])?["text"] as? String == "show 0")
    }

    @Test func failureBodyNamesTheCode() throws {
        let body = DirectionsResponse.failure(NavGraphError("no route from waypoint 1 to 2", code: .noRoute))
        let root = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(root["code"] as? String == "NoRoute")
        #expect(root["message"] as? String == "no route from waypoint 1 to 2")
    }

    @Test func cliWritesFailureJSONAndExitsNonZero() throws {
        let graph = try Fixtures.graph("monaco")
        let result = try Fixtures.run(["route", graph.file.path, "43.7384,7.4246", "10.0,10.0", "--format", "directions"])
        #expect(result.status != 0)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(root["code"] as? String == "NoSegment")
        #expect((root["message"] as? String)?.contains("waypoint 2") == true)
    }

    @Test func summaryListsManeuvers() throws {
        let graph = try Fixtures.graph("monaco")
        let result = try Fixtures.run(["route", graph.file.path, "43.7384,7.4246", "43.7402,7.4268", "--format", "summary"])
        #expect(result.status == 0)
        // The summary speaks the default locale (English); German comes with --locale de.
        #expect(result.stdout.contains("1. Head "))
        #expect(result.stdout.contains("You have arrived"))
        let german = try Fixtures.run(["route", graph.file.path, "43.7384,7.4246", "43.7402,7.4268", "--format", "summary", "--locale", "de"])
        #expect(german.status == 0)
        #expect(german.stdout.contains("Sie haben Ihr Ziel erreicht"))
    }

    @Test func geoJSONHasManeuverPoints() throws {
        let response = try monacoResponse()
        let root = try #require(try JSONSerialization.jsonObject(with: RouteGeoJSON.make(response, OutputOptions())) as? [String: Any])
        let features = try #require(root["features"] as? [[String: Any]])
        let maneuvers = features.compactMap { $0["properties"] as? [String: Any] }.filter { $0["featureType"] as? String == "maneuver" }
        #expect(maneuvers.count == response.routes[0].legs.reduce(0) { $0 + $1.steps.count })
        #expect(maneuvers.first?["icon"] as? String == "depart")
        #expect(maneuvers.allSatisfy { $0["instruction"] == nil })
    }
}
