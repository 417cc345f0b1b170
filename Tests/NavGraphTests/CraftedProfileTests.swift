import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Vehicle profiles on crafted junctions: access, dimensions, oneways and restrictions per profile, one import each.
@Suite struct CraftedProfileTests {
    /// A short way 10 from junction 1 to junction 2 with a longer detour 11-12-13 south of it, lead-ins 20 and 21,
    /// and a dead-end branch 23-24 east of 5 (way 23 tagged with `branchTags`). One column is 0.001° of longitude,
    /// one line 0.001° of latitude, node 1 at 45.0 N, 7.0 E; node and way ids as the tests name them.
    static func detourTown(shortcut: [String: String], branchTags: [String: String] = ["highway": "residential"]) -> CraftedOSM {
        let origin = Coordinate(lat: 45.0, lon: 7.0), road = ["highway": "residential"]
        let drawing = try? MapDrawing("""
            0-1===2-5-7-8
              |   |
              3---4
            """, gridMetres: 0.001 * MapDrawing.metresPerDegree * cos(origin.lat * .pi / 180), lineMetres: 0.001 * MapDrawing.metresPerDegree,
            origin: origin, anchor: "1",
            ways: [("12", shortcut), ("13", road), ("34", road), ("42", road), ("01", road), ("25", road), ("57", branchTags), ("78", road)])
            .numbered(nodes: ["0": 0, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "7": 7, "8": 8], ways: [10, 11, 12, 13, 20, 21, 23, 24])
        return drawing?.osm ?? CraftedOSM()
    }

    static let west = Coordinate(lat: 45.000, lon: 6.999)
    static let east = Coordinate(lat: 45.000, lon: 7.005)
    static let branchEnd = Coordinate(lat: 45.000, lon: 7.009)

    /// Imports `osm` and returns a router per profile.
    static func routers(_ osm: CraftedOSM, named name: String) throws -> [ProfileID: Router] {
        let car = try osm.importGraph(named: name)
        var routers: [ProfileID: Router] = [.car: Router(graph: car)]
        for profile in ProfileID.allCases where profile != .car {
            routers[profile] = Router(graph: try RoutingGraph(file: car.file, profile: profile))
        }
        return routers
    }

    /// OSM way ids along the primary route.
    static func ways(_ response: RouteResponse, _ router: Router) -> Set<Int64> {
        Set(response.routes[0].legs.flatMap(\.directedEdges).map { router.graph.edgeWay[$0 >> 1] })
    }

    static func route(_ router: Router?, _ from: Coordinate, _ to: Coordinate, vehicle: VehicleDimensions? = nil) throws -> RouteResponse {
        var options = RouteOptions()
        options.radius = 200
        options.vehicle = vehicle
        guard let router else { throw NavGraphError("no router") }
        return try router.route([from, to], options: options)
    }

    @Test func maxheightBridgeTallTruckAvoidsCarUses() throws {
        let routers = try Self.routers(Self.detourTown(shortcut: ["highway": "residential", "bridge": "yes", "maxheight": "3.5"]), named: "profile-maxheight")
        let car = try Self.route(routers[.car], Self.west, Self.east)
        let tall = try Self.route(routers[.truck], Self.west, Self.east, vehicle: VehicleDimensions(height: 4.0))
        let low = try Self.route(routers[.truck], Self.west, Self.east, vehicle: VehicleDimensions(height: 3.0))
        #expect(Self.ways(car, routers[.car]!).contains(10))
        #expect(!Self.ways(tall, routers[.truck]!).contains(10))
        #expect(Self.ways(tall, routers[.truck]!).contains(12))
        #expect(Self.ways(low, routers[.truck]!).contains(10))
        #expect(tall.routes[0].distance > car.routes[0].distance + 300)
    }

