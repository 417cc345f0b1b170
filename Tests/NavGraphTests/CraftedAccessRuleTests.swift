import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

private let origin = Coordinate(lat: 45.001, lon: 7.0)

/// A street W-N-E through a junction N whose tags are under test, with a side street N-S; on the degree grid, W at `origin`.
private func street(nodeTags: [String: String]) throws -> MapDrawing {
    try MapDrawing("""
        W---N---E
            |
            S
        """, gridMetres: DegreeGrid.gridMetres(at: origin), lineMetres: DegreeGrid.lineMetres, origin: origin,
        ways: [("WNE", ["highway": "residential", "name": "Main Street"]), ("NS", ["highway": "residential"])],
        nodeTags: ["N": nodeTags])
}

/// A short road A-B under test between two stubs X-A and B-Y, and a longer residential detour A-D-F-B; on the degree
/// grid, X at `origin`.
private func shortcut(_ tags: [String: String]) throws -> MapDrawing {
    try MapDrawing("""
        X-A-------B-Y
          |       |
          D-------F
        """, gridMetres: DegreeGrid.gridMetres(at: origin), lineMetres: DegreeGrid.lineMetres, origin: origin,
        ways: [("XA", ["highway": "residential"]), ("AB", tags), ("BY", ["highway": "residential"]),
               ("ADFB", ["highway": "residential"])])
}

// Pinned values (ms): OSRM car.lua's gate penalty, and a U-turn (angle sigmoid at 180° + 20 s) as in TurnCostTests.
private let gate: UInt32 = 60_000
private let uTurn: UInt32 = 27_455

/// Access, tracks, barriers and destination-only roads as OSRM v26 car.lua decides them (docs/PROFILES.md, "Time model").
@Suite("Crafted access rules")
struct CraftedAccessRuleTests {
    @Test func tracksNeedAnAccessTagThatAllowsCars() throws {
        for (tags, routable) in [(["highway": "track"], false), (["highway": "track", "motor_vehicle": "yes"], true),
                                 (["highway": "track", "access": "permissive"], true), (["highway": "track", "access": "private"], false),
                                 (["highway": "track", "motor_vehicle": "destination"], false)] {
            let map = try shortcut(tags).importGraph(named: "access-track-\(routable)-\(tags.count)-\(tags.values.sorted().joined())")
            #expect((map.routingNode("AB") != nil) == routable, "\(tags)")
        }
        // Other highways outside car.lua's speed table follow the same rule (filed as tracks); steps never carry cars.
        for (tags, routable) in [(["highway": "footway"], false), (["highway": "footway", "access": "permissive"], true),
                                 (["highway": "pedestrian", "motor_vehicle": "destination"], false), (["highway": "steps", "access": "yes"], false)] {
            let map = try shortcut(tags).importGraph(named: "access-other-\(routable)-\(tags.values.sorted().joined())")
            #expect((map.routingNode("AB") != nil) == routable, "\(tags)")
        }
        #expect(CarProfile.attributes(tags: ["highway": "footway", "access": "permissive"])?.roadClass == .track)
        // An allowed track runs at the profile's default speed (10 km/h).
        #expect(CarProfile.attributes(tags: ["highway": "track", "motor_vehicle": "yes"])?.speedKmhForward == 10)
    }

    @Test func accessValuesFollowCarLua() throws {
        for value in ["foot", "official", "restricted", "taxi", "bus", "emergency_vehicle"] {
            #expect(CarProfile.attributes(tags: ["highway": "residential", "access": value]) == nil, "\(value)")
        }
        for value in ["permit", "residents", "customers", "delivery", "destination"] {
            #expect(CarProfile.attributes(tags: ["highway": "residential", "access": value])?.flags.contains(.destinationOnly) == true, "\(value)")
        }
        // A `;` list counts as its most permissive value; emergency access service roads are closed.
        #expect(CarProfile.attributes(tags: ["highway": "residential", "access": "no;destination"])?.flags.contains(.destinationOnly) == true)
        #expect(CarProfile.attributes(tags: ["highway": "residential", "access": "no;yes"])?.flags == [])
        #expect(CarProfile.attributes(tags: ["highway": "service", "service": "emergency_access"]) == nil)
        let official = try shortcut(["highway": "residential", "access": "official"]).importGraph(named: "access-official")
        #expect(official.routingNode("AB") == nil)
    }

    @Test func gateDelaysEveryPassage() throws {
        for (tags, delay) in [(["barrier": "gate"], gate), (["barrier": "lift_gate"], gate), (["barrier": "gate", "access": "yes"], 0),
                              (["barrier": "cattle_grid"], 0), (["barrier": "kerb", "kerb": "lowered"], 0),
                              (["barrier": "height_restrictor", "maxheight": "2.5"], 0)] {
            let map = try street(nodeTags: tags).importGraph(named: "barrier-pass-\(tags.values.sorted().joined(separator: "-"))")
            #expect(map.turnCost(from: "WN", into: "NE") == delay, "\(tags)")
            #expect(map.turnCost(from: "EN", into: "NW") == delay, "\(tags)")
        }
    }

