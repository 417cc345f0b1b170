import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Crafted roundabouts for the exit count and the rotary/roundabout choice, as OSRM makes them. Maps are drawn
/// north up; coordinates are metres east (x) and north (y) of 45.0 N, 7.0 E (see `GuidanceJunctionTests.Sketch`).
@Suite struct CraftedGuidanceRoundaboutTests {
    typealias Sketch = GuidanceJunctionTests.Sketch

    /// A counter-clockwise ring of radius 40 m with ring nodes every 45 degrees from the south (node 1), and arms
    /// at the S (1), E (3), N (5) and W (7) ring nodes, each 250 m long:
    ///
    ///             N
    ///             |
    ///         .-- o --.
    ///    W -- o       o -- E
    ///         '-- o --'
    ///             |
    ///             S
    ///
    /// `arms` gives each arm's tags by ring node; `ring` the ring's tags; a way's `refs` run from the ring outwards
    /// unless `inbound` lists the ring node (then the arm is drawn towards the ring, for oneways into it).
    static func roundabout(ring: [String: String], arms: [Int64: [String: String]], inbound: Set<Int64> = [],
                           ringPieces: [[Int64]]? = nil, pieceTags: [[String: String]]? = nil) -> Sketch {
        var s = Sketch()
        let r = 40.0
        for index in 0..<8 {
            let degrees = -90.0 + 45.0 * Double(index)
            s.node(Int64(index + 1), r * cos(degrees * .pi / 180), r * sin(degrees * .pi / 180))
        }
        if let ringPieces, let pieceTags {
            for (piece, tags) in zip(ringPieces, pieceTags) { s.way(piece, tags) }
        } else {
            s.way([1, 2, 3, 4, 5, 6, 7, 8, 1], ring)
        }
        for (ringNode, tags) in arms.sorted(by: { $0.key < $1.key }) {
            let degrees = -90.0 + 45.0 * Double(ringNode - 1)
            let outer = 20 + ringNode
            s.node(outer, 250 * cos(degrees * .pi / 180), 250 * sin(degrees * .pi / 180))
            s.way(inbound.contains(ringNode) ? [outer, ringNode] : [ringNode, outer], tags)
        }
        return s
    }

    static func road(_ name: String, _ extra: [String: String] = [:]) -> [String: String] {
        ["highway": "tertiary", "name": name].merging(extra) { $1 }
    }

    static let ring = ["highway": "tertiary", "junction": "roundabout"]

    /// Entering from S for W: the E arm is a service road and the N arm a oneway that only leads into the ring. A
    /// driver passes no exit worth counting (OSRM counts neither), so W is the 1st exit. On a ring that is itself a
    /// service road, the service arm counts: W is the 2nd.
    @Test func serviceArmsAndOnewaysIntoTheRingAreNotExits() throws {
        let arms: [Int64: [String: String]] = [1: Self.road("South Road"), 3: ["highway": "service", "name": "Yard"],
                                               5: Self.road("North Road", ["oneway": "yes"]), 7: Self.road("West Road")]
        let steps = GuidanceJunctionTests.middle(try Self.roundabout(ring: Self.ring, arms: arms, inbound: [5])
            .steps("crafted-roundabout-service-exit", from: (0, -200), to: (-200, 0)))
        let enter = try #require(steps.first)
        #expect(enter.maneuver.type == .roundabout)
        #expect(enter.maneuver.exit == 1)
        #expect(steps.dropFirst().first?.maneuver.exit == 1)

        let serviceRing = ["highway": "service", "junction": "roundabout"]
        let onService = GuidanceJunctionTests.middle(try Self.roundabout(ring: serviceRing, arms: arms, inbound: [5])
            .steps("crafted-roundabout-service-ring", from: (0, -200), to: (-200, 0)))
        #expect(onService.first?.maneuver.type == .roundabout)
        #expect(onService.first?.maneuver.exit == 2)
    }

    /// The S junction also has a road leaving to the south-east, sharper right than the ring (a driver arriving
    /// from S could leave there at once): OSRM counts it as the 1st exit, so with E as the 2nd, N is the 3rd.
    ///
    ///             N
    ///             |
    ///         .-- o --.
    ///    W -- o       o -- E
    ///         '-- o --'
    ///             |\
    ///             S  SE
    @Test func aRoadLeavingAtTheEntryCountsAsTheFirstExit() throws {
        var s = Self.roundabout(ring: Self.ring, arms: [1: Self.road("South Road"), 3: Self.road("East Road"),
                                                        5: Self.road("North Road"), 7: Self.road("West Road")])
        s.node(40, 160, -140)
        s.way([1, 40], Self.road("Southeast Road"))
        let steps = GuidanceJunctionTests.middle(try s.steps("crafted-roundabout-entry-exit", from: (0, -200), to: (0, 200)))
        let enter = try #require(steps.first)
        #expect(enter.maneuver.type == .roundabout)
        #expect(enter.maneuver.exit == 3)
        #expect(enter.name == "North Road")
        #expect(steps.dropFirst().first?.maneuver.exit == 3)
    }

    /// A leg that starts on the ring between S and E and leaves at W passes E and N first: `exit roundabout`,
    /// 3rd exit (before, every such exit was called the 1st).
    @Test func aLegStartingOnTheRingCountsExitsFromTheStart() throws {
        let s = Self.roundabout(ring: Self.ring, arms: [1: Self.road("South Road"), 3: Self.road("East Road"),
                                                         5: Self.road("North Road"), 7: Self.road("West Road")])
        let steps = GuidanceJunctionTests.middle(try s.steps("crafted-roundabout-start-on-ring", from: (36, -15), to: (-200, 0)))
        let leave = try #require(steps.first)
        #expect(steps.count == 1)
        #expect(leave.maneuver.type == .exitRoundabout)
        #expect(leave.maneuver.exit == 3)
        #expect(leave.name == "West Road")
    }

    /// A ring of radius 40 m named "Place Ronde" on its northern half and unnamed on its southern half, with
    /// arms of other names: OSRM names a ring by its named pieces, so this is a rotary (a large ring with a name
    /// of its own). Naming an arm "Place Ronde" too makes it a plain roundabout.
    @Test func aRingNamedOnlyOnSomePiecesIsARotary() throws {
        let arms: [Int64: [String: String]] = [1: Self.road("South Road"), 3: Self.road("East Road"),
                                               5: Self.road("North Road"), 7: Self.road("West Road")]
        let pieces: [[Int64]] = [[1, 2, 3], [3, 4, 5, 6, 7], [7, 8, 1]]
        let named = ["highway": "tertiary", "junction": "roundabout", "name": "Place Ronde"]
        let tags = [Self.ring, named, Self.ring]
        let steps = GuidanceJunctionTests.middle(try Self.roundabout(ring: Self.ring, arms: arms, ringPieces: pieces, pieceTags: tags)
            .steps("crafted-rotary-partly-named", from: (0, -200), to: (-200, 0)))
        let enter = try #require(steps.first)
        #expect(enter.maneuver.type == .rotary)
        #expect(enter.rotaryName == "Place Ronde")
        #expect(steps.dropFirst().first?.maneuver.type == .exitRotary)

        var sharedName = arms
        sharedName[5] = Self.road("Place Ronde")
        let plain = GuidanceJunctionTests.middle(try Self.roundabout(ring: Self.ring, arms: sharedName, ringPieces: pieces, pieceTags: tags)
            .steps("crafted-rotary-name-shared", from: (0, -200), to: (-200, 0)))
        #expect(plain.first?.maneuver.type == .roundabout)
    }
}
