import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Arrivals: the side of the road a waypoint lies on, and intermediate waypoints worded as stops. Coordinates are
/// metres east (x) and north (y) of 45.0 N, 7.0 E (see `GuidanceJunctionTests.Sketch`).
@Suite struct CraftedGuidanceArrivalTests {
    typealias Sketch = GuidanceJunctionTests.Sketch

    /// One straight street from west to east, driven eastwards:
    ///
    ///            L (20 m north of the street)
    ///   W ====================== E      Long Street
    ///            R (20 m south)
    ///
    /// A destination north of the street lies on the left when arriving, one south of it on the right, one on the
    /// street itself has no side.
    static func street() -> Sketch {
        var s = Sketch()
        s.node(1, -400, 0); s.node(2, 400, 0)
        s.way([1, 2], ["highway": "residential", "name": "Long Street"])
        return s
    }

    func arrival(_ name: String, to point: (Double, Double)) throws -> (GuidanceStep, [GuidanceStep]) {
        let graph = try Self.street().osm.importGraph(named: name)
        let router = Router(graph: graph)
        var response = try router.route([Sketch.coordinate(-300, 0), Sketch.coordinate(point.0, point.1)])
        router.addSteps(to: &response)
        let steps = response.routes[0].legs[0].steps
        return (try #require(steps.last), steps)
    }

    @Test func arrivalSideFollowsTheDestinationsSideOfTheRoad() throws {
        let (left, leftSteps) = try arrival("crafted-arrive-left", to: (100, 20))
        #expect(left.maneuver.type == .arrive)
        #expect(left.maneuver.side == .left)
        let (right, _) = try arrival("crafted-arrive-right", to: (100, -20))
        #expect(right.maneuver.side == .right)
        let (onRoad, _) = try arrival("crafted-arrive-on-road", to: (100, 0))
        #expect(onRoad.maneuver.side == nil)

        let en = try PhrasebookNarrator(locale: "en", units: .metric)
        #expect(en.instruction(steps: leftSteps, index: leftSteps.count - 1).hasSuffix("on the left"))
    }

    /// Driving W to E with a stop in the middle: the first leg's arrival names the stop by its number in every
    /// language, the last leg's is the destination.
    @Test func intermediateWaypointsAreNumberedStops() throws {
        let graph = try Self.street().osm.importGraph(named: "crafted-arrive-waypoint")
        let router = Router(graph: graph)
        var response = try router.route([Sketch.coordinate(-300, 0), Sketch.coordinate(0, 0), Sketch.coordinate(300, 0)])
        router.addSteps(to: &response)
        let legs = response.routes[0].legs
        #expect(legs.count == 2)
        let firstStop = try #require(legs[0].steps.last)
        #expect(firstStop.maneuver.type == .arrive)
        #expect(firstStop.maneuver.waypoint == 1)
        #expect(legs[1].steps.last?.maneuver.waypoint == nil)

        let expected = ["en": "1st", "de": "erste", "fr": "première", "es": "primera", "it": "prima", "pt": "primeira", "nl": "eerste"]
        for (locale, ordinal) in expected {
            let narrator = try PhrasebookNarrator(locale: locale, units: .metric)
            let stopText = narrator.instruction(steps: legs[0].steps, index: legs[0].steps.count - 1)
            let finalText = narrator.instruction(steps: legs[1].steps, index: legs[1].steps.count - 1)
            #expect(stopText.contains(ordinal), "\(locale): \(stopText)")
            #expect(!finalText.contains(ordinal), "\(locale): \(finalText)")
            #expect(stopText != finalText)
        }
        let en = try PhrasebookNarrator(locale: "en", units: .metric)
        #expect(en.instruction(steps: legs[0].steps, index: legs[0].steps.count - 1) == "You have arrived at your 1st destination")
    }
}
