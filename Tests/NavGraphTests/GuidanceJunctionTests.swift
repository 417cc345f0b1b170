import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Crafted junctions, one guidance behaviour each. Maps are drawn north up; each character cell is about 50 m
/// unless the map says otherwise. Nodes are placed in metres east (x) and north (y) of 45.0 N, 7.0 E.
@Suite struct GuidanceJunctionTests {
    /// A crafted network built from metre offsets.
    struct Sketch {
        var osm = CraftedOSM()
        var nextWay: Int64 = 1000

        static func coordinate(_ x: Double, _ y: Double) -> Coordinate {
            Coordinate(lat: 45.0 + y / 111_195, lon: 7.0 + x / (111_195 * cos(45.0 * .pi / 180)))
        }

        mutating func node(_ id: Int64, _ x: Double, _ y: Double) {
            let c = Self.coordinate(x, y)
            osm.nodes.append((id, c.lat, c.lon))
        }

        mutating func way(_ refs: [Int64], _ tags: [String: String]) {
            osm.ways.append((nextWay, refs, tags))
            nextWay += 1
        }

        /// Imports the sketch and routes from (x1, y1) to (x2, y2); returns the steps of the single leg.
        func steps(_ name: String, from a: (Double, Double), to b: (Double, Double)) throws -> [GuidanceStep] {
            let graph = try osm.importGraph(named: name)
            let router = Router(graph: graph)
            var response = try router.route([Self.coordinate(a.0, a.1), Self.coordinate(b.0, b.1)])
            router.addSteps(to: &response)
            return response.routes[0].legs[0].steps
        }
    }

    static func residential(_ name: String) -> [String: String] { ["highway": "residential", "name": name] }

    /// The maneuvers between depart and arrive.
    static func middle(_ steps: [GuidanceStep]) -> [GuidanceStep] {
        #expect(steps.first?.maneuver.type == .depart)
        #expect(steps.last?.maneuver.type == .arrive)
        return Array(steps.dropFirst().dropLast())
    }

    /// A crossing of four residential streets:
    ///
    ///           N (North Street)
    ///           |
    ///   W ----- C ----- E      (Cross Street)
    ///           |
    ///           S (South Street)
    static func crossing() -> Sketch {
        var s = Sketch()
        s.node(1, 0, 0); s.node(2, -200, 0); s.node(3, 200, 0); s.node(4, 0, 200); s.node(5, 0, -200)
        s.way([2, 1, 3], residential("Cross Street"))
        s.way([1, 4], residential("North Street"))
        s.way([5, 1], residential("South Street"))
        return s
    }

    @Test func plainLeftAndRight() throws {
        let left = Self.middle(try Self.crossing().steps("guidance-left", from: (0, -150), to: (-150, 0)))
        #expect(left.count == 1)
        #expect(left.first?.maneuver.type == .turn)
        #expect(left.first?.maneuver.modifier == .left)
        #expect(left.first?.name == "Cross Street")
        let right = Self.middle(try Self.crossing().steps("guidance-right", from: (0, -150), to: (150, 0)))
        #expect(right.count == 1)
        #expect(right.first?.maneuver.type == .turn)
        #expect(right.first?.maneuver.modifier == .right)
    }

    /// A sharp left back to the south-west (about 150 degrees from straight on):
    ///
    ///        N
    ///        |
    ///        C
    ///       /|
    ///      / |
    ///     B  S
    @Test func sharpTurn() throws {
        var s = Sketch()
        s.node(1, 0, 0); s.node(2, 0, 200); s.node(3, 0, -200); s.node(4, -110, -190)
        s.way([3, 1, 2], Self.residential("Main Street"))
        s.way([1, 4], Self.residential("Back Lane"))
        let steps = Self.middle(try s.steps("guidance-sharp", from: (0, -150), to: (-90, -155)))
        #expect(steps.count == 1)
        #expect(steps.first?.maneuver.type == .turn)
        #expect(steps.first?.maneuver.modifier == .sharpLeft)
    }

