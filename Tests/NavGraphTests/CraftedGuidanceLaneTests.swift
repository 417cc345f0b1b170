import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Preferred lanes: when the next maneuver follows closely, only the lanes towards it stay active.
@Suite struct CraftedGuidanceLaneTests {
    /// Approach Road runs north (S-A, oneway, `turn:lanes` left|through|right|right, then A-N); First Street leads
    /// east from A through B, 80 m on, where Second Street (B-T) goes north, to F; First Street also goes west of A
    /// (W-A). One column is 20 m, one line 100 m; A lies at 45.0 N, 7.0 E.
    static func map(named name: String) throws -> DrawnMap {
        try MapDrawing("""
                           N   T
                           |   |
                           |   |
            W--------------A---B-------------------------F
                           |
                           |
                           S
            """, gridMetres: 20, lineMetres: 100, anchor: "A",
            ways: [("SA", ["highway": "secondary", "name": "Approach Road", "oneway": "yes", "turn:lanes": "left|through|right|right"]),
                   ("AN", ["highway": "secondary", "name": "Approach Road"]), ("WA", ["highway": "residential", "name": "First Street"]),
                   ("ABF", ["highway": "residential", "name": "First Street"]),
                   ("BT", ["highway": "residential", "name": "Second Street"])])
            .importGraph(named: name)
    }

    /// The valid and active states of the lanes of the route's turn right.
    func laneStates(_ steps: [GuidanceStep]) throws -> [(valid: Bool, active: Bool)] {
        let right = try #require(steps.first { $0.maneuver.type != .depart && $0.maneuver.modifier == .right })
        let lanes = try #require(right.intersections.first?.lanes)
        return lanes.map { ($0.valid, $0.active) }
    }

    /// Turning right at A then left at B 80 m later: of the two right lanes only the left one is active. Turning
    /// right at A for a destination far along First Street: both right lanes are active.
    @Test func closeNextTurnNarrowsTheActiveLanes() throws {
        let map = try Self.map(named: "crafted-lanes")
        let close = try laneStates(try map.steps(from: map.point("S", north: 50), to: map.point("T", north: -50)))
        #expect(close.map(\.valid) == [false, false, true, true])
        #expect(close.map(\.active) == [false, false, true, false])

        let far = try laneStates(try map.steps(from: map.point("S", north: 50), to: map.point("F", east: -50)))
        #expect(far.map(\.valid) == [false, false, true, true])
        #expect(far.map(\.active) == [false, false, true, true])
    }
}
