import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Crafted junctions for OSRM's wording of end-of-road T junctions and of name changes. Maps are drawn north up
/// with `MapDrawing` (see `drawing(_:ways:)`: one column or line is 62.5 m, C at 45.0 N, 7.0 E); maps whose nodes lie
/// off that grid are still built from metres east (x) and north (y) of 45.0 N, 7.0 E (`GuidanceJunctionTests.Sketch`).
@Suite struct CraftedGuidanceTurnTests {
    typealias Sketch = GuidanceJunctionTests.Sketch

    /// A map of this suite: one column or line is 62.5 m, and C lies at 45.0 N, 7.0 E (the Sketch's origin).
    static func drawing(_ drawing: String, ways: [(nodes: String, tags: [String: String])]) throws -> MapDrawing {
        try MapDrawing(drawing, gridMetres: 62.5, anchor: "C", ways: ways)
    }

    /// The suite's drawings put each letter exactly where a Sketch puts the same metre offsets (the angles stay).
    @Test func drawnLettersLieWhereTheSketchPutsThem() throws {
        let map = try Self.tJunctionWithASideStreet(west: Self.road("West Street"))
        let expected: [Character: (Double, Double)] = ["C": (0, 0), "W": (-250, 0), "E": (250, 0), "J": (0, -125),
                                                       "X": (-250, -125), "S": (0, -250)]
        for (letter, metres) in expected {
            let drawn = try #require(map.coordinates[letter]), sketched = Sketch.coordinate(metres.0, metres.1)
            #expect(drawn.lat == sketched.lat && drawn.lon == sketched.lon, "\(letter)")
        }
    }

    static func road(_ name: String?, _ highway: String = "residential") -> [String: String] {
        var tags = ["highway": highway]
        if let name { tags["name"] = name }
        return tags
    }

    /// A T: the west branch C-W tagged `west`, East Street C-E, Stem Road from S, and Side Street joining it at J,
    /// 125 m before C.
    static func tJunctionWithASideStreet(west: [String: String]) throws -> MapDrawing {
        try drawing("""
            W---C---E
                |
            X---J
                |
                S
            """, ways: [("CW", west), ("CE", road("East Street")), ("SJC", road("Stem Road")), ("XJ", road("Side Street"))])
    }

    /// A T whose two branches have different names (West Street, East Street), with a side street joining the stem on
    /// the way (`tJunctionWithASideStreet`).
    ///
    /// The stem ends at a road that runs both ways: `end of road` right (to E) and left (to W), whatever the
    /// branches are called. When the west branch is a service road, the stem meets only one other real road (OSRM
    /// v26's driveway junction): East Street is the way on whatever its angle, said as a `new name` right.
    @Test func tJunctionIsEndOfRoadUnlessABranchIsMinor() throws {
        let map = try Self.tJunctionWithASideStreet(west: Self.road("West Street")).importGraph(named: "crafted-eor")
        let right = GuidanceJunctionTests.middle(try map.steps(from: map.point("S", north: 50), to: map.point("E", east: -50)))
        #expect(right.count == 1)
        #expect(right.first?.maneuver.type == .endOfRoad)
        #expect(right.first?.maneuver.modifier == .right)
        let left = GuidanceJunctionTests.middle(try map.steps(from: map.point("S", north: 50), to: map.point("W", east: 50)))
        #expect(left.first?.maneuver.type == .endOfRoad)
        #expect(left.first?.maneuver.modifier == .left)

        let minorMap = try Self.tJunctionWithASideStreet(west: Self.road("West Street", "service"))
            .importGraph(named: "crafted-eor-minor")
        let minor = GuidanceJunctionTests.middle(
            try minorMap.steps(from: minorMap.point("S", north: 50), to: minorMap.point("E", east: -50)))
        #expect(minor.count == 1)
        #expect(minor.first?.maneuver.type == .newName)
        #expect(minor.first?.maneuver.modifier == .right)
    }

