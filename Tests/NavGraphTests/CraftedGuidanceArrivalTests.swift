import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Arrivals: the side of the road a waypoint lies on, and intermediate waypoints worded as stops.
@Suite struct CraftedGuidanceArrivalTests {
    /// One straight street, Long Street (W-E, 800 m), driven eastwards. A destination north of it lies on the left
    /// when arriving, one south of it on the right, one on the street itself has no side.
    static func street(named name: String) throws -> DrawnMap {
        try MapDrawing("""
            W-------E
            """, gridMetres: 100, ways: [("WE", ["highway": "residential", "name": "Long Street"])])
            .importGraph(named: name)
    }

    /// The last step of a drive from 100 m east of W to a point 500 m east of W and `north` metres off the street,
    /// with all the steps.
    func arrival(_ name: String, north: Double) throws -> (GuidanceStep, [GuidanceStep]) {
        let map = try Self.street(named: name)
        let steps = try map.steps(from: map.point("W", east: 100), to: map.point("W", east: 500, north: north))
        return (try #require(steps.last), steps)
    }

    /// North of the street is the left on arrival, south of it the right, on it no side (and English says "on the left").
    @Test func arrivalSideFollowsTheDestinationsSideOfTheRoad() throws {
        let (left, leftSteps) = try arrival("crafted-arrive-left", north: 20)
        #expect(left.maneuver.type == .arrive)
        #expect(left.maneuver.side == .left)
        let (right, _) = try arrival("crafted-arrive-right", north: -20)
        #expect(right.maneuver.side == .right)
        let (onRoad, _) = try arrival("crafted-arrive-on-road", north: 0)
        #expect(onRoad.maneuver.side == nil)

        let en = try PhrasebookNarrator(locale: "en", units: .metric)
        #expect(en.instruction(steps: leftSteps, index: leftSteps.count - 1).hasSuffix("on the left"))
    }

    /// Driving W to E (`street`) with a stop in the middle: the first leg's arrival names the stop by its number in
    /// every language, the last leg's is the destination.
    @Test func intermediateWaypointsAreNumberedStops() throws {
        let map = try Self.street(named: "crafted-arrive-waypoint")
        let router = Router(graph: map.graph)
        var response = try router.route([map.point("W", east: 100), map.point("W", east: 400), map.point("E", east: -100)])
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
