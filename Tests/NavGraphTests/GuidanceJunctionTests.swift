import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Crafted junctions, one guidance behaviour each. Maps are drawn north up with `MapDrawing`, each with its own
/// scale (`gridMetres` east per column, `lineMetres` south per line).
@Suite struct GuidanceJunctionTests {
    /// A named residential street's tags.
    static func residential(_ name: String) -> [String: String] { ["highway": "residential", "name": name] }

    /// The maneuvers between depart and arrive.
    static func middle(_ steps: [GuidanceStep]) -> [GuidanceStep] {
        #expect(steps.first?.maneuver.type == .depart)
        #expect(steps.last?.maneuver.type == .arrive)
        return Array(steps.dropFirst().dropLast())
    }

    /// A crossing of four residential streets, Cross Street (W-C-E), North Street (C-N) and South Street (S-C, tagged
    /// `south`).
    static func crossing(named name: String, south: [String: String] = residential("South Street")) throws -> DrawnMap {
        try MapDrawing("""
                N
                |
            W---C---E
                |
                S
            """, gridMetres: 50, lineMetres: 100, anchor: "C",
            ways: [("WCE", residential("Cross Street")), ("CN", residential("North Street")), ("SC", south)])
            .importGraph(named: name)
    }

    /// From South Street, Cross Street to the west is a plain `turn` left and to the east a plain `turn` right.
    @Test func plainLeftAndRight() throws {
        let map = try Self.crossing(named: "guidance-left-right")
        let left = Self.middle(try map.steps(from: map.point("S", north: 50), to: map.point("W", east: 50)))
        #expect(left.count == 1)
        #expect(left.first?.maneuver.type == .turn)
        #expect(left.first?.maneuver.modifier == .left)
        #expect(left.first?.name == "Cross Street")
        let right = Self.middle(try map.steps(from: map.point("S", north: 50), to: map.point("E", east: -50)))
        #expect(right.count == 1)
        #expect(right.first?.maneuver.type == .turn)
        #expect(right.first?.maneuver.modifier == .right)
    }

    /// A sharp left from Main Street (S-C-N) back to the south-west into Back Lane (C-B), about 150 degrees from
    /// straight on.
    @Test func sharpTurn() throws {
        let map = try MapDrawing("""
                N
                |
                |
                |
                C
               /|
              / |
             /  |
            B   S
            """, gridMetres: 27.5, lineMetres: 50, anchor: "C",
            ways: [("SCN", Self.residential("Main Street")), ("CB", Self.residential("Back Lane"))])
            .importGraph(named: "guidance-sharp")
        let steps = Self.middle(try map.steps(from: map.point("S", north: 50), to: map.point("B", east: 20, north: 36)))
        #expect(steps.count == 1)
        #expect(steps.first?.maneuver.type == .turn)
        #expect(steps.first?.maneuver.modifier == .sharpLeft)
    }

    /// A U-turn at the end of a dead-end spur (C-D): Cross Street is two ways (W-C, C-E) and going straight on at C
    /// is forbidden (no_straight_on W-C-E), so the route drives to D, turns round and comes back to turn east.
    @Test func uTurnAtDeadEnd() throws {
        var drawing = try MapDrawing("""
                D
                |
            W---C---E
            """, gridMetres: 50, lineMetres: 75, anchor: "C",
            ways: [("WC", Self.residential("Cross Street")), ("CE", Self.residential("Cross Street")), ("CD", Self.residential("Spur"))])
        drawing.osm.relations = [(50, [("way", 1, "from"), ("node", MapDrawing.nodeID("C"), "via"), ("way", 2, "to")],
                                  ["type": "restriction", "restriction": "no_straight_on"])]
        let map = try drawing.importGraph(named: "guidance-uturn")
        let steps = try map.steps(from: map.point("W", east: 50), to: map.point("E", east: -50))
        let uturn = try #require(steps.first { $0.maneuver.modifier == .uturn })
        let deadEnd = map["D"]
        #expect(abs(uturn.maneuver.location.lat - deadEnd.lat) < 1e-6 && abs(uturn.maneuver.location.lon - deadEnd.lon) < 1e-6)
        // Back at C the spur ends at Cross Street, the first junction after the U-turn: a plain turn left (OSRM keeps
        // `end of road` for Ts reached past other junctions).
        #expect(steps.contains { $0.maneuver.type == .turn && $0.maneuver.modifier == .left && $0.name == "Cross Street" })
    }

