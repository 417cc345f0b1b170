import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Truck dimensions in server requests (`vehicle_height`, `vehicle_weight`, ... and `hazmat`) on the crafted
/// detour town of `CraftedProfileTests`, answered through `RoutingService.handle`: a 3.5 m bridge (way 10) on the
/// short way east and a dead-end branch (way 23) behind a 3.5 m / 7.5 t limit:
///
///     0 --20-- 1 ==10 (3.5 m)== 2 --21-- 5 --23 (3.5 m, 7.5 t)-- 7 --24-- 8
///              |                |
///              11               13
///              |                |
///              3 ------12------ 4
@Suite struct CraftedServerTruckTests {
    static let service: Result<RoutingService, Error> = Result {
        let osm = CraftedProfileTests.detourTown(shortcut: ["highway": "residential", "bridge": "yes", "maxheight": "3.5"],
                                                 branchTags: ["highway": "residential", "maxheight": "3.5", "maxweight": "7.5"])
        return RoutingService(engine: RoutingEngine(graph: try osm.importGraph(named: "server-truck")))
    }

    static func get(_ target: String) throws -> (status: Int, json: [String: Any], body: Data) {
        let response = try service.get().handle(HTTPRequest(method: "GET", target: target))
        let json = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]) ?? [:]
        return (response.status, json, response.body)
    }

    static let west = osrmPoint(CraftedProfileTests.west), east = osrmPoint(CraftedProfileTests.east)
    static let branchEnd = osrmPoint(CraftedProfileTests.branchEnd)

    static func distance(_ json: [String: Any]) -> Double? {
        (json["routes"] as? [[String: Any]])?.first?["distance"] as? Double
    }

    @Test func routeAvoidsTheLowBridgeForATallTruck() throws {
        let plain = try Self.get("/route/v1/truck/\(Self.west);\(Self.east)")
        let low = try Self.get("/route/v1/truck/\(Self.west);\(Self.east)?vehicle_height=3.2&vehicle_weight=7")
        let tall = try Self.get("/route/v1/truck/\(Self.west);\(Self.east)?vehicle_height=4.0")
        #expect(plain.status == 200 && low.status == 200 && tall.status == 200)
        let plainDistance = try #require(Self.distance(plain.json)), tallDistance = try #require(Self.distance(tall.json))
        #expect(Self.distance(low.json) == plainDistance)
        // The detour 11-12-13 is about 440 m longer than the 316 m bridge.
        #expect(tallDistance > plainDistance + 300, "tall \(tallDistance) m vs plain \(plainDistance) m")
    }

    @Test func unreachableTruckDestinationNamesItsLimit() throws {
        let blocked = try Self.get("/route/v1/truck/\(Self.west);\(Self.branchEnd)?vehicle_weight=40")
        #expect(blocked.status == 400)
        #expect(blocked.json["code"] as? String == "NoRoute")
        let message = blocked.json["message"] as? String ?? ""
        #expect(message.contains("maxweight 7.5 t < vehicle 40.0 t on way 23"), "\(message)")
        #expect(try Self.get("/route/v1/truck/\(Self.west);\(Self.branchEnd)?vehicle_weight=7").status == 200)
    }

    @Test func tableAndIsochroneTakeTheDimensions() throws {
        func durations(_ query: String) throws -> [[Double?]] {
            let answer = try Self.get("/table/v1/truck/\(Self.west);\(Self.east);\(Self.branchEnd)?sources=0\(query)")
            #expect(answer.status == 200, "\(answer.json)")
            return (answer.json["durations"] as? [[Any]] ?? []).map { $0.map { $0 as? Double } }
        }
        let plain = try durations(""), tall = try durations("&vehicle_height=4")
        #expect(plain.first?.count == 3 && tall.first?.count == 3)
        let plainEast = try #require(plain.first?[1] ?? nil), tallEast = try #require(tall.first?[1] ?? nil)
        #expect(tallEast > plainEast)
        #expect((plain.first?[2] ?? nil) != nil)
        #expect((tall.first?[2] ?? nil) == nil, "the branch behind the 3.5 m limit has no duration for a 4 m truck")

        let area = try Self.get("/isochrone/v1/truck/\(Self.west)?contours_minutes=5")
        let tallArea = try Self.get("/isochrone/v1/truck/\(Self.west)?contours_minutes=5&vehicle_height=4&hazmat=true")
        #expect(area.status == 200 && tallArea.status == 200)
        #expect(area.body != tallArea.body, "closing the bridge and the branch changed nothing in the isochrone")
    }

    @Test(arguments: [
        ("route", "vehicle_height=abc", "vehicle_height"), ("route", "vehicle_weight=-3", "vehicle_weight"),
        ("route", "vehicle_width=0", "vehicle_width"), ("route", "vehicle_length=inf", "vehicle_length"),
        ("table", "vehicle_axle_load=1e9", "vehicle_axle_load"), ("isochrone", "hazmat=maybe", "hazmat"),
    ])
    func badDimensionIsRefusedNamingItsParameter(service: String, query: String, parameter: String) throws {
        let points = service == "isochrone" ? Self.west : "\(Self.west);\(Self.east)"
        let answer = try Self.get("/\(service)/v1/truck/\(points)?\(query)")
        #expect(answer.status == 400)
        #expect(answer.json["code"] as? String == "InvalidValue")
        #expect(answer.json["parameter"] as? String == parameter)
        #expect((answer.json["message"] as? String ?? "").contains(parameter))
    }

    @Test func dimensionsOnlyForTheTruck() throws {
        for (service, profile) in [("route", "driving"), ("table", "car"), ("route", "cycling")] {
            let answer = try Self.get("/\(service)/v1/\(profile)/\(Self.west);\(Self.east)?vehicle_height=4")
            #expect(answer.status == 400, "\(service) \(profile)")
            #expect(answer.json["parameter"] as? String == "vehicle_height")
        }
    }

    /// Each dimension set is a cached metric; the cache keeps at most its capacity (plus the pinned free-flow metric).
    @Test func dimensionMetricsAreCachedAndBounded() throws {
        let graph = try RoutingGraph(file: try Self.service.get().engine.graph.file, profile: .truck)
        let engine = RoutingEngine(graph: graph, cacheCapacity: 2)
        let tall = engine.metric(avoid: [], mode: .strict, traffic: nil, vehicle: VehicleDimensions(height: 4))
        #expect(engine.metric(avoid: [], mode: .strict, traffic: nil, vehicle: VehicleDimensions(height: 4)) === tall)
        for weight in [10.0, 20, 30] { _ = engine.metric(avoid: [], mode: .strict, traffic: nil, vehicle: VehicleDimensions(weight: weight)) }
        #expect(engine.cachedMetricCount == 3)
        #expect(engine.metric(avoid: [], mode: .strict, traffic: nil, vehicle: VehicleDimensions(height: 4)) !== tall)
    }

    /// A low connector that is the via way of a restriction: the restriction copies the connector's routing nodes for
    /// drivers coming from way 10, and a tall truck may use neither the connector nor its copies.
    ///
    ///     4 --30-- 3 --60-- 6          no_right_turn: 10 via 20 to 60
    ///              |        |          way 20: maxheight 3.5
    ///              20       50
    ///              |        |
    ///     1 --10-- 2 --40-- 5
    @Test func tallTruckUsesNoCopyOfALowViaWay() throws {
        var osm = CraftedOSM.viaWayTown(restriction: nil)
        osm.ways = osm.ways.map { $0.id == 20 ? ($0.id, $0.refs, ["highway": "residential", "maxheight": "3.5"]) : $0 }
        osm.relations = [(200, [("way", 10, "from"), ("way", 20, "via"), ("way", 60, "to")],
                          ["type": "restriction", "restriction": "no_right_turn"])]
        let graph = try osm.importGraph(named: "truck-low-via-way")
        let directedEdges = Set((0..<graph.routingNodeCount).map { graph.routingEdge[$0] })
        #expect(directedEdges.count < graph.routingNodeCount, "the restriction added no copy of way 20's routing nodes")
        let service = RoutingService(engine: RoutingEngine(graph: graph))
        func distance(_ query: String) throws -> Double {
            // From the west end of way 10 to the middle of way 30 (45.001, 7.001).
            let response = try service.handle(HTTPRequest(method: "GET", target: "/route/v1/truck/7.000,45.000;7.001,45.001\(query)"))
            let json = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]) ?? [:]
            #expect(response.status == 200, "\(json)")
            return try #require(Self.distance(json))
        }
        let low = try distance(""), tall = try distance("?vehicle_height=4")
        // Through the connector: 157 + 111 + 79 m; round it by ways 40, 50, 60: about 314 m more.
        #expect(low < 400, "low truck \(low) m")
        #expect(tall > low + 250, "tall truck \(tall) m vs \(low) m: it went under the 3.5 m via way")
    }
}
