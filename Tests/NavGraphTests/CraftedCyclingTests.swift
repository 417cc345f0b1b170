import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// The cycling, walking and e-scooter profiles after OSRM v26 bicycle.lua / foot.lua: their way rules on tags, their
/// turn costs, and routes and guidance on crafted maps (pushing sections, unnamed cycleways, no lanes).
@Suite struct CraftedCyclingTests {
    static let bicycle = BicycleProfile(), foot = FootProfile(), escooter = EScooterProfile()

    // MARK: Way rules

    @Test func footwaysAndStepsArePushedUnlessPedestriansAreKeptOff() throws {
        let footway = try #require(Self.bicycle.attributes(tags: ["highway": "footway"]))
        #expect(footway.forward && footway.backward)
        #expect(footway.speedKmhForward == BicycleProfile.pushingSpeedKmh && footway.speedKmhBackward == BicycleProfile.pushingSpeedKmh)
        #expect(footway.flags.contains([.pushedForward, .pushedBackward]))
        let steps = try #require(Self.bicycle.attributes(tags: ["highway": "steps"]))
        #expect(steps.speedKmhForward < BicycleProfile.pushingSpeedKmh && steps.flags.contains(.pushedForward))
        #expect(Self.bicycle.attributes(tags: ["highway": "footway", "foot": "no"]) == nil)
        // Where riding is allowed there is nothing to push.
        let ridden = try #require(Self.bicycle.attributes(tags: ["highway": "footway", "bicycle": "yes"]))
        #expect(ridden.speedKmhForward == BicycleProfile.ridingSpeedKmh && !ridden.flags.contains(.pushedForward))
    }

    @Test func onewaysArePushedAgainstTheTrafficAndContraflowLanesRidden() throws {
        let oneway = try #require(Self.bicycle.attributes(tags: ["highway": "residential", "oneway": "yes"]))
        #expect(oneway.forward && oneway.backward)
        #expect(oneway.speedKmhForward == BicycleProfile.ridingSpeedKmh && !oneway.flags.contains(.pushedForward))
        #expect(oneway.speedKmhBackward == BicycleProfile.pushingSpeedKmh && oneway.flags.contains(.pushedBackward))
        for lane in [["cycleway": "opposite_lane"], ["cycleway:left": "opposite_track"], ["oneway:bicycle": "no"]] {
            var tags = ["highway": "residential", "oneway": "yes"]
            tags.merge(lane) { $1 }
            let open = try #require(Self.bicycle.attributes(tags: OSMTags(tags)), "\(lane)")
            #expect(open.speedKmhBackward == BicycleProfile.ridingSpeedKmh && !open.flags.contains(.pushedBackward), "\(lane)")
        }
        // A roundabout is a oneway by implication: nothing is pushed against it.
        let ring = try #require(Self.bicycle.attributes(tags: ["highway": "residential", "junction": "roundabout"]))
        #expect(ring.forward && !ring.backward)
        // A cycle lane on a road a bicycle may not ride opens the lane's direction.
        let trunk = try #require(Self.bicycle.attributes(tags: ["highway": "trunk", "oneway": "yes", "cycleway:right": "lane"]))
        #expect(trunk.forward && trunk.speedKmhForward == BicycleProfile.ridingSpeedKmh && !trunk.backward)
        #expect(Self.bicycle.attributes(tags: ["highway": "trunk"]) == nil)
    }

