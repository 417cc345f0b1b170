import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Preferred lanes: when the next maneuver follows closely, only the lanes towards it stay active. Coordinates
/// are metres east (x) and north (y) of 45.0 N, 7.0 E (see `GuidanceJunctionTests.Sketch`).
@Suite struct CraftedGuidanceLaneTests {
    typealias Sketch = GuidanceJunctionTests.Sketch

    /// Approach Road runs north to A with `turn:lanes` left|through|right|right; First Street leads east from A to
    /// B (80 m), where Second Street goes north; Approach Road goes on north of A, First Street west of A:
    ///
    ///             N    Second Street (from B)
    ///             |       |
    ///   W ------- A ----- B ------ F
    ///             |
    ///             S    Approach Road (left|through|right|right)
    ///
    /// Turning right at A then left at B 80 m later: of the two right lanes only the left one is active. Turning
    /// right at A for a destination far along First Street: both right lanes are active.
    static func sketch() -> Sketch {
        var s = Sketch()
        s.node(1, 0, 0); s.node(2, 0, -300); s.node(3, 0, 300); s.node(4, -300, 0)
        s.node(5, 80, 0); s.node(6, 80, 300); s.node(7, 600, 0)
        s.way([2, 1], ["highway": "secondary", "name": "Approach Road", "oneway": "yes", "turn:lanes": "left|through|right|right"])
        s.way([1, 3], ["highway": "secondary", "name": "Approach Road"])
        s.way([4, 1], ["highway": "residential", "name": "First Street"])
        s.way([1, 5, 7], ["highway": "residential", "name": "First Street"])
        s.way([5, 6], ["highway": "residential", "name": "Second Street"])
        return s
    }

    func laneStates(_ steps: [GuidanceStep]) throws -> [(valid: Bool, active: Bool)] {
        let right = try #require(steps.first { $0.maneuver.type != .depart && $0.maneuver.modifier == .right })
        let lanes = try #require(right.intersections.first?.lanes)
        return lanes.map { ($0.valid, $0.active) }
    }

    @Test func closeNextTurnNarrowsTheActiveLanes() throws {
        let close = try laneStates(try Self.sketch().steps("crafted-lanes-close", from: (0, -250), to: (80, 250)))
        #expect(close.map(\.valid) == [false, false, true, true])
        #expect(close.map(\.active) == [false, false, true, false])

        let far = try laneStates(try Self.sketch().steps("crafted-lanes-far", from: (0, -250), to: (550, 0)))
        #expect(far.map(\.valid) == [false, false, true, true])
        #expect(far.map(\.active) == [false, false, true, true])
    }
}
