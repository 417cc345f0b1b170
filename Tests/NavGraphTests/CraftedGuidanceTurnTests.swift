import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Crafted junctions for OSRM's wording of end-of-road T junctions and of name changes. Maps are drawn north up
/// with `MapDrawing` (mostly `drawing(_:ways:)`: one column or line is 62.5 m, C at 45.0 N, 7.0 E); maps whose nodes
/// lie off that grid give their own `gridMetres` and `lineMetres`.
@Suite struct CraftedGuidanceTurnTests {
    /// A map of this suite: one column or line is 62.5 m, and C lies at 45.0 N, 7.0 E.
    static func drawing(_ drawing: String, ways: [(nodes: String, tags: [String: String])]) throws -> MapDrawing {
        try MapDrawing(drawing, gridMetres: 62.5, anchor: "C", ways: ways)
    }

    /// The coordinate `x` metres east and `y` metres north of 45.0 N, 7.0 E, on the mean Earth radius's degree.
    static func offset(_ x: Double, _ y: Double) -> Coordinate {
        Coordinate(lat: 45.0 + y / 111_195, lon: 7.0 + x / (111_195 * cos(45.0 * .pi / 180)))
    }

    /// A drawing puts each letter exactly at its metre offsets from the anchor (so angles are the drawing's).
    @Test func drawnLettersLieAtTheirMetreOffsets() throws {
        let map = try Self.tJunctionWithASideStreet(west: Self.road("West Street"))
        let expected: [Character: (Double, Double)] = ["C": (0, 0), "W": (-250, 0), "E": (250, 0), "J": (0, -125),
                                                       "X": (-250, -125), "S": (0, -250)]
        for (letter, metres) in expected {
            let drawn = try #require(map.coordinates[letter]), sketched = Self.offset(metres.0, metres.1)
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

    /// Side Road (S-C) joins Main Street (M-C-N), which runs on through the junction: its southern arm leaves C just
    /// beside Side Road, nearly opposite the way on (M lies 45 m west of S).
    ///
    /// Going straight on onto a through street is a `turn` straight (OSRM), not a `new name`.
    @Test func straightOntoAThroughStreetIsATurn() throws {
        let map = try MapDrawing("""
              N
              |
              C
             /|
            M S
            """, gridMetres: 22.5, lineMetres: 125, anchor: "C",
            ways: [("MCN", Self.road("Main Street")), ("SC", Self.road("Side Road"))])
            .importGraph(named: "crafted-through-street")
        let steps = GuidanceJunctionTests.middle(try map.steps(from: map.point("S", north: 50), to: map.point("N", north: -50)))
        #expect(steps.count == 1)
        #expect(steps.first?.maneuver.type == .turn)
        #expect(steps.first?.maneuver.modifier == .straight)
        #expect(steps.first?.name == "Main Street")
    }

    /// Two streets, Lower Road (W-C) and Upper Road (C-E), meet end to end at a bend of about 60 degrees, no other
    /// road there.
    ///
    /// The only way on, with a new name: OSRM words a two-road junction as a `new name` in the bend's direction
    /// (60 degrees: `left`), not a `turn`.
    @Test func bendWithANewNameIsANewNameInTheBendsDirection() throws {
        let map = try MapDrawing("""
                  E
                 /
            W---C
            """, gridMetres: 62.5, lineMetres: 108.5, anchor: "C",
            ways: [("WC", Self.road("Lower Road")), ("CE", Self.road("Upper Road"))])
            .importGraph(named: "crafted-bend-new-name")
        let steps = GuidanceJunctionTests.middle(try map.steps(from: map.point("W", east: 50), to: map.point("E", east: -25, north: -44)))
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

    /// Long Road (S-A) becomes Short Street (A-B-N) at A, which 20 m on (one line) crosses Cross Street (W-B-E) at
    /// B, where the route turns right. A lies at 45.0 N, 7.0 E.
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
            W---------B---------E
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
                      S
            """, gridMetres: 25, lineMetres: 20, anchor: "A",
            ways: [("SA", Self.road("Long Road")), ("ABN", Self.road("Short Street")), ("WBE", Self.road("Cross Street"))])
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

    /// An unnamed dual carriageway (two primary oneways) closes up at C into a named two-way primary, Main Road
    /// (C-N): the southbound carriageway (C-A) leaves C just west of straight back, the northbound one (B-C) arrives,
    /// and the two join again further south (A-J-B).
    ///
    /// Arriving on B, Main Road is nearly straight on with a new name, but the southbound carriageway is as
    /// unnamed as the road arrived on and just as important: OSRM v26 sees no obvious way on and says `turn`
    /// straight, not `new name`.
    @Test func straightNameChangeWithARivalOfTheSameNameIsATurn() throws {
        let map = try MapDrawing(#"""
                    N
                    |
                    |
                    |
                    |
                    C
                   / \
                 /    |
               /      |
             /        |
            A         B
              \     /
                \ /
                 J
            """#, gridMetres: 5, lineMetres: 50, anchor: "C",
            ways: [("CN", Self.road("Main Road", "primary")), ("CA", ["highway": "primary", "oneway": "yes"]),
                   ("BC", ["highway": "primary", "oneway": "yes"]), ("AJB", ["highway": "primary"])])
            .importGraph(named: "crafted-carriageways-close-up")
        let steps = GuidanceJunctionTests.middle(try map.steps(from: map.point("B", east: -2, north: 50), to: map.point("N", north: -50)))
        #expect(steps.count == 1)
        #expect(steps.first?.maneuver.type == .turn)
        #expect(steps.first?.maneuver.modifier == .straight)
        #expect(steps.first?.name == "Main Road")
    }

    /// A primary road (Main Road, S-C) forks into a primary (Upper Road, C-L) and a secondary (Lower Road, C-R),
    /// about 15 degrees either side of straight on.
    ///
    /// Neither branch is obvious by class (OSRM: a primary is not much more important than a secondary) nor by
    /// angle: a `fork`, slight left or slight right.
    @Test func primaryAndSecondaryBranchesAreAFork() throws {
        let map = try MapDrawing(#"""
            L   R
             \ /
              C
              |
              S
            """#, gridMetres: 32.5, lineMetres: 125, anchor: "C",
            ways: [("SC", Self.road("Main Road", "primary")), ("CL", Self.road("Upper Road", "primary")),
                   ("CR", Self.road("Lower Road", "secondary"))])
            .importGraph(named: "crafted-fork-classes")
        let left = GuidanceJunctionTests.middle(try map.steps(from: map.point("S", north: 50), to: map.point("L", east: 5, north: -20)))
        #expect(left.map(\.maneuver.type) == [.fork])
        #expect(left.first?.maneuver.modifier == .slightLeft)
        let right = GuidanceJunctionTests.middle(try map.steps(from: map.point("S", north: 50), to: map.point("R", east: -5, north: -20)))
        #expect(right.map(\.maneuver.type) == [.fork])
        #expect(right.first?.maneuver.modifier == .slightRight)
    }
}