    @Test func impossibleTruckDestinationNamesItsLimit() throws {
        let routers = try Self.routers(Self.detourTown(shortcut: ["highway": "residential"],
                                                       branchTags: ["highway": "residential", "maxheight": "3.5", "maxweight": "7.5"]),
                                       named: "profile-limit")
        #expect(throws: Never.self) { try Self.route(routers[.car], Self.west, Self.branchEnd) }
        #expect(throws: Never.self) { try Self.route(routers[.truck], Self.west, Self.branchEnd, vehicle: VehicleDimensions(height: 3.2, weight: 7)) }
        do {
            _ = try Self.route(routers[.truck], Self.west, Self.branchEnd, vehicle: VehicleDimensions(height: 4.0))
            Issue.record("a 4 m truck reached the destination behind a 3.5 m limit")
        } catch let error as NavGraphError {
            #expect(error.code == .noRoute)
            #expect(error.message.contains("maxheight 3.5 m < vehicle 4.0 m on way 23"), "\(error.message)")
        }
        do {
            _ = try Self.route(routers[.truck], Self.west, Self.branchEnd, vehicle: VehicleDimensions(weight: 40))
            Issue.record("a 40 t truck passed a 7.5 t limit")
        } catch let error as NavGraphError {
            #expect(error.message.contains("maxweight 7.5 t < vehicle 40.0 t on way 23"), "\(error.message)")
        }
    }

    @Test func hgvNoKeepsTrucksOffCarsOn() throws {
        let routers = try Self.routers(Self.detourTown(shortcut: ["highway": "residential", "hgv": "no"]), named: "profile-hgv")
        #expect(Self.ways(try Self.route(routers[.car], Self.west, Self.east), routers[.car]!).contains(10))
        #expect(Self.ways(try Self.route(routers[.motorcycle], Self.west, Self.east), routers[.motorcycle]!).contains(10))
        #expect(!Self.ways(try Self.route(routers[.truck], Self.west, Self.east), routers[.truck]!).contains(10))
    }

    @Test func motorcycleNoKeepsMotorcyclesOff() throws {
        let routers = try Self.routers(Self.detourTown(shortcut: ["highway": "residential", "motorcycle": "no"]), named: "profile-motorcycle")
        #expect(Self.ways(try Self.route(routers[.car], Self.west, Self.east), routers[.car]!).contains(10))
        #expect(!Self.ways(try Self.route(routers[.motorcycle], Self.west, Self.east), routers[.motorcycle]!).contains(10))
    }

    @Test func motorVehicleNoWithHgvYesIsForTrucksOnly() throws {
        let routers = try Self.routers(Self.detourTown(shortcut: ["highway": "service", "motor_vehicle": "no", "hgv": "yes"]), named: "profile-hgv-yes")
        #expect(!Self.ways(try Self.route(routers[.car], Self.west, Self.east), routers[.car]!).contains(10))
        #expect(Self.ways(try Self.route(routers[.truck], Self.west, Self.east), routers[.truck]!).contains(10))
    }

    /// A cyclist may push along the footway, at walking speed: the detour, ridden, is quicker.
    @Test func footwayOnlyForPedestrians() throws {
        let routers = try Self.routers(Self.detourTown(shortcut: ["highway": "footway"]), named: "profile-footway")
        #expect(Self.ways(try Self.route(routers[.foot], Self.west, Self.east), routers[.foot]!).contains(10))
        for profile in [ProfileID.car, .truck, .motorcycle, .bicycle] {
            #expect(!Self.ways(try Self.route(routers[profile], Self.west, Self.east), routers[profile]!).contains(10), "\(profile)")
        }
    }

    @Test func stepsOnlyForPedestrians() throws {
        let routers = try Self.routers(Self.detourTown(shortcut: ["highway": "steps"]), named: "profile-steps")
        let walk = try Self.route(routers[.foot], Self.west, Self.east)
        #expect(Self.ways(walk, routers[.foot]!).contains(10))
        // Steps are walked at walking speed (foot.lua v26), over the way's length besides the lead-ins.
        let stepsLength = Geo.haversine(Coordinate(lat: 45, lon: 7.000), Coordinate(lat: 45, lon: 7.004))
        #expect(walk.routes[0].duration > stepsLength / (FootProfile.walkingSpeedKmh / 3.6))
        // A cyclist would push the bicycle up them at 2 km/h: the detour is quicker.
        for profile in [ProfileID.car, .bicycle] {
            #expect(!Self.ways(try Self.route(routers[profile], Self.west, Self.east), routers[profile]!).contains(10), "\(profile)")
        }
    }

