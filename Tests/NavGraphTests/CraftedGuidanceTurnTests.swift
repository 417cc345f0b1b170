import Foundation
import Testing
import NavGraph

/// Crafted junctions for OSRM's wording of end-of-road T junctions and of name changes. Maps are drawn north up;
/// coordinates are metres east (x) and north (y) of 45.0 N, 7.0 E (see `GuidanceJunctionTests.Sketch`).
@Suite struct CraftedGuidanceTurnTests {
    typealias Sketch = GuidanceJunctionTests.Sketch

    static func road(_ name: String?, _ highway: String = "residential") -> [String: String] {
        var tags = ["highway": highway]
        if let name { tags["name"] = name }
        return tags
    }

    /// A T whose two branches have different names:
    ///
    ///   W ------- C ------- E      West Street / East Street
    ///             |
    ///             S                Stem Road
    ///
    /// The stem ends at a road that runs both ways: `end of road` right (to E) and left (to W), whatever the
    /// branches are called. When the west branch is a service road, the east branch is the obvious way on: a plain
    /// `turn` right.
    @Test func tJunctionIsEndOfRoadUnlessABranchIsMinor() throws {
        func sketch(westHighway: String) -> Sketch {
            var s = Sketch()
            s.node(1, 0, 0); s.node(2, -250, 0); s.node(3, 250, 0); s.node(4, 0, -250)
            s.way([1, 2], Self.road("West Street", westHighway))
            s.way([1, 3], Self.road("East Street"))
            s.way([4, 1], Self.road("Stem Road"))
            return s
        }
        let right = GuidanceJunctionTests.middle(try sketch(westHighway: "residential").steps("crafted-eor-right", from: (0, -200), to: (200, 0)))
        #expect(right.count == 1)
        #expect(right.first?.maneuver.type == .endOfRoad)
        #expect(right.first?.maneuver.modifier == .right)
        let left = GuidanceJunctionTests.middle(try sketch(westHighway: "residential").steps("crafted-eor-left", from: (0, -200), to: (-200, 0)))
        #expect(left.first?.maneuver.type == .endOfRoad)
        #expect(left.first?.maneuver.modifier == .left)

        let minor = GuidanceJunctionTests.middle(try sketch(westHighway: "service").steps("crafted-eor-minor", from: (0, -200), to: (200, 0)))
        #expect(minor.count == 1)
        #expect(minor.first?.maneuver.type == .turn)
        #expect(minor.first?.maneuver.modifier == .right)
    }

    /// An unnamed road goes straight on into Main Street at a crossing with Cross Street; Main Street starts here.
    ///
    ///             N   Main Street
    ///             |
    ///   W ------- C ------- E      Cross Street
    ///             |
    ///             S   (unnamed)
    ///
    /// Straight on with only the name changing is a `new name` (OSRM keeps `turn` for roads that run on through
    /// the junction).
    @Test func straightOntoAStreetStartingHereIsANewName() throws {
        var s = Sketch()
        s.node(1, 0, 0); s.node(2, -250, 0); s.node(3, 250, 0); s.node(4, 0, 250); s.node(5, 0, -250)
        s.way([2, 1, 3], Self.road("Cross Street"))
        s.way([1, 4], Self.road("Main Street"))
        s.way([5, 1], Self.road(nil))
        let steps = GuidanceJunctionTests.middle(try s.steps("crafted-new-name-at-crossing", from: (0, -200), to: (0, 200)))
        #expect(steps.count == 1)
        #expect(steps.first?.maneuver.type == .newName)
        #expect(steps.first?.maneuver.modifier == .straight)
        #expect(steps.first?.name == "Main Street")
    }

    /// Side Road joins Main Street, which runs on through the junction: its southern arm leaves C just beside Side
    /// Road, nearly opposite the way on.
    ///
    ///             N   Main Street
    ///             |
    ///             C
    ///            /|
    ///           M S   M: Main Street (south-south-west), S: Side Road
    ///
    /// Going straight on onto a through street is a `turn` straight (OSRM), not a `new name`.
    @Test func straightOntoAThroughStreetIsATurn() throws {
        var s = Sketch()
        s.node(1, 0, 0); s.node(2, 0, 250); s.node(3, -45, -250); s.node(4, 0, -250)
        s.way([3, 1, 2], Self.road("Main Street"))
        s.way([4, 1], Self.road("Side Road"))
        let steps = GuidanceJunctionTests.middle(try s.steps("crafted-through-street", from: (0, -200), to: (0, 200)))
        #expect(steps.count == 1)
        #expect(steps.first?.maneuver.type == .turn)
        #expect(steps.first?.maneuver.modifier == .straight)
        #expect(steps.first?.name == "Main Street")
    }

