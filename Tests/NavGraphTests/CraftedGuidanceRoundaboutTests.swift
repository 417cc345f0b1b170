import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Crafted roundabouts for the exit count and the rotary/roundabout choice, as OSRM makes them.
@Suite struct CraftedGuidanceRoundaboutTests {
    /// A counter-clockwise ring 1-8 (radius about 40 m; one column or line is 10 m) with an arm at each of its S (1),
    /// E (3), N (5) and W (7) nodes; `ways` give the ring's pieces and the arms (drawn from the ring outwards, or
    /// towards it for oneways into it).
    static func roundabout(named name: String, ways: [(nodes: String, tags: [String: String])]) throws -> DrawnMap {
        try MapDrawing(#"""
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
                                   .-5-.
                                  6     4
                                 /       \
                                 |       |
            W--------------------7       3--------------------E
                                 |       |
                                 \       /
                                  8     2
                                   '-1-'
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
            """#, ways: ways)
            .importGraph(named: name)
    }

    /// A named tertiary road's tags, with `extra` tags.
    static func road(_ name: String, _ extra: [String: String] = [:]) -> [String: String] {
        ["highway": "tertiary", "name": name].merging(extra) { $1 }
    }

    /// An unnamed roundabout's tags.
    static let ring = ["highway": "tertiary", "junction": "roundabout"]

    /// The four arms of `roundabout`, each a two-way road of its own name.
    static let arms: [(nodes: String, tags: [String: String])] = [("1S", road("South Road")), ("3E", road("East Road")),
                                                                   ("5N", road("North Road")), ("7W", road("West Road"))]

    /// Entering from S for W: the E arm is a service road and the N arm a oneway that only leads into the ring. A
    /// driver passes no exit worth counting (OSRM counts neither), so W is the 1st exit. On a ring that is itself a
    /// service road, the service arm counts: W is the 2nd.
    @Test func serviceArmsAndOnewaysIntoTheRingAreNotExits() throws {
        let arms: [(nodes: String, tags: [String: String])] = [
            ("1S", Self.road("South Road")), ("3E", ["highway": "service", "name": "Yard"]),
            ("N5", Self.road("North Road", ["oneway": "yes"])), ("7W", Self.road("West Road"))]
        let map = try Self.roundabout(named: "crafted-roundabout-service-exit", ways: [("123456781", Self.ring)] + arms)
        let steps = GuidanceJunctionTests.middle(try map.steps(from: map.point("S", north: 40), to: map.point("W", east: 50)))
        let enter = try #require(steps.first)
        #expect(enter.maneuver.type == .roundabout)
        #expect(enter.maneuver.exit == 1)
        #expect(steps.dropFirst().first?.maneuver.exit == 1)

        let serviceRing = ["highway": "service", "junction": "roundabout"]
        let serviceMap = try Self.roundabout(named: "crafted-roundabout-service-ring", ways: [("123456781", serviceRing)] + arms)
        let onService = GuidanceJunctionTests.middle(
            try serviceMap.steps(from: serviceMap.point("S", north: 40), to: serviceMap.point("W", east: 50)))
        #expect(onService.first?.maneuver.type == .roundabout)
        #expect(onService.first?.maneuver.exit == 2)
    }

    /// The S junction also has a road leaving to the south-east (Southeast Road, 1-T), sharper right than the ring (a
    /// driver arriving from S could leave there at once): OSRM counts it as the 1st exit, so with E as the 2nd, N is
    /// the 3rd.
    @Test func aRoadLeavingAtTheEntryCountsAsTheFirstExit() throws {
        let map = try MapDrawing(#"""
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
                                   .-5-.
                                  6     4
                                 /       \
                                 |       |
            W--------------------7       3--------------------E
                                 |       |
                                 \       /
                                  8     2
                                   '-1-'
                                     | \
                                     |  \
                                     |    \
                                     |     \
                                     |       \
                                     |         \
                                     |          \
                                     |            \
                                     |             \
                                     S               T
            """#, ways: [("123456781", Self.ring)] + Self.arms + [("1T", Self.road("Southeast Road"))])
            .importGraph(named: "crafted-roundabout-entry-exit")
        let steps = GuidanceJunctionTests.middle(try map.steps(from: map.point("S", north: 40), to: map.point("N", north: -40)))
        let enter = try #require(steps.first)
        #expect(enter.maneuver.type == .roundabout)
        #expect(enter.maneuver.exit == 3)
        #expect(enter.name == "North Road")
        #expect(steps.dropFirst().first?.maneuver.exit == 3)
    }

    /// A leg that starts on the ring between S and E (on 2-3) and leaves at W passes E and N first: `exit roundabout`,
    /// 3rd exit (before, every such exit was called the 1st).
    @Test func aLegStartingOnTheRingCountsExitsFromTheStart() throws {
        let map = try Self.roundabout(named: "crafted-roundabout-start-on-ring", ways: [("123456781", Self.ring)] + Self.arms)
        let steps = GuidanceJunctionTests.middle(try map.steps(from: map.point("3", east: -5, north: -15), to: map.point("W", east: 50)))
        let leave = try #require(steps.first)
        #expect(steps.count == 1)
        #expect(leave.maneuver.type == .exitRoundabout)
        #expect(leave.maneuver.exit == 3)
        #expect(leave.name == "West Road")
    }

    /// A ring named "Place Ronde" on its northern half (3-4-5-6-7) and unnamed on its southern half, with arms of
    /// other names: OSRM names a ring by its named pieces, so this is a rotary (a large ring with a name of its own).
    /// Naming an arm "Place Ronde" too makes it a plain roundabout.
    @Test func aRingNamedOnlyOnSomePiecesIsARotary() throws {
        let named = ["highway": "tertiary", "junction": "roundabout", "name": "Place Ronde"]
        let pieces: [(nodes: String, tags: [String: String])] = [("123", Self.ring), ("34567", named), ("781", Self.ring)]
        let map = try Self.roundabout(named: "crafted-rotary-partly-named", ways: pieces + Self.arms)
        let steps = GuidanceJunctionTests.middle(try map.steps(from: map.point("S", north: 40), to: map.point("W", east: 50)))
        let enter = try #require(steps.first)
        #expect(enter.maneuver.type == .rotary)
        #expect(enter.rotaryName == "Place Ronde")
        #expect(steps.dropFirst().first?.maneuver.type == .exitRotary)

        let sharedName = Self.arms.map { $0.nodes == "5N" ? (nodes: "5N", tags: Self.road("Place Ronde")) : $0 }
        let sharedMap = try Self.roundabout(named: "crafted-rotary-name-shared", ways: pieces + sharedName)
        let plain = GuidanceJunctionTests.middle(
            try sharedMap.steps(from: sharedMap.point("S", north: 40), to: sharedMap.point("W", east: 50)))
        #expect(plain.first?.maneuver.type == .roundabout)
    }
}