    /// A U-turn at the end of a dead-end spur: going straight on at C is forbidden, so the route drives to D,
    /// turns round and comes back to turn onto the east side.
    ///
    ///           D (dead end)
    ///           |
    ///   W ----- C ----- E      Cross Street (two ways), no_straight_on W-C-E
    @Test func uTurnAtDeadEnd() throws {
        var s = Sketch()
        s.node(1, 0, 0); s.node(2, -200, 0); s.node(3, 200, 0); s.node(4, 0, 150)
        s.osm.ways = [(10, [2, 1], Self.residential("Cross Street")), (11, [1, 3], Self.residential("Cross Street")),
                      (12, [1, 4], Self.residential("Spur"))]
        s.osm.relations = [(50, [("way", 10, "from"), ("node", 1, "via"), ("way", 11, "to")],
                            ["type": "restriction", "restriction": "no_straight_on"])]
        let steps = try s.steps("guidance-uturn", from: (-150, 0), to: (150, 0))
        let uturn = try #require(steps.first { $0.maneuver.modifier == .uturn })
        let deadEnd = Sketch.coordinate(0, 150)
        #expect(abs(uturn.maneuver.location.lat - deadEnd.lat) < 1e-6 && abs(uturn.maneuver.location.lon - deadEnd.lon) < 1e-6)
        // Back at C the spur ends at Cross Street, the first junction after the U-turn: a plain turn left (OSRM keeps
        // `end of road` for Ts reached past other junctions).
        #expect(steps.contains { $0.maneuver.type == .turn && $0.maneuver.modifier == .left && $0.name == "Cross Street" })
    }

    /// A roundabout (radius 40 m, unnamed, counter-clockwise) with arms to the S, E, N, W and SW:
    ///
    ///            N
    ///            |
    ///        .-- o --.
    ///   W -- o       o -- E
    ///      / '-- o --'
    ///    SW      |
    ///            S
    ///
    /// From the south arm, exits 1 to 4 are E, N, W and SW.
    static func roundabout() -> Sketch {
        var s = Sketch()
        let r = 40.0
        let ring: [(Int64, Double)] = [(1, -90), (2, -45), (3, 0), (4, 45), (5, 90), (6, 135), (7, 180), (8, 225)]
        for (id, degrees) in ring { s.node(id, r * cos(degrees * .pi / 180), r * sin(degrees * .pi / 180)) }
        s.way([1, 2, 3, 4, 5, 6, 7, 8, 1], ["highway": "tertiary", "junction": "roundabout"])
        let arms: [(Int64, Int64, Double, String)] = [(21, 1, -90, "South Road"), (23, 3, 0, "East Road"), (25, 5, 90, "North Road"),
                                                      (27, 7, 180, "West Road"), (28, 8, 225, "Southwest Road")]
        for (id, ringNode, degrees, name) in arms {
            s.node(id, 250 * cos(degrees * .pi / 180), 250 * sin(degrees * .pi / 180))
            s.way([ringNode, id], ["highway": "tertiary", "name": name])
        }
        return s
    }

    @Test func roundaboutExitsOneToFour() throws {
        let targets: [(Double, Double, String)] = [(200, 0, "East Road"), (0, 200, "North Road"), (-200, 0, "West Road"),
                                                   (-141, -141, "Southwest Road")]
        for (exit, target) in targets.enumerated() {
            let steps = Self.middle(try Self.roundabout().steps("guidance-roundabout-\(exit + 1)", from: (0, -200), to: (target.0, target.1)))
            let enter = try #require(steps.first)
            #expect(enter.maneuver.type == .roundabout)
            #expect(enter.maneuver.exit == exit + 1)
            #expect(enter.name == target.2)
            let leave = try #require(steps.dropFirst().first)
            #expect(leave.maneuver.type == .exitRoundabout)
            #expect(leave.maneuver.exit == exit + 1)
            #expect(steps.count == 2)
        }
    }

    /// A small roundabout (radius 12 m, unnamed) with one arm at each of its S, E, N and W junctions, and, when
    /// `crowded`, a second arm (Northeast Road) at the E junction:
    ///
    ///            N
    ///            |   NE (crowded only)
    ///          .-o-. /
    ///     W -- o   o -- E
    ///          '-o-'
    ///            |
    ///            S
    ///
    /// Four simple, well-apart arms: a driver sees a crossing, so it is a `roundabout turn` (OSRM: radius < 15 m, at
    /// most four junctions of one outside road each, arms more than 40 degrees apart). Two roads at one junction make
    /// it a plain roundabout.
    static func smallRoundabout(crowded: Bool) -> Sketch {
        var s = Sketch()
        let r = 12.0
        let ring: [(Int64, Double)] = [(1, -90), (2, -45), (3, 0), (4, 45), (5, 90), (6, 135), (7, 180), (8, 225)]
        for (id, degrees) in ring { s.node(id, r * cos(degrees * .pi / 180), r * sin(degrees * .pi / 180)) }
        s.way([1, 2, 3, 4, 5, 6, 7, 8, 1], ["highway": "tertiary", "junction": "roundabout"])
        var arms: [(Int64, Int64, Double, String)] = [(21, 1, -90, "South Road"), (23, 3, 0, "East Road"), (25, 5, 90, "North Road"),
                                                      (27, 7, 180, "West Road")]
        if crowded { arms.append((24, 3, 30, "Northeast Road")) }
        for (id, ringNode, degrees, name) in arms {
            s.node(id, 150 * cos(degrees * .pi / 180), 150 * sin(degrees * .pi / 180))
            s.way([ringNode, id], ["highway": "tertiary", "name": name])
        }
        return s
    }