    @Test func otherBarriersAllowOnlyAUTurn() throws {
        for tags in [["barrier": "bollard"], ["barrier": "block"], ["barrier": "gate", "access": "no"], ["barrier": "yes"],
                     ["motor_vehicle": "no"], ["barrier": "height_restrictor", "maxheight": "1.8"]] {
            let map = try street(nodeTags: tags).importGraph(named: "barrier-block-\(tags.values.sorted().joined(separator: "-"))")
            #expect(map.turnCost(from: "WN", into: "NE") == nil, "\(tags)")
            #expect(map.turnCost(from: "WN", into: "NW") == uTurn, "\(tags)")
            // No route drives W-N and then N-E (one end may move to the main network instead).
            let west = map["W"], east = map["E"]
            let wn = try #require(map.routingNode("WN")), ne = try #require(map.routingNode("NE"))
            if let leg = try? Router(graph: map.graph).route([west, east]).routes.first?.legs.first {
                #expect(!(leg.routingNodes.contains(wn) && leg.routingNodes.contains(ne)), "\(tags): the route passed the barrier")
            }
        }
    }

    /// Car barriers are the car's: a pedestrian and a cyclist pass the bollard a car must turn back at.
    @Test func barriersStopCarsNotPedestriansOrCyclists() throws {
        let map = try street(nodeTags: ["barrier": "bollard"]).importGraph(named: "barrier-bollard-profiles")
        let west = map["W"], east = map["E"]
        let straight = Geo.haversine(west, east)
        for profile in [ProfileID.foot, .bicycle] {
            let router = Router(graph: try map.graph(profile: profile))
            var options = RouteOptions()
            options.radius = 200
            let leg = try #require(try router.route([west, east], options: options).routes.first?.legs.first, "\(profile)")
            #expect(abs(leg.distance - straight) < 1, "\(profile): \(leg.distance) m for a \(straight) m street")
        }
        #expect(map.turnCost(from: "WN", into: "NE") == nil)
    }

    /// `private` is restricted as `destination` is (car.lua's `restricted_access_tag_list`): the same behaviour.
    @Test(arguments: ["destination", "private"])
    func destinationRoadsCarryRoutesOnlyToOrFromPlacesOnThem(access: String) throws {
        let map = try shortcut(["highway": "residential", "access": access]).importGraph(named: "access-\(access)")
        let router = Router(graph: map.graph)
        // The stubs' ends, and a point a tenth of a line north of the middle of A-B.
        let west = map["X"], east = map["Y"], onTheRoad = map.cell("A", columns: 4, lines: -0.1)
        let penalty = Double(TurnCosts.restrictedEntryMilliseconds) / 1000
        // Through traffic takes the detour A-D-F-B although A-B is shorter, and pays no penalty.
        let open = try shortcut(["highway": "residential"]).importGraph(named: "access-destination-open")
        let direct = try #require(try Router(graph: open.graph).route([west, east]).routes.first?.legs.first)
        for algorithm in SearchAlgorithm.allCases {
            var options = RouteOptions()
            options.algorithm = algorithm
            let through = try #require(try router.route([west, east], options: options).routes.first?.legs.first)
            #expect(through.distance > direct.distance + 100)
            #expect(abs(through.duration - through.weight) < 0.002)
            // A trip to a place on the road enters it once: the search cost carries the penalty, the duration does not.
            let inbound = try #require(try router.route([west, onTheRoad], options: options).routes.first?.legs.first)
            #expect(inbound.distance < 300)
            #expect(abs(inbound.weight - inbound.duration - penalty) < 0.002, "weight \(inbound.weight) duration \(inbound.duration)")
            #expect(inbound.turnDelay < 60)
            // Leaving from a place on it costs no penalty.
            let outbound = try #require(try router.route([onTheRoad, east], options: options).routes.first?.legs.first)
            #expect(outbound.distance < 300)
            #expect(abs(outbound.duration - outbound.weight) < 0.002)
        }
        // Matrix durations leave the penalty out too.
        let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
        let snaps = try [west, onTheRoad].enumerated().map { try router.snap($0.element, index: $0.offset, options: RouteOptions(), metric: metric) }
        let inbound = try #require(try router.route([west, onTheRoad]).routes.first?.legs.first)
        for kinds in [PathAttributeSet(), [.duration]] {
            let matrix = BucketManyToMany(router: router, metric: metric, attributes: kinds).compute(sources: snaps, destinations: snaps)
            #expect(abs((matrix.duration(0, 1) ?? -1) - inbound.duration) < 0.002, "\(kinds)")
        }
    }

    /// A private service road A-B takes a waypoint only when no other road lies within the radius (car.lua's start
    /// points leave private service roads out); a private residential road takes it like any road.
    @Test func privateServiceRoadIsNoPreferredStart() throws {
        var wide = RouteOptions(), narrow = RouteOptions()
        wide.radius = 500
        narrow.radius = 50
        for (highway, preferred) in [("service", false), ("residential", true)] {
            let map = try shortcut(["highway": highway, "access": "private"]).importGraph(named: "access-private-\(highway)")
            let router = Router(graph: map.graph)
            let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
            let ab = Int(map.graph.routingEdge[try #require(map.routingNode("AB"))] >> 1)
            // A tenth of a line north of the middle of A-B.
            let onTheRoad = map.cell("A", columns: 4, lines: -0.1)
            let snap = try router.snap(onTheRoad, index: 0, options: wide, metric: metric)
            #expect((snap.edge == ab) == preferred, "\(highway): snapped \(snap.distance) m away onto edge \(snap.edge)")
            // With no other road in reach, the private road takes the waypoint.
            let near = try router.snap(onTheRoad, index: 0, options: narrow, metric: metric)
            #expect(near.edge == ab && near.distance < 10, "\(highway): \(near.distance) m")
        }
    }
}