    @Test func cyclistRidesAgainstOnewayOnlyWhenTaggedSo() throws {
        let plain = try Self.routers(Self.detourTown(shortcut: ["highway": "residential", "oneway": "yes"]), named: "profile-oneway")
        let opened = try Self.routers(Self.detourTown(shortcut: ["highway": "residential", "oneway": "yes", "oneway:bicycle": "no"]),
                                      named: "profile-oneway-bicycle")
        // East to west runs against the oneway: pushing the bicycle there is slower than riding the detour.
        #expect(!Self.ways(try Self.route(plain[.bicycle], Self.east, Self.west), plain[.bicycle]!).contains(10))
        #expect(Self.ways(try Self.route(opened[.bicycle], Self.east, Self.west), opened[.bicycle]!).contains(10))
        #expect(!Self.ways(try Self.route(opened[.car], Self.east, Self.west), opened[.car]!).contains(10))
        // Pedestrians walk against oneways anyway.
        #expect(Self.ways(try Self.route(plain[.foot], Self.east, Self.west), plain[.foot]!).contains(10))
    }

    @Test func hgvRestrictionBindsTrucksOnly() throws {
        var osm = CraftedOSM.testTown(restriction: nil)
        osm.relations = [(100, [("way", 10, "from"), ("node", 1, "via"), ("way", 12, "to")],
                          ["type": "restriction", "restriction:hgv": "no_left_turn"])]
        let routers = try Self.routers(osm, named: "profile-restriction-hgv")
        let from = Coordinate(lat: 45.000, lon: 6.999), to = Coordinate(lat: 45.001, lon: 7.000)
        let car = try Self.route(routers[.car], from, to)
        let truck = try Self.route(routers[.truck], from, to)
        #expect(!Self.ways(car, routers[.car]!).contains(11))
        #expect(Self.ways(truck, routers[.truck]!).contains(11) || Self.ways(truck, routers[.truck]!).contains(13))
        #expect(truck.routes[0].duration > car.routes[0].duration)

        var exempt = CraftedOSM.testTown(restriction: nil)
        exempt.relations = [(100, [("way", 10, "from"), ("node", 1, "via"), ("way", 12, "to")],
                             ["type": "restriction", "restriction": "no_left_turn", "except": "hgv"])]
        let exemptRouters = try Self.routers(exempt, named: "profile-restriction-except")
        let carAround = try Self.route(exemptRouters[.car], from, to)
        let truckDirect = try Self.route(exemptRouters[.truck], from, to)
        #expect(truckDirect.routes[0].duration < carAround.routes[0].duration)
        #expect(!Self.ways(truckDirect, exemptRouters[.truck]!).contains(11))
    }

    @Test func carGraphIgnoresFootAndCycleWays() throws {
        var osm = Self.detourTown(shortcut: ["highway": "cycleway"])
        osm.ways.append((30, [3, 0], ["highway": "footway"]))
        let routers = try Self.routers(osm, named: "profile-car-only")
        let carWays = Set((0..<routers[.car]!.graph.edgeCount).map { routers[.car]!.graph.edgeWay[$0] })
        #expect(!carWays.contains(10) && !carWays.contains(30))
        let activeWays = Set((0..<routers[.foot]!.graph.edgeCount).map { routers[.foot]!.graph.edgeWay[$0] })
        #expect(activeWays.contains(10) && activeWays.contains(30))
        #expect(Self.ways(try Self.route(routers[.bicycle], Self.west, Self.east), routers[.bicycle]!).contains(10))
    }

    /// The server's `/{profile}` path segment picks the profile: the footway route is the walking one only.
    @Test func serverProfileSegment() throws {
        let routers = try Self.routers(Self.detourTown(shortcut: ["highway": "footway"]), named: "profile-server")
        let service = RoutingService(engine: RoutingEngine(graph: routers[.car]!.graph))
        func answer(_ profile: String) throws -> (code: String, distance: Double?, mode: String?) {
            let target = "/route/v1/\(profile)/\(Self.west.lon),\(Self.west.lat);\(Self.east.lon),\(Self.east.lat)?steps=true"
            let response = service.handle(HTTPRequest(method: "GET", target: target))
            let json = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            let route = (json["routes"] as? [[String: Any]])?.first
            let step = ((route?["legs"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])?.first
            return (json["code"] as? String ?? "", route?["distance"] as? Double, step?["mode"] as? String)
        }
        let walking = try answer("walking"), foot = try answer("foot"), driving = try answer("driving")
        #expect(walking.code == "Ok" && walking.mode == "walking")
        #expect(foot.distance == walking.distance)
        #expect(driving.code == "Ok" && driving.mode == "driving")
        #expect((driving.distance ?? 0) > (walking.distance ?? .infinity) + 300)
        #expect(try answer("cycling").mode == "cycling")
        #expect(try answer("plane").code == "InvalidValue")
    }
}