    @Test func smallRoundaboutIsATurnUnlessAJunctionJoinsTwoRoads() throws {
        let plain = Self.middle(try Self.smallRoundabout(crowded: false).steps("guidance-small-roundabout", from: (0, -140), to: (0, 140)))
        let turn = try #require(plain.first)
        #expect(plain.count == 1)
        #expect(turn.maneuver.type == .roundaboutTurn)
        #expect(turn.maneuver.modifier == .straight)
        #expect(turn.maneuver.exit == 2)
        #expect(turn.name == "North Road")

        let crowded = Self.middle(try Self.smallRoundabout(crowded: true).steps("guidance-small-roundabout-crowded", from: (0, -140), to: (0, 140)))
        let enter = try #require(crowded.first)
        #expect(enter.maneuver.type == .roundabout)
        #expect(enter.maneuver.exit == 2)
        #expect(crowded.dropFirst().first?.maneuver.type == .exitRoundabout)
    }

    /// A motorway (oneway north) with an off-ramp to a primary road, an on-ramp from it, and a fork at the top:
    ///
    ///        A1 (NW)   A2 (NE)
    ///           \     /
    ///            \   /
    ///              F          fork
    ///              |
    ///              J2 <-.     on-ramp merges at J2
    ///              |     \
    ///              |      R2
    ///              |       \
    ///   P1 ------- | ------ P2 ---- P3   Main Road (primary), crossing under the motorway
    ///              |       /
    ///              |     R1
    ///              |    /
    ///              J1 -'      off-ramp leaves at J1
    ///              |
    ///              M0
    static func motorway() -> Sketch {
        var s = Sketch()
        s.node(1, 0, -1000); s.node(2, 0, -400); s.node(3, 0, 400); s.node(4, 0, 1000)
        s.node(5, -300, 1500); s.node(6, 300, 1500)
        s.node(11, 60, -200); s.node(12, 150, 0)     // off-ramp J1 -> R1 -> P2
        s.node(13, 60, 200)                          // on-ramp P2 -> R2 -> J2
        s.node(20, -600, 0); s.node(22, 600, 0)
        let motorway = ["highway": "motorway", "oneway": "yes", "ref": "A1"]
        s.way([1, 2, 3, 4], motorway)
        s.way([4, 5], ["highway": "motorway", "oneway": "yes", "ref": "A1"])
        s.way([4, 6], ["highway": "motorway", "oneway": "yes", "ref": "A2"])
        s.way([2, 11, 12], ["highway": "motorway_link", "oneway": "yes", "destination": "Town"])
        s.way([12, 13, 3], ["highway": "motorway_link", "oneway": "yes"])
        s.way([20, 12, 22], ["highway": "primary", "name": "Main Road"])
        return s
    }

    @Test func offRamp() throws {
        let steps = Self.middle(try Self.motorway().steps("guidance-offramp", from: (0, -900), to: (500, 0)))
        let ramp = try #require(steps.first)
        #expect(ramp.maneuver.type == .offRamp)
        #expect(ramp.maneuver.modifier == .slightRight)
        #expect(ramp.destinations == "Town")
        #expect(steps.dropFirst().first.map { [.turn, .endOfRoad].contains($0.maneuver.type) && $0.name == "Main Road" } == true)
    }

    @Test func onRampThenMerge() throws {
        let steps = Self.middle(try Self.motorway().steps("guidance-onramp", from: (-500, 0), to: (0, 800)))
        #expect(steps.map(\.maneuver.type) == [.onRamp, .merge])
        #expect(steps.last?.maneuver.modifier == .slightLeft)
    }

    @Test func fork() throws {
        let right = Self.middle(try Self.motorway().steps("guidance-fork-right", from: (0, 600), to: (250, 1420)))
        #expect(right.map(\.maneuver.type) == [.fork])
        #expect(right.first?.maneuver.modifier == .slightRight)
        let left = Self.middle(try Self.motorway().steps("guidance-fork-left", from: (0, 600), to: (-250, 1420)))
        #expect(left.map(\.maneuver.type) == [.fork])
        #expect(left.first?.maneuver.modifier == .slightLeft)
    }

