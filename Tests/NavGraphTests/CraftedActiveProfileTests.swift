import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// The cycling and walking profiles against bicycle.lua and foot.lua on drawn maps: ways without a highway tag,
/// dead ends judged on each profile's own roads, node barriers, and a waypoint beside an island.
@Suite struct CraftedActiveProfileTests {
    static let street = ["highway": "residential", "name": "Station Street"]

    /// A platform and a pier at the end of a street: `railway=platform` and `man_made=pier` without a highway tag,
    /// which bicycle.lua pushes along and foot.lua walks. E and F lie on them alone, so a waypoint there snaps onto
    /// them (before, the reader dropped such ways and the waypoints went to C, 40 m away). One column or line is 10 m.
    @Test func platformsAndPiersWithoutAHighwayAreRouted() throws {
        let map = try MapDrawing("""
            A-----B-----C---F
                        |
                        D
                        |
                        E
            """, ways: [("ABC", Self.street), ("CDE", ["railway": "platform", "public_transport": "platform"]),
                        ("CF", ["man_made": "pier"])])
            .importGraph(named: "active-platform-pier")
        for profile in [ProfileID.bicycle, .foot] {
            let router = Router(graph: try map.graph(profile: profile))
            for (end, metres) in [(Character("E"), 160.0), ("F", 160.0)] {
                let response = try router.route([map["A"], map[end]])
                #expect(try #require(response.waypoints.last).snapDistance < 1, "\(profile) to \(end)")
                let leg = response.routes[0].legs[0]
                #expect(abs(leg.distance - metres) < 2, "\(profile) to \(end): \(leg.distance) m")
            }
        }
        // The cyclist pushes the 40 m of the platform at walking speed.
        let ride = try Router(graph: try map.graph(profile: .bicycle)).route([map["C"], map["E"]]).routes[0].legs[0]
        #expect(ride.duration > 40 / (BicycleProfile.pushingSpeedKmh / 3.6) - 1, "\(ride.duration) s")
    }

    /// Y is a dead end for a cyclist: the oneway X-Y is ridden towards Y and pushed back, and the tertiary Y-Z is
    /// closed to bicycles (`use_sidepath`) but open to pedestrians, so the road set counts two roads at Y. OSRM lets
    /// a profile turn back where it has one road; so does navgraph now, per profile: X-Y lies in the cyclist's main
    /// component both ways (before, riding it led into a trap and snapping avoided it), while a pedestrian, who can
    /// go on at Y, may not turn back there.
    @Test func aCyclistsDeadEndBesideAFootwayIsTurnedAt() throws {
        let map = try MapDrawing("""
            W-----X-----Y
                        |
                        Z-----V
                              |
                              U
            """, ways: [("WX", Self.street), ("XY", ["highway": "residential", "oneway": "yes", "name": "Yrjönkatu"]),
                        ("YZV", ["highway": "tertiary", "bicycle": "use_sidepath", "name": "Simonkatu"]),
                        ("VU", ["highway": "footway"])])
            .importGraph(named: "active-dead-end")
        let bicycle = try map.graph(profile: .bicycle)
        func components(way: Int64) -> [UInt32] {
            (0..<bicycle.edgeCount).filter { bicycle.edgeWay[$0] == way }.flatMap { edge in
                (0..<2).compactMap { direction -> UInt32? in
                    let node = bicycle.routingNodeOfEdge[2 * edge + direction]
                    return node >= 0 ? bicycle.routingComponent[Int(node)] : nil
                }
            }
        }
        let street = components(way: 1), deadEnd = components(way: 2)
        #expect(deadEnd.count == 2 && Set(deadEnd) == Set(street), "street \(street), dead end \(deadEnd)")
        // A waypoint on X-Y snaps there and the cyclist leaves it either way.
        let near = map.point("Y", east: -5)
        let response = try Router(graph: bicycle).route([near, map["W"]])
        #expect(try #require(response.waypoints.first).snapDistance < 1)
        let back = try Router(graph: bicycle).route([map["W"], near])
        #expect(abs(back.routes[0].legs[0].distance - 115) < 2)
        // The pedestrian goes on at Y: no turning back there, so from X-Y towards Y the walk to W runs round by Z only
        // if it must; here it turns at the waypoint and walks straight back.
        let walk = try Router(graph: try map.graph(profile: .foot)).route([near, map["W"]]).routes[0].legs[0]
        #expect(abs(walk.distance - 115) < 2)
        let junctions = try Self.junctions(of: map)
        let y = try #require(junctions.node(MapDrawing.nodeID("Y")))
        #expect(junctions.value.turnsBack(profile: 0, at: y), "bicycle")
        #expect(!junctions.value.turnsBack(profile: 1, at: y), "foot")
    }