    @Test func dismountSeparateCyclewaysLimitsAndSurfaces() throws {
        let dismount = try #require(Self.bicycle.attributes(tags: ["highway": "residential", "bicycle": "dismount"]))
        #expect(dismount.flags.contains([.pushedForward, .pushedBackward]) && dismount.speedKmhForward == BicycleProfile.pushingSpeedKmh)
        #expect(Self.bicycle.attributes(tags: ["highway": "primary", "cycleway:right": "separate"]) == nil)
        #expect(Self.bicycle.attributes(tags: ["highway": "primary", "cycleway:both": "separate", "bicycle": "designated"]) != nil)
        #expect(Self.bicycle.attributes(tags: ["highway": "residential", "maxspeed": "10"])?.speedKmhForward == 10)
        let mph = try #require(Self.bicycle.attributes(tags: ["highway": "residential", "maxspeed": "5 mph"])?.speedKmhForward)
        #expect(abs(mph - 5 * 1.609344) < 1e-9)
        #expect(Self.bicycle.attributes(tags: ["highway": "residential", "maxspeed": "walk"])?.speedKmhForward == BicycleProfile.ridingSpeedKmh)
        #expect(Self.bicycle.attributes(tags: ["highway": "residential", "surface": "cobblestone"])?.speedKmhForward == 7)
        #expect(Self.bicycle.attributes(tags: ["highway": "residential", "bicycle": "private"]) == nil)
        #expect(Self.bicycle.attributes(tags: ["highway": "residential", "construction": "major"]) == nil)
        let ferry = try #require(Self.bicycle.attributes(tags: ["route": "ferry", "duration": "00:30"]))
        #expect(ferry.flags.contains(.ferry) && ferry.ferryDurationSeconds == 1800)
        let platform = try #require(Self.bicycle.attributes(tags: ["railway": "platform"]))
        #expect(platform.flags.contains(.pushedForward) == false && platform.speedKmhForward == BicycleProfile.pushingSpeedKmh)
    }

    @Test func pedestriansWalkStepsAtWalkingSpeedAndLeaveStreetsToSeparateSidewalks() throws {
        #expect(Self.foot.attributes(tags: ["highway": "steps"])?.speedKmhForward == FootProfile.walkingSpeedKmh)
        #expect(Self.foot.attributes(tags: ["highway": "primary", "sidewalk": "separate"]) == nil)
        #expect(Self.foot.attributes(tags: ["highway": "primary", "sidewalk:both": "separate", "foot": "yes"]) != nil)
        #expect(Self.foot.attributes(tags: ["highway": "cycleway"]) == nil)
        #expect(Self.foot.attributes(tags: ["highway": "cycleway", "foot": "designated"]) != nil)
        #expect(Self.foot.attributes(tags: ["highway": "footway", "foot": "private"]) == nil)
    }

    @Test func eScootersRideCyclewaysFasterButNeverMotorwaysOrTrunks() throws {
        let street = try #require(Self.escooter.attributes(tags: ["highway": "residential"]))
        #expect(street.speedKmhForward == EScooterProfile.maxSpeedKmh)
        let track = try #require(Self.escooter.attributes(tags: ["highway": "track"]))
        #expect(track.speedKmhForward > 12 && track.speedKmhForward <= EScooterProfile.maxSpeedKmh)
        for highway in ["motorway", "trunk", "trunk_link"] {
            #expect(Self.escooter.attributes(tags: OSMTags(["highway": highway, "escooter": "yes", "bicycle": "yes"])) == nil, "\(highway)")
        }
        // escooter=* decides in place of bicycle=*.
        #expect(Self.escooter.attributes(tags: ["highway": "cycleway", "escooter": "no"]) == nil)
        #expect(Self.escooter.attributes(tags: ["highway": "cycleway", "bicycle": "no", "escooter": "yes"]) != nil)
        #expect(Self.escooter.attributes(tags: ["highway": "residential", "maxspeed": "15"])?.speedKmhForward == 15)
        // Pushed sections stay at walking speed.
        #expect(Self.escooter.attributes(tags: ["highway": "footway"])?.speedKmhForward == BicycleProfile.pushingSpeedKmh)
        #expect(ProfileID(name: "escooter") == .escooter && ProfileID.escooter.roadSet == .active)
    }

    @Test func cyclistsPayForTheAngleLeftTurnsMore() {
        let right = ActiveTurnCosts.anglePenalty(angle: 90), left = ActiveTurnCosts.anglePenalty(angle: -90)
        #expect(abs(right - ActiveTurnCosts.turnPenaltySeconds / ActiveTurnCosts.turnBias) < 1e-9)
        #expect(abs(left - ActiveTurnCosts.turnPenaltySeconds * ActiveTurnCosts.turnBias) < 1e-9)
        #expect(ActiveTurnCosts.anglePenalty(angle: 10) < ActiveTurnCosts.anglePenalty(angle: 45))
    }