    /// An unnamed road (S-C) goes straight on into Main Street (C-N) at a crossing with Cross Street (W-C-E); Main
    /// Street starts here. Straight on with only the name changing is a `new name` (OSRM keeps `turn` for roads that
    /// run on through the junction).
    @Test func straightOntoAStreetStartingHereIsANewName() throws {
        let map = try Self.drawing("""
                N
                |
                |
                |
            W---C---E
                |
                |
                |
                S
            """, ways: [("WCE", Self.road("Cross Street")), ("CN", Self.road("Main Street")), ("SC", Self.road(nil))])
            .importGraph(named: "crafted-new-name-at-crossing")
        let steps = GuidanceJunctionTests.middle(try map.steps(from: map.point("S", north: 50), to: map.point("N", north: -50)))
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

    /// A primary road (Stem Road, S-C) ends at a T where it goes on as a primary to the east (East Street, C-E), while
    /// a residential street (West Street, C-W) leaves to the west.
    ///
    /// The primary going on is the obvious way (OSRM's obvious-road check: much more important than the branch it
    /// leaves, and the class arrived on), so neither way is an `end of road`: both are plain turns.
    @Test func tJunctionWithTheMainRoadGoingOnIsATurn() throws {
        let map = try Self.drawing("""
            W---C===E
                ‖
                ‖
                ‖
                S
            """, ways: [("CW", Self.road("West Street")), ("CE", Self.road("East Street", "primary")),
                        ("SC", Self.road("Stem Road", "primary"))])
            .importGraph(named: "crafted-t-main")
        let right = GuidanceJunctionTests.middle(try map.steps(from: map.point("S", north: 50), to: map.point("E", east: -50)))
        #expect(right.count == 1)
        #expect(right.first?.maneuver.type == .turn)
        #expect(right.first?.maneuver.modifier == .right)
        let left = GuidanceJunctionTests.middle(try map.steps(from: map.point("S", north: 50), to: map.point("W", east: 50)))
        #expect(left.count == 1)
        #expect(left.first?.maneuver.type == .turn)
        #expect(left.first?.maneuver.modifier == .left)
    }

    /// The stem of a T meets a public street going east and a private one going west (`tJunctionWithASideStreet`
    /// with Private Way, `access=private`, as C-W).
    ///
    /// OSRM's car profile keeps private streets (as restricted roads), so the junction is still a T: `end of road`
    /// right, not a plain bend of the road.
    @Test func privateBranchStillMakesAnEndOfRoad() throws {
        var privateWay = Self.road("Private Way")
        privateWay["access"] = "private"
        let map = try Self.tJunctionWithASideStreet(west: privateWay).importGraph(named: "crafted-eor-private")
        let right = GuidanceJunctionTests.middle(try map.steps(from: map.point("S", north: 50), to: map.point("E", east: -50)))
        #expect(right.count == 1)
        #expect(right.first?.maneuver.type == .endOfRoad)
        #expect(right.first?.maneuver.modifier == .right)
    }

    /// Close Lane (S-C-W) bends left at C; Side Street (C-N) starts there and goes straight on.
    ///
    /// Side Street is the obvious way on (OSRM v26: the bend is much sharper and keeps the name, and the road arrived
    /// on is a minor one), so the bend is no end of road: following Close Lane is a `continue` left, and going
    /// straight on is a `new name`.
    @Test func sameNameBendPastAStraightSideStreetIsAContinue() throws {
        let map = try Self.drawing("""
                N
                |
                |
                |
            W---C
                |
                |
                |
                S
            """, ways: [("SCW", Self.road("Close Lane")), ("CN", Self.road("Side Street"))])
            .importGraph(named: "crafted-bend-continue")
        let bend = GuidanceJunctionTests.middle(try map.steps(from: map.point("S", north: 50), to: map.point("W", east: 50)))
        #expect(bend.count == 1)
        #expect(bend.first?.maneuver.type == .continue)
        #expect(bend.first?.maneuver.modifier == .left)
        let straight = GuidanceJunctionTests.middle(try map.steps(from: map.point("S", north: 50), to: map.point("N", north: -50)))
        #expect(straight.count == 1)
        #expect(straight.first?.maneuver.type == .newName)
        #expect(straight.first?.maneuver.modifier == .straight)
    }

    /// Long Road (S-A) becomes Short Street (A-B-N) at A, which 20 m on crosses Cross Street (W-B-E) at B, where the
    /// route turns right. The 20 m need a 10 m grid (A lies at 45.0 N, 7.0 E), hence the tall drawing.
    ///
    /// The name change just before the turn is part of it (OSRM): one `turn` right, said where the name changes.
    @Test func nameChangeJustBeforeATurnIsPartOfIt() throws {
        let map = try MapDrawing("""
                                     N
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
            W------------------------B------------------------E
                                     |
                                     A
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     |
                                     S
            """, gridMetres: 10, anchor: "A", ways: [("SA", Self.road("Long Road")), ("ABN", Self.road("Short Street")),
                                                    ("WBE", Self.road("Cross Street"))])
            .importGraph(named: "crafted-name-change-then-turn")
        let steps = GuidanceJunctionTests.middle(try map.steps(from: map.point("S", north: 50), to: map.point("E", east: -50)))
        #expect(steps.count == 1)
        #expect(steps.first?.maneuver.type == .turn)
        #expect(steps.first?.maneuver.modifier == .right)
        #expect(abs((steps.first?.maneuver.location.lat ?? 0) - map["A"].lat) < 0.00005)
    }

    /// A stem (Stem Street, S-C) ending at a T (Top Road, W-C-E), with no other junction between the start and the T.
    ///
    /// OSRM says `end of road` only where the driver has passed other junctions since the last maneuver (the words
    /// then tell which junction is meant); straight after the start it is a plain `turn`.
    @Test func endOfRoadRightAfterTheStartIsATurn() throws {
        let map = try Self.drawing("""
            W---C---E
                |
                |
                |
                S
            """, ways: [("WCE", Self.road("Top Road")), ("SC", Self.road("Stem Street"))])
            .importGraph(named: "crafted-eor-no-junction-before")
        let steps = GuidanceJunctionTests.middle(try map.steps(from: map.point("S", north: 50), to: map.point("E", east: -50)))
        #expect(steps.count == 1)
        #expect(steps.first?.maneuver.type == .turn)
        #expect(steps.first?.maneuver.modifier == .right)
    }

    /// Two routes into the same T (Top Road, W-C-E), one passing a side street (Side Street, X-J) on the stem (Stem
    /// Street, S-J-C) and one not.
    ///
    /// From S the driver passes J before the T: `end of road` right. From X, turning left at J into Stem Street,
    /// the T is the very next junction: a plain `turn` right.
    @Test func endOfRoadRightAfterATurnIsATurn() throws {
        let map = try Self.drawing("""
            W---C---E
                |
            X---J
                |
                S
            """, ways: [("WCE", Self.road("Top Road")), ("SJC", Self.road("Stem Street")), ("XJ", Self.road("Side Street"))])
            .importGraph(named: "crafted-eor-after-junction")
        let passing = GuidanceJunctionTests.middle(try map.steps(from: map.point("S", north: 50), to: map.point("E", east: -50)))
        #expect(passing.map(\.maneuver.type) == [.endOfRoad])
        #expect(passing.first?.maneuver.modifier == .right)
        let turned = GuidanceJunctionTests.middle(try map.steps(from: map.point("X", east: 50), to: map.point("E", east: -50)))
        #expect(turned.map(\.maneuver.type) == [.turn, .turn])
        #expect(turned.map(\.maneuver.modifier) == [.left, .right])
    }

    /// An unnamed dual carriageway (two primary oneways) closes up into a named two-way primary:
    ///
    ///             N   Main Road (primary, both ways)
    ///             |
    ///             C
    ///            / \
    ///           A   B   A: the southbound carriageway leaves C just west of straight back; B: northbound arrives
    ///            \_/    (the carriageways join again further south)
    ///
    /// Arriving on B, Main Road is nearly straight on with a new name, but the southbound carriageway is as
    /// unnamed as the road arrived on and just as important: OSRM v26 sees no obvious way on and says `turn`
    /// straight, not `new name`.
    @Test func straightNameChangeWithARivalOfTheSameNameIsATurn() throws {
        var s = Sketch()
        s.node(1, 0, 0); s.node(2, 0, 250); s.node(3, -40, -250); s.node(4, 10, -250); s.node(5, -15, -400)
        s.way([1, 2], Self.road("Main Road", "primary"))
        s.way([1, 3], ["highway": "primary", "oneway": "yes"])
        s.way([4, 1], ["highway": "primary", "oneway": "yes"])
        s.way([3, 5, 4], ["highway": "primary"])
        let steps = GuidanceJunctionTests.middle(try s.steps("crafted-carriageways-close-up", from: (8, -200), to: (0, 200)))
        #expect(steps.count == 1)
        #expect(steps.first?.maneuver.type == .turn)
        #expect(steps.first?.maneuver.modifier == .straight)
        #expect(steps.first?.name == "Main Road")
    }

    /// A primary road forks into a primary and a secondary, about 15 degrees either side of straight on:
    ///
    ///        L   R        L: Upper Road (primary), R: Lower Road (secondary)
    ///         \ /
    ///          C
    ///          |
    ///          S          Main Road (primary)
    ///
    /// Neither branch is obvious by class (OSRM: a primary is not much more important than a secondary) nor by
    /// angle: a `fork`, slight left or slight right.
    @Test func primaryAndSecondaryBranchesAreAFork() throws {
        var s = Sketch()
        s.node(1, 0, 0); s.node(2, 0, -250); s.node(3, -65, 250); s.node(4, 65, 250)
        s.way([2, 1], Self.road("Main Road", "primary"))
        s.way([1, 3], Self.road("Upper Road", "primary"))
        s.way([1, 4], Self.road("Lower Road", "secondary"))
        let left = GuidanceJunctionTests.middle(try s.steps("crafted-fork-classes-left", from: (0, -200), to: (-60, 230)))
        #expect(left.map(\.maneuver.type) == [.fork])
        #expect(left.first?.maneuver.modifier == .slightLeft)
        let right = GuidanceJunctionTests.middle(try s.steps("crafted-fork-classes-right", from: (0, -200), to: (60, 230)))
        #expect(right.map(\.maneuver.type) == [.fork])
        #expect(right.first?.maneuver.modifier == .slightRight)
    }
}