    /// Two streets meet end to end at a bend of about 60 degrees, no other road there:
    ///
    ///                 E   Upper Road
    ///                /
    ///   W ---------- C    Lower Road
    ///
    /// The only way on, with a new name: OSRM words a two-road junction as a `new name` in the bend's direction
    /// (60 degrees: `left`), not a `turn`.
    @Test func bendWithANewNameIsANewNameInTheBendsDirection() throws {
        var s = Sketch()
        s.node(1, 0, 0); s.node(2, -250, 0); s.node(3, 125, 217)
        s.way([2, 1], Self.road("Lower Road"))
        s.way([1, 3], Self.road("Upper Road"))
        let steps = GuidanceJunctionTests.middle(try s.steps("crafted-bend-new-name", from: (-200, 0), to: (100, 173)))
        #expect(steps.count == 1)
        #expect(steps.first?.maneuver.type == .newName)
        #expect(steps.first?.maneuver.modifier == .left)
    }

    /// A primary road ends at a T where it goes on as a primary to the east, while a residential street leaves to
    /// the west:
    ///
    ///   W ------- C ======= E      West Street (residential) / East Street (primary)
    ///             ‖
    ///             S                Stem Road (primary)
    ///
    /// The primary going on is the obvious way (OSRM's obvious-road check: much more important than the branch it
    /// leaves, and the class arrived on), so neither way is an `end of road`: both are plain turns.
    @Test func tJunctionWithTheMainRoadGoingOnIsATurn() throws {
        var s = Sketch()
        s.node(1, 0, 0); s.node(2, -250, 0); s.node(3, 250, 0); s.node(4, 0, -250)
        s.way([1, 2], Self.road("West Street"))
        s.way([1, 3], Self.road("East Street", "primary"))
        s.way([4, 1], Self.road("Stem Road", "primary"))
        let right = GuidanceJunctionTests.middle(try s.steps("crafted-t-main-right", from: (0, -200), to: (200, 0)))
        #expect(right.count == 1)
        #expect(right.first?.maneuver.type == .turn)
        #expect(right.first?.maneuver.modifier == .right)
        let left = GuidanceJunctionTests.middle(try s.steps("crafted-t-main-left", from: (0, -200), to: (-200, 0)))
        #expect(left.count == 1)
        #expect(left.first?.maneuver.type == .turn)
        #expect(left.first?.maneuver.modifier == .left)
    }

    /// Long Road becomes Short Street at A, which 20 m on crosses Cross Street at B, where the route turns right:
    ///
    ///             N
    ///             |
    ///   W ------- B ------- E      Cross Street
    ///             |                Short Street (A to N, 20 m from A to B)
    ///             A
    ///             |
    ///             S                Long Road
    ///
    /// The name change just before the turn is part of it (OSRM): one `turn` right, said where the name changes.
    @Test func nameChangeJustBeforeATurnIsPartOfIt() throws {
        var s = Sketch()
        s.node(1, 0, -250); s.node(2, 0, 0); s.node(3, 0, 20); s.node(4, 250, 20); s.node(5, -250, 20); s.node(6, 0, 270)
        s.way([1, 2], Self.road("Long Road"))
        s.way([2, 3, 6], Self.road("Short Street"))
        s.way([5, 3, 4], Self.road("Cross Street"))
        let steps = GuidanceJunctionTests.middle(try s.steps("crafted-name-change-then-turn", from: (0, -200), to: (200, 20)))
        #expect(steps.count == 1)
        #expect(steps.first?.maneuver.type == .turn)
        #expect(steps.first?.maneuver.modifier == .right)
        let at = Sketch.coordinate(0, 0)
        #expect(abs((steps.first?.maneuver.location.lat ?? 0) - at.lat) < 0.00005)
    }
}