    // MARK: Routes and guidance

    /// A street W-A-B-C east: A-B a footway (unnamed) or a cycleway, the rest residential streets; a long residential
    /// detour A-D-E-B south of it (1.5 km) that a cyclist would rather not ride; and, when `north` tags it, a street
    /// B-N north (else N is a node of no way). One column is 50 m, one line 100 m; A lies at (45.0, 7.0).
    static func street(middle: [String: String], eastTags: [String: String] = ["highway": "residential", "name": "East Street"],
                       north: [String: String]? = nil) throws -> MapDrawing {
        let detour = ["highway": "residential", "name": "Detour"]
        return try MapDrawing("""
                   N
                   |
                   |
            W---A~~B---C
                |  |
                |  |
                |  |
                |  |
                |  |
                |  |
                D--E
            """, gridMetres: 50, lineMetres: 100, anchor: "A",
            ways: [("WA", ["highway": "residential", "name": "West Street"]), ("AB", middle), ("BC", eastTags),
                   ("AD", detour), ("DE", detour), ("EB", detour)] + (north.map { [("BN", $0)] } ?? []))
    }

    /// The leg of `profile` from 50 m east of W to `to` (by default 50 m west of C), with its guidance steps.
    static func leg(_ map: DrawnMap, profile: ProfileID, to: Coordinate? = nil) throws -> RouteLeg {
        let router = Router(graph: try map.graph(profile: profile))
        var response = try router.route([map.point("W", east: 50), to ?? map.point("C", east: -50)])
        router.addSteps(to: &response)
        return response.routes[0].legs[0]
    }

    @Test func pushedFootwayIsAnnouncedAndRiddenAgainAfter() throws {
        let map = try Self.street(middle: ["highway": "footway"]).importGraph(named: "cycling-push-footway")
        let ride = try Self.leg(map, profile: .bicycle)
        let narrator = try PhrasebookNarrator(locale: "en", units: .metric)
        let pushed = try #require(ride.steps.firstIndex { $0.mode == .pushingBike }, "\(ride.steps.map(\.mode))")
        #expect(ride.steps[pushed].maneuver.notice == .pushBike)
        #expect(narrator.instruction(steps: ride.steps, index: pushed) == "Push your bike along the footway")
        let after = try #require(ride.steps.indices.first { $0 > pushed && ride.steps[$0].mode == .cycling })
        #expect(ride.steps[after].maneuver.notice == .rideBike)
        #expect(narrator.instruction(steps: ride.steps, index: after).contains("East Street"))
        // The pushed 150 m take walking time: longer than riding them.
        #expect(ride.steps[pushed].duration > 150 / (BicycleProfile.ridingSpeedKmh / 3.6))
        for language in ["de", "fr", "es", "it", "nl", "pt"] {
            let words = try PhrasebookNarrator(locale: language, units: .metric).instruction(steps: ride.steps, index: pushed)
            #expect(!words.isEmpty && words != narrator.instruction(steps: ride.steps, index: pushed), "\(language)")
        }
        // A pedestrian walks the same footway: walking, never pushing.
        let walk = try Self.leg(map, profile: .foot)
        #expect(walk.steps.allSatisfy { $0.mode == .walking })
    }

    @Test func unnamedCyclewayIsNamedByItsKind() throws {
        // An unnamed cycleway north from B: the ride turns left onto it.
        let map = try Self.street(middle: ["highway": "residential", "name": "Middle Street"], north: ["highway": "cycleway"])
            .importGraph(named: "cycling-unnamed-cycleway")
        let ride = try Self.leg(map, profile: .bicycle, to: map.point("N", north: -50))
        let narrator = try PhrasebookNarrator(locale: "en", units: .metric)
        let texts = ride.steps.indices.map { narrator.instruction(steps: ride.steps, index: $0) }
        let onto = try #require(ride.steps.firstIndex { $0.roadClass == .cycleway && $0.maneuver.type != .arrive }, "\(texts)")
        #expect(ride.steps[onto].name.isEmpty)
        #expect(texts[onto].hasSuffix("the cycleway"), "\(texts[onto])")
    }