    /// From the south arm of an unnamed counter-clockwise roundabout (ring 1-8, radius about 40 m, one column or
    /// line is 10 m), exits 1 to 4 are East Road, North Road, West Road and Southwest Road (8-V).
    @Test func roundaboutExitsOneToFour() throws {
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
                                 / '-1-'
                                /    |
                               /     |
                              /      |
                             /       |
                            /        |
                           /         |
                          /          |
                         /           |
                        /            |
                       V             S
            """#, ways: [("123456781", ["highway": "tertiary", "junction": "roundabout"]),
                        ("1S", ["highway": "tertiary", "name": "South Road"]), ("3E", ["highway": "tertiary", "name": "East Road"]),
                        ("5N", ["highway": "tertiary", "name": "North Road"]), ("7W", ["highway": "tertiary", "name": "West Road"]),
                        ("8V", ["highway": "tertiary", "name": "Southwest Road"])])
            .importGraph(named: "guidance-roundabout")
        let targets = [(map.point("E", east: -50), "East Road"), (map.point("N", north: -40), "North Road"),
                       (map.point("W", east: 50), "West Road"), (map.point("V", east: 30, north: 30), "Southwest Road")]
        for (exit, target) in targets.enumerated() {
            let steps = Self.middle(try map.steps(from: map.point("S", north: 40), to: target.0))
            let enter = try #require(steps.first)
            #expect(enter.maneuver.type == .roundabout)
            #expect(enter.maneuver.exit == exit + 1)
            #expect(enter.name == target.1)
            let leave = try #require(steps.dropFirst().first)
            #expect(leave.maneuver.type == .exitRoundabout)
            #expect(leave.maneuver.exit == exit + 1)
            #expect(steps.count == 2)
        }
    }

    /// A small unnamed roundabout (ring 1-8, radius about 12 m, one column or line is 4 m) with one arm at each of its
    /// S, E, N and W junctions is a `roundabout turn`: a driver sees a crossing (OSRM: radius < 15 m, at most four
    /// junctions of one outside road each, arms more than 40 degrees apart). A second arm (Northeast Road, 3-F) at the
    /// E junction makes it a plain roundabout.
    @Test func smallRoundaboutIsATurnUnlessAJunctionJoinsTwoRoads() throws {
        let ring = ["highway": "tertiary", "junction": "roundabout"]
        let arms: [(nodes: String, tags: [String: String])] = [
            ("1S", ["highway": "tertiary", "name": "South Road"]), ("3E", ["highway": "tertiary", "name": "East Road"]),
            ("5N", ["highway": "tertiary", "name": "North Road"]), ("7W", ["highway": "tertiary", "name": "West Road"])]
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
                       .5.
                      6   4
                     /     \
            W--------7     3--------E
                     \     /
                      8   2
                       '1'
                        |
                        |
                        |
                        |
                        |
                        |
                        |
                        |
                        S
            """#, gridMetres: 4, ways: [("123456781", ring)] + arms)
            .importGraph(named: "guidance-small-roundabout")
        let plain = Self.middle(try map.steps(from: map.point("S", north: 10), to: map.point("N", north: -10)))
        let turn = try #require(plain.first)
        #expect(plain.count == 1)
        #expect(turn.maneuver.type == .roundaboutTurn)
        #expect(turn.maneuver.modifier == .straight)
        #expect(turn.maneuver.exit == 2)
        #expect(turn.name == "North Road")

        let crowdedMap = try MapDrawing(#"""
                        N
                        |
                        |
                        |
                        |
                        |
                        |
                        |           F
                        |         /
                       .5.      /
                      6   4    /
                     /     \ /
            W--------7     3--------E
                     \     /
                      8   2
                       '1'
                        |
                        |
                        |
                        |
                        |
                        |
                        |
                        |
                        S
            """#, gridMetres: 4, ways: [("123456781", ring)] + arms + [("3F", ["highway": "tertiary", "name": "Northeast Road"])])
            .importGraph(named: "guidance-small-roundabout-crowded")
        let crowded = Self.middle(try crowdedMap.steps(from: crowdedMap.point("S", north: 10), to: crowdedMap.point("N", north: -10)))
        let enter = try #require(crowded.first)
        #expect(enter.maneuver.type == .roundabout)
        #expect(enter.maneuver.exit == 2)
        #expect(crowded.dropFirst().first?.maneuver.type == .exitRoundabout)
    }

    /// A motorway (A1, oneway north, M-J-K-F) with an off-ramp (J-D-P) to Main Road (W-P-E, a primary crossing under
    /// the motorway), an on-ramp from it (P-U-K), and a fork at F into the A1 (F-L) and the A2 (F-R). One column is
    /// 30 m, one line 100 m.
    static func motorway(named name: String) throws -> DrawnMap {
        try MapDrawing(#"""
                      L                   R
                        \               /
                          \           /
                            \       /
                              \   /
                                F
                                |
                                |
                                |
                                |
                                |
                                K
                                |\
                                | U
                                |   \
            W-------------------|----P--------------E
                                |   /
                                | D
                                |/
                                J
                                |
                                |
                                |
                                |
                                |
                                M
            """#, gridMetres: 30, lineMetres: 100, anchor: "M",
            ways: [("MJKF", ["highway": "motorway", "oneway": "yes", "ref": "A1"]),
                   ("FL", ["highway": "motorway", "oneway": "yes", "ref": "A1"]),
                   ("FR", ["highway": "motorway", "oneway": "yes", "ref": "A2"]),
                   ("JDP", ["highway": "motorway_link", "oneway": "yes", "destination": "Town"]),
                   ("PUK", ["highway": "motorway_link", "oneway": "yes"]),
                   ("WPE", ["highway": "primary", "name": "Main Road"])])
            .importGraph(named: name)
    }

    /// Leaving the motorway at J is an `off ramp` slight right towards its destination, then a turn onto Main Road.
    @Test func offRamp() throws {
        let map = try Self.motorway(named: "guidance-offramp")
        let steps = Self.middle(try map.steps(from: map.point("M", north: 100), to: map.point("E", east: -100)))
        let ramp = try #require(steps.first)
        #expect(ramp.maneuver.type == .offRamp)
        #expect(ramp.maneuver.modifier == .slightRight)
        #expect(ramp.destinations == "Town")
        #expect(steps.dropFirst().first.map { [.turn, .endOfRoad].contains($0.maneuver.type) && $0.name == "Main Road" } == true)
    }

    /// From Main Road onto the motorway: an `on ramp`, then a `merge` slight left at K.
    @Test func onRampThenMerge() throws {
        let map = try Self.motorway(named: "guidance-onramp")
        let steps = Self.middle(try map.steps(from: map.point("W", east: 100), to: map.point("F", north: -200)))
        #expect(steps.map(\.maneuver.type) == [.onRamp, .merge])
        #expect(steps.last?.maneuver.modifier == .slightLeft)
    }

    /// At F the motorway forks: slight right for the A2, slight left for the A1.
    @Test func fork() throws {
        let map = try Self.motorway(named: "guidance-fork")
        let right = Self.middle(try map.steps(from: map.point("K", north: 200), to: map.point("R", east: -50, north: -80)))
        #expect(right.map(\.maneuver.type) == [.fork])
        #expect(right.first?.maneuver.modifier == .slightRight)
        let left = Self.middle(try map.steps(from: map.point("K", north: 200), to: map.point("L", east: 50, north: -80)))
        #expect(left.map(\.maneuver.type) == [.fork])
        #expect(left.first?.maneuver.modifier == .slightLeft)
    }

    /// Stem Street (S-J-T) ends at a T (Top Road, W-T-E), past a side street (Side Street, X-J): OSRM says
    /// `end of road` only after other junctions.
    @Test func endOfRoad() throws {
        let map = try MapDrawing("""
            W---T---E
                |
            X---J
                |
                S
            """, gridMetres: 50, anchor: "T",
            ways: [("WTE", Self.residential("Top Road")), ("SJT", Self.residential("Stem Street")),
                   ("XJ", Self.residential("Side Street"))])
            .importGraph(named: "guidance-end-of-road")
        let steps = Self.middle(try map.steps(from: map.point("S", north: 50), to: map.point("E", east: -50)))
        #expect(steps.count == 1)
        #expect(steps.first?.maneuver.type == .endOfRoad)
        #expect(steps.first?.maneuver.modifier == .right)
    }

    /// A straight secondary road whose second way (B-C) drops the name but keeps the ref D1 (same road, no
    /// announcement), then a really new name (Low Street, C-D), past a minor service road (B-V).
    @Test func nameChangeSuppressedOnSameRoad() throws {
        let map = try MapDrawing("""
            A===B===C===D
                |
                V
            """, gridMetres: 50, anchor: "A",
            ways: [("AB", ["highway": "secondary", "name": "High Street", "ref": "D1"]), ("BC", ["highway": "secondary", "ref": "D1"]),
                   ("CD", ["highway": "secondary", "name": "Low Street"]), ("BV", ["highway": "service"])])
            .importGraph(named: "guidance-new-name")
        let steps = Self.middle(try map.steps(from: map.point("A", east: 50), to: map.point("D", east: -50)))
        #expect(steps.count == 1)
        #expect(steps.first?.maneuver.type == .newName)
        #expect(steps.first?.name == "Low Street")
        #expect(abs((steps.first?.maneuver.location.lon ?? 0) - map["C"].lon) < 1e-6)
    }

    /// Lanes on the approach (S-C) to a crossing (`crossing`), tagged `turn:lanes:forward=left|through|through;right`.
    @Test func lanesFromTurnLanes() throws {
        var south = Self.residential("South Street")
        south["turn:lanes:forward"] = "left|through|through;right"
        let map = try Self.crossing(named: "guidance-lanes", south: south)
        let steps = Self.middle(try map.steps(from: map.point("S", north: 50), to: map.point("W", east: 50)))
        let lanes = try #require(steps.first?.intersections.first?.lanes)
        #expect(lanes.map(\.indications) == [["left"], ["straight"], ["straight", "right"]])
        #expect(lanes.map(\.valid) == [true, false, false])
        #expect(lanes.first?.validIndication == "left")
        let right = Self.middle(try map.steps(from: map.point("S", north: 50), to: map.point("E", east: -50)))
        #expect(right.first?.intersections.first?.lanes?.map(\.valid) == [false, false, true])
    }

    /// A ferry (P-Q, 2 km) between two roads, Harbour Road (A-P) and Quay Street (Q-B): a notification each way.
    @Test func ferryNotification() throws {
        let map = try MapDrawing("""
            A--P~~~~~~~~~~~~~~~~~~~Q--B
            """, gridMetres: 100, anchor: "A",
            ways: [("AP", Self.residential("Harbour Road")), ("PQ", ["route": "ferry", "name": "Island Ferry", "duration": "00:20"]),
                   ("QB", Self.residential("Quay Street"))])
            .importGraph(named: "guidance-ferry")
        let steps = Self.middle(try map.steps(from: map.point("A", east: 100), to: map.point("B", east: -100)))
        #expect(steps.map(\.maneuver.type) == [.notification, .notification])
        #expect(steps.map(\.maneuver.notice) == [.ferry, .leavingFerry])
        #expect(steps.map(\.mode) == [.ferry, .driving])
        #expect(steps.first?.name == "Island Ferry")
    }
}

extension DrawnMap {
    /// Routes by car from `a` to `b` and returns the steps of the single leg.
    func steps(from a: Coordinate, to b: Coordinate) throws -> [GuidanceStep] {
        let router = Router(graph: graph)
        var response = try router.route([a, b])
        router.addSteps(to: &response)
        guard let leg = response.routes.first?.legs.first else { throw NavGraphError("no route from \(a) to \(b)") }
        return leg.steps
    }
}