    /// A street ending at a T, past a side street (OSRM says `end of road` only after other junctions):
    ///
    ///   W ------- T ------- E    (Top Road)
    ///             |
    ///   X ------- J              (Side Street)
    ///             |              (Stem Street)
    ///             S
    @Test func endOfRoad() throws {
        var s = Sketch()
        s.node(1, 0, 0); s.node(2, -200, 0); s.node(3, 200, 0); s.node(4, 0, -200); s.node(5, 0, -100); s.node(6, -200, -100)
        s.way([2, 1, 3], Self.residential("Top Road"))
        s.way([4, 5, 1], Self.residential("Stem Street"))
        s.way([6, 5], Self.residential("Side Street"))
        let steps = Self.middle(try s.steps("guidance-end-of-road", from: (0, -150), to: (150, 0)))
        #expect(steps.count == 1)
        #expect(steps.first?.maneuver.type == .endOfRoad)
        #expect(steps.first?.maneuver.modifier == .right)
    }

    /// A straight road whose second way drops the name but keeps the ref (same road, no announcement), then a
    /// really new name, past a minor service road:
    ///
    ///   A ===== B ===== C ===== D
    ///   "High Street" D1 | ""  D1  | "Low Street"
    ///                   service
    @Test func nameChangeSuppressedOnSameRoad() throws {
        var s = Sketch()
        s.node(1, 0, 0); s.node(2, 200, 0); s.node(3, 400, 0); s.node(4, 600, 0); s.node(5, 200, -100)
        s.way([1, 2], ["highway": "secondary", "name": "High Street", "ref": "D1"])
        s.way([2, 3], ["highway": "secondary", "ref": "D1"])
        s.way([3, 4], ["highway": "secondary", "name": "Low Street"])
        s.way([2, 5], ["highway": "service"])
        let steps = Self.middle(try s.steps("guidance-new-name", from: (50, 0), to: (550, 0)))
        #expect(steps.count == 1)
        #expect(steps.first?.maneuver.type == .newName)
        #expect(steps.first?.name == "Low Street")
        let start = Sketch.coordinate(400, 0)
        #expect(abs((steps.first?.maneuver.location.lon ?? 0) - start.lon) < 1e-6)
    }

    /// Lanes on the approach to a crossing, tagged `turn:lanes:forward=left|through|through;right`:
    ///
    ///           N
    ///           |
    ///   W ----- C ----- E
    ///           ^
    ///           |  (three lanes northbound)
    ///           S
    @Test func lanesFromTurnLanes() throws {
        var s = Self.crossing()
        s.osm.ways[2].tags["turn:lanes:forward"] = "left|through|through;right"
        let steps = Self.middle(try s.steps("guidance-lanes", from: (0, -150), to: (-150, 0)))
        let lanes = try #require(steps.first?.intersections.first?.lanes)
        #expect(lanes.map(\.indications) == [["left"], ["straight"], ["straight", "right"]])
        #expect(lanes.map(\.valid) == [true, false, false])
        #expect(lanes.first?.validIndication == "left")
        let right = Self.middle(try s.steps("guidance-lanes-right", from: (0, -150), to: (150, 0)))
        #expect(right.first?.intersections.first?.lanes?.map(\.valid) == [false, false, true])
    }

    /// A ferry between two roads:
    ///
    ///   A ----- P ~~~~~~~~~~~~ Q ----- B
    ///          road   ferry        road
    @Test func ferryNotification() throws {
        var s = Sketch()
        s.node(1, 0, 0); s.node(2, 300, 0); s.node(3, 2300, 0); s.node(4, 2600, 0)
        s.way([1, 2], Self.residential("Harbour Road"))
        s.way([2, 3], ["route": "ferry", "name": "Island Ferry", "duration": "00:20"])
        s.way([3, 4], Self.residential("Quay Street"))
        let steps = Self.middle(try s.steps("guidance-ferry", from: (100, 0), to: (2500, 0)))
        #expect(steps.map(\.maneuver.type) == [.notification, .notification])
        #expect(steps.map(\.maneuver.notice) == [.ferry, .leavingFerry])
        #expect(steps.map(\.mode) == [.ferry, .driving])
        #expect(steps.first?.name == "Island Ferry")
    }
}

extension DrawnMap {
    /// Routes by car from `a` to `b` and returns the steps of the single leg (as `GuidanceJunctionTests.Sketch.steps`).
    func steps(from a: Coordinate, to b: Coordinate) throws -> [GuidanceStep] {
        let router = Router(graph: graph)
        var response = try router.route([a, b])
        router.addSteps(to: &response)
        guard let leg = response.routes.first?.legs.first else { throw NavGraphError("no route from \(a) to \(b)") }
        return leg.steps
    }
}