    @Test func lanesGuideDriversOnly() throws {
        let map = try Self.street(middle: ["highway": "residential", "name": "Middle Street", "turn:lanes:forward": "left|through|right"],
                                  north: ["highway": "residential", "name": "North Street"])
            .importGraph(named: "cycling-lanes")
        let lanes = { (leg: RouteLeg) in leg.steps.flatMap { $0.intersections.compactMap(\.lanes) } }
        #expect(!lanes(try Self.leg(map, profile: .car)).isEmpty)
        #expect(lanes(try Self.leg(map, profile: .bicycle)).isEmpty)
        #expect(lanes(try Self.leg(map, profile: .foot)).isEmpty)
    }

    /// A 25 x 25 grid of streets 100 m apart (big enough for a main component), and south of it a footway that only a
    /// `bicycle=no` path joins: the pedestrians' network, not the cyclists'. A cyclist's waypoint 30 m from that
    /// footway and 70 m from the grid snaps to the grid (the footway is an island for the bicycle); a walker's to the
    /// footway.
    @Test func cyclistsSnapToTheirOwnNetworkNotThePedestrians() throws {
        // The grid's south-west corner O at (45.0, 7.0) and its crossing G on the south edge are drawn; the grid's
        // other 623 crossings, 100 m apart, are placed from O below. One column is 100 m, one line 50 m.
        var drawing = try MapDrawing("""
            O-----------G
                        |
                        F--H
            """, gridMetres: 100, lineMetres: 50,
            ways: [("GF", ["highway": "path", "bicycle": "no"]), ("FH", ["highway": "footway"])])
        let corner = try #require(drawing.coordinates["O"])
        func id(_ i: Int, _ j: Int) -> Int64 {
            switch (i, j) {
            case (0, 0): MapDrawing.nodeID("O")
            case (12, 0): MapDrawing.nodeID("G")
            default: Int64(10_000 + i * 25 + j)
            }
        }
        for i in 0..<25 {
            for j in 0..<25 where id(i, j) >= 10_000 {
                let lat = corner.lat + Double(j) * 100 / MapDrawing.metresPerDegree
                let lon = corner.lon + Double(i) * 100 / (MapDrawing.metresPerDegree * cos(corner.lat * Double.pi / 180))
                drawing.osm.nodes.append((id(i, j), lat, lon))
            }
        }
        for i in 0..<25 {
            for j in 0..<25 {
                if i + 1 < 25 { drawing.osm.ways.append((Int64(drawing.osm.ways.count + 1), [id(i, j), id(i + 1, j)], ["highway": "residential"])) }
                if j + 1 < 25 { drawing.osm.ways.append((Int64(drawing.osm.ways.count + 1), [id(i, j), id(i, j + 1)], ["highway": "residential"])) }
            }
        }
        let map = try drawing.importGraph(named: "cycling-own-components")
        let start = map.point("G", east: 200, north: -70), end = map.point("G", east: -200, north: 50)
        let bicycle = try map.graph(profile: .bicycle)
        #expect(bicycle.profileComponentSizes?.first ?? 0 >= Snapper.smallComponentSize)
        let ride = try Router(graph: bicycle).route([start, end]).routes[0].legs[0]
        #expect(!ride.directedEdges.contains { bicycle.roadClass(edge: $0 >> 1) == .footway })
        let foot = try map.graph(profile: .foot)
        let walk = try Router(graph: foot).route([start, end]).routes[0].legs[0]
        #expect(walk.directedEdges.contains { foot.roadClass(edge: $0 >> 1) == .footway })
    }

    @Test func eScooterIsServedFromTheActiveRoadSet() throws {
        let map = try Self.street(middle: ["highway": "cycleway", "name": "Green Way"]).importGraph(named: "cycling-escooter")
        #expect(try map.graph(profile: .escooter).metadata.profiles == ["bicycle", "foot", "escooter"])
        let scooter = try Self.leg(map, profile: .escooter), bike = try Self.leg(map, profile: .bicycle)
        #expect(abs(scooter.distance - bike.distance) < 1)
        #expect(scooter.duration < bike.duration)
        #expect(scooter.steps.allSatisfy { $0.mode == .cycling })
    }
}