    /// A gate with `access=no` on Gate Street stops cyclists and pedestrians, who go round by D-E (170 m instead of
    /// 110); `bicycle=yes` on the gate lets the cyclist through; a bollard stops the car only.
    @Test func nodeBarriersStopTheProfilesTheyClose() throws {
        let drawing = """
            A-----B-----C
            |           |
            D-----------E
            """
        let ways: [(nodes: String, tags: [String: String])] = [("ABC", ["highway": "residential", "name": "Gate Street"]),
                                                               ("ADEC", ["highway": "residential", "name": "Detour"])]
        func distance(_ map: DrawnMap, _ profile: ProfileID) throws -> Double {
            try Router(graph: try map.graph(profile: profile)).route([map.point("A", east: 5), map.point("C", east: -5)]).routes[0].legs[0].distance
        }
        let closed = try MapDrawing(drawing, ways: ways, nodeTags: ["B": ["barrier": "gate", "access": "no"]]).importGraph(named: "active-gate")
        for profile in [ProfileID.bicycle, .foot, .car] {
            #expect(abs(try distance(closed, profile) - 170) < 2, "\(profile) goes round")
        }
        let cyclists = try MapDrawing(drawing, ways: ways, nodeTags: ["B": ["barrier": "gate", "access": "no", "bicycle": "yes"]])
            .importGraph(named: "active-gate-bicycle")
        #expect(abs(try distance(cyclists, .bicycle) - 110) < 2)
        #expect(abs(try distance(cyclists, .foot) - 170) < 2)
        let bollard = try MapDrawing(drawing, ways: ways, nodeTags: ["B": ["barrier": "bollard"]]).importGraph(named: "active-bollard")
        #expect(abs(try distance(bollard, .bicycle) - 110) < 2)
        #expect(abs(try distance(bollard, .foot) - 110) < 2)
        #expect(abs(try distance(bollard, .car) - 170) < 2)
    }

    /// A waypoint 20 m from a short street of its own (an island) and 280 m from the main street: the island is
    /// close enough to be preferred, but it cannot reach the destination, so the route starts from the main street,
    /// as OSRM's snapping to the nearest big component does (before, the search for the main street stopped at
    /// 160 m, so there was no fallback and the route failed).
    @Test func aWaypointBesideAnIslandFallsBackToTheMainNetwork() throws {
        let map = try MapDrawing("""
            A-B-C-G-H





              I-J
            """, gridMetres: 50, ways: [("ABCGH", Self.street), ("IJ", ["highway": "residential", "name": "Island Lane"])])
            .importGraph(named: "active-island-fallback")
        let start = map.point("I", east: 25, north: 20)
        for profile in [ProfileID.car, .bicycle, .foot] {
            let response = try Router(graph: try map.graph(profile: profile)).route([start, map["G"]])
            let snapped = try #require(response.waypoints.first).snapDistance
            #expect(abs(snapped - 280) < 5, "\(profile): snapped \(snapped) m")
        }
    }

    /// The active road set's per-profile junctions of a drawn map, rebuilt from its OSM file as the importer does.
    static func junctions(of map: DrawnMap) throws -> (value: ProfileJunctions, node: (Int64) -> Int?) {
        let osm = map.path.replacingOccurrences(of: ".navgraph", with: ".osm")
        let source = try OSMSource(path: osm)
        var report = ImportReport()
        let profiles = RoadSet.active.profiles.map(\.profile)
        let (network, _) = try RoadNetworkBuilder.build(from: source, profiles: profiles, report: &report)
        let junctions = ProfileJunctions(network: network, profiles: profiles[0].id)
        let index = Dictionary(network.nodeOSMID.enumerated().map { ($0.element, $0.offset) }) { first, _ in first }
        return (junctions, { index[$0] })
    }
}
