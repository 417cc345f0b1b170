import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Rerouting inputs: `bearings`, `approaches` and `continue_straight` on maps drawn with `MapDrawing` (10 m a
/// character), through the library and through `/route/v1`; and, on Monaco, the same constraints under the hierarchy
/// and under Dijkstra.
@Suite struct CraftedRerouteTests {
    static let road = ["highway": "residential"]

    /// A two-way street B-D-S-T-J running north-south, with a block to turn around in at each end (A-B-D-C and
    /// J-L-K-H) and a street D-G east.
    static let street: Result<DrawnMap, Error> = Result {
        try MapDrawing("""
            A-----B
            |     |
            C-----D-------G
                  |
                  |
                  S
                  |
                  |
                  T
                  |
                  |
            H-----J
            |     |
            K-----L
            """, ways: [("CAB", road), ("BDSTJL", road), ("CDG", road), ("JHKL", road)])
            .importGraph(named: "reroute-street")
    }

    /// A two-way street J-A-T-C-F running west-east with a block to turn around in at each end.
    static let kerbDrawing = """
        G---H                   D---E
        |   |                   |   |
        J---A--------T----------C---F
        """
    static let kerbWays: [(nodes: String, tags: [String: String])] = [("JATCF", road), ("JGHA", road), ("CDEF", road)]
    /// The kerb street where traffic keeps right (Piedmont).
    static let kerbRight: Result<DrawnMap, Error> = Result {
        try MapDrawing(kerbDrawing, ways: kerbWays).importGraph(named: "reroute-kerb-right")
    }
    /// The kerb street where traffic keeps left (Malta).
    static let kerbLeft: Result<DrawnMap, Error> = Result {
        try MapDrawing(kerbDrawing, origin: Coordinate(lat: 35.9, lon: 14.45), ways: kerbWays).importGraph(named: "reroute-kerb-left")
    }

    /// A street from the dead end S east past P and V to a block K-D-E-F: from S via V back to P, the cheapest
    /// way turns back at V.
    static let dead: Result<DrawnMap, Error> = Result {
        try MapDrawing("""
                                    D---E
                                    |   |
            S-----P------V----------K---F
            """, ways: [("SPVKF", road), ("KDEF", road)])
            .importGraph(named: "reroute-dead-end")
    }

    // MARK: Helpers

    /// The travel bearing where a line starts: from its first point to the first one at least half a metre on.
    static func departureBearing(_ points: [Coordinate]) -> Double? {
        guard let first = points.first, let next = points.dropFirst().first(where: { Geo.haversine(first, $0) >= 0.5 }) else { return nil }
        return Bearing.between(first, next)
    }

    /// The travel bearing where a line ends: from the last point at least half a metre before its end to the end.
    static func arrivalBearing(_ points: [Coordinate]) -> Double? {
        guard let last = points.last, let previous = points.dropLast().last(where: { Geo.haversine($0, last) >= 0.5 }) else { return nil }
        return Bearing.between(previous, last)
    }

    /// Whether a bearing lies within `range` degrees of `expected`.
    static func heads(_ bearing: Double?, _ expected: Double, within range: Double = 10) -> Bool {
        guard let bearing else { return false }
        return abs(Bearing.deviation(from: expected, to: bearing)) <= range
    }

    /// Whether `detour` metres are at least a there-and-back between two points more than `direct` (a metre spare).
    static func isDetour(_ detour: Double, over direct: Double, between a: Coordinate, _ b: Coordinate) -> Bool {
        detour >= direct + 2 * Geo.haversine(a, b) - 1
    }

    /// Which end of a route a heading is read at.
    enum End { case departure, arrival }

    /// Expects the direct route to leave (or reach) its end heading `directHeading` and the detour `detourHeading`,
    /// the detour being at least a there-and-back between `a` and `b` longer.
    static func expectDetour(_ detour: Route, heading detourHeading: Double, direct: Route, heading directHeading: Double, at end: End,
                             between a: Coordinate, _ b: Coordinate, sourceLocation: SourceLocation = #_sourceLocation) {
        let heading = end == .departure ? departureBearing : arrivalBearing
        #expect(heads(heading(direct.coordinates), directHeading), "direct: \(direct.coordinates)", sourceLocation: sourceLocation)
        #expect(heads(heading(detour.coordinates), detourHeading), "detour: \(detour.coordinates)", sourceLocation: sourceLocation)
        #expect(isDetour(detour.distance, over: direct.distance, between: a, b), "detour \(detour.distance) m, direct \(direct.distance) m",
                sourceLocation: sourceLocation)
    }

    static func options(bearings: [BearingFilter?]? = nil, approaches: [Approach?]? = nil, continueStraight: Bool? = nil,
                        radii: [Double?]? = nil) -> RouteOptions {
        var options = RouteOptions()
        options.bearings = bearings
        options.approaches = approaches
        options.continueStraight = continueStraight
        options.radii = radii
        return options
    }

    /// The error a route throws, or nil when it routes.
    static func failure(_ body: () throws -> RouteResponse) -> NavGraphError? {
        do { _ = try body(); return nil } catch let error as NavGraphError { return error } catch { return NavGraphError("\(error)") }
    }

    // MARK: Bearings

    /// A car in the middle of the street heading north, bound south: it leaves northwards and turns round.
    @Test func carHeadingNorthStartsNorthEvenWhenTheDestinationIsSouth() throws {
        let map = try Self.street.get()
        let router = Router(graph: map.graph)
        let car = map.point("S", east: 3), destination = map.point("T", east: 3)
        let plain = try router.route([car, destination]).routes[0]
        let north = try router.route([car, destination], options: Self.options(bearings: [BearingFilter(value: 0, range: 30), nil])).routes[0]
        let south = try router.route([car, destination], options: Self.options(bearings: [BearingFilter(value: 180, range: 30), nil])).routes[0]
        // North to D at least (30 m) and back, on top of the 30 m straight south.
        Self.expectDetour(north, heading: 0, direct: plain, heading: 180, at: .departure, between: map["S"], map["D"])
        #expect(Self.heads(Self.departureBearing(south.coordinates), 180))
        #expect(abs(south.distance - plain.distance) < 0.01)
        #expect(Self.heads(Self.arrivalBearing(north.coordinates), 180))
    }

    /// At the destination the bearing is the direction of arrival: northwards at T means coming up from J.
    @Test func destinationBearingIsTheDirectionOfArrival() throws {
        let map = try Self.street.get()
        let router = Router(graph: map.graph)
        let car = map.point("S", east: 3), destination = map.point("T", east: 3)
        let plain = try router.route([car, destination]).routes[0]
        let fromSouth = try router.route([car, destination], options: Self.options(bearings: [nil, BearingFilter(value: 0, range: 30)])).routes[0]
        Self.expectDetour(fromSouth, heading: 0, direct: plain, heading: 180, at: .arrival, between: map["T"], map["J"])
    }

    /// A bearing no road near the point fits is NoSegment naming the waypoint and the bearing.
    @Test func bearingThatNoRoadFitsIsNoSegment() throws {
        let map = try Self.street.get()
        let router = Router(graph: map.graph)
        let car = map.point("S", east: 3), destination = map.point("T", east: 3)
        let error = try #require(Self.failure {
            try router.route([car, destination], options: Self.options(bearings: [BearingFilter(value: 90, range: 30), nil], radii: [25, nil]))
        })
        #expect(error.code == .noSegment)
        #expect(error.message.contains("waypoint 1") && error.message.contains("90±30"), "\(error.message)")
        // The destination's bearing is checked too.
        let second = try #require(Self.failure {
            try router.route([car, destination], options: Self.options(bearings: [nil, BearingFilter(value: 270, range: 20)], radii: [nil, 25]))
        })
        #expect(second.code == .noSegment && second.message.contains("waypoint 2") && second.message.contains("270±20"), "\(second.message)")
    }

    /// Bearings with radiuses: eastwards, the point 30 m south of street D-G snaps there when the radius reaches it.
    @Test func bearingsCombineWithRadiuses() throws {
        let map = try Self.street.get()
        let router = Router(graph: map.graph)
        let car = map.point("S", east: 3), destination = map.point("T", east: 3)
        let east = BearingFilter(value: 90, range: 20)
        let wide = try router.route([car, destination], options: Self.options(bearings: [east, nil], radii: [60, nil]))
        #expect(abs(wide.waypoints[0].snapped.lat - map["D"].lat) < 1e-6, "snapped to \(wide.waypoints[0].snapped)")
        #expect(abs(wide.waypoints[0].snapDistance - Geo.haversine(car, map["D"].with(lon: car.lon))) < 0.5)
        #expect(Self.heads(Self.departureBearing(wide.routes[0].coordinates), 90))
        let narrow = Self.failure { try router.route([car, destination], options: Self.options(bearings: [east, nil], radii: [25, nil])) }
        #expect(narrow?.code == .noSegment)
        // Without a bearing the same narrow radius finds the street at 3 m.
        #expect(Self.failure { try router.route([car, destination], options: Self.options(radii: [25, nil])) } == nil)
    }

    // MARK: Approaches

    /// `curb` where traffic keeps right: a destination north of a west-east street is reached westbound (it must go
    /// on, turn round in the east block and come back); `unrestricted` comes straight in eastbound.
    @Test func curbArrivalKeepsTheDestinationOnTheRight() throws {
        let map = try Self.kerbRight.get()
        let router = Router(graph: map.graph)
        let start = map.point("A", east: 30), north = map.point("T", north: 4)
        let free = try router.route([start, north], options: Self.options(approaches: [nil, .unrestricted])).routes[0]
        let curb = try router.route([start, north], options: Self.options(approaches: [nil, .curb])).routes[0]
        Self.expectDetour(curb, heading: 270, direct: free, heading: 90, at: .arrival, between: map["T"], map["C"])
        // South of the street the kerb side is eastbound: no detour.
        let south = try router.route([start, map.point("T", north: -4)], options: Self.options(approaches: [nil, .curb])).routes[0]
        #expect(Self.heads(Self.arrivalBearing(south.coordinates), 90))
        #expect(abs(south.distance - free.distance) < 0.5)
    }

    /// `curb` where traffic keeps left (Malta): the same street is reached with the point on the left.
    @Test func curbArrivalKeepsTheDestinationOnTheLeftInALeftHandCountry() throws {
        let map = try Self.kerbLeft.get()
        #expect(DrivingSide(at: map["T"]) == .left)
        let router = Router(graph: map.graph)
        let start = map.point("A", east: 30)
        let north = try router.route([start, map.point("T", north: 4)], options: Self.options(approaches: [nil, .curb])).routes[0]
        let south = try router.route([start, map.point("T", north: -4)], options: Self.options(approaches: [nil, .curb])).routes[0]
        Self.expectDetour(south, heading: 270, direct: north, heading: 90, at: .arrival, between: map["T"], map["C"])
    }

    /// A start with `curb` departs with the point on the kerb side, even away from the destination.
    @Test func curbDepartureKeepsTheStartOnTheKerbSide() throws {
        let map = try Self.kerbRight.get()
        let router = Router(graph: map.graph)
        let start = map.point("T", north: 4), destination = map.point("C", east: -20)
        let free = try router.route([start, destination]).routes[0]
        let curb = try router.route([start, destination], options: Self.options(approaches: [.curb, nil])).routes[0]
        Self.expectDetour(curb, heading: 270, direct: free, heading: 90, at: .departure, between: map["T"], map["A"])
    }

    /// Pedestrians cross the street: the foot profile ignores `curb`.
    @Test func footIgnoresApproaches() throws {
        let map = try Self.kerbRight.get()
        let router = Router(graph: try map.graph(profile: .foot))
        let start = map.point("A", east: 30), north = map.point("T", north: 4)
        let free = try router.route([start, north]).routes[0]
        let curb = try router.route([start, north], options: Self.options(approaches: [nil, .curb])).routes[0]
        #expect(abs(curb.distance - free.distance) < 0.01)
    }

    /// On a oneway the single direction is kept whatever the side.
    @Test func curbOnAOnewayKeepsItsDirection() throws {
        let map = try MapDrawing("""
            A---------B---------C
            |                   |
            D-------------------E
            """, ways: [("ABC", ["highway": "residential", "oneway": "yes"]), ("CEDA", Self.road)]).importGraph(named: "reroute-oneway")
        let router = Router(graph: map.graph)
        let route = try router.route([map.point("A", east: 5), map.point("B", north: 4)], options: Self.options(approaches: [nil, .curb]))
        #expect(Self.heads(Self.arrivalBearing(route.routes[0].coordinates), 90))
        #expect(abs(route.routes[0].distance - Geo.haversine(map.point("A", east: 5), map["B"])) < 1)
    }

    // MARK: continue_straight

    /// From S via V back to P: with continue_straight=false the route turns back at V; with true it goes on to the
    /// block at K and comes back; the car's default is true, the bicycle's false.
    @Test func continueStraightForbidsTheUTurnAtTheVia() throws {
        let map = try Self.dead.get()
        let router = Router(graph: map.graph)
        let points = [map.point("S", east: 5), map.point("V", north: 3), map.point("P", north: 3)]
        let back = try router.route(points, options: Self.options(continueStraight: false)).routes[0]
        let on = try router.route(points, options: Self.options(continueStraight: true)).routes[0]
        let byDefault = try router.route(points).routes[0]
        #expect(back.legs.count == 2 && on.legs.count == 2)
        #expect(Self.heads(Self.arrivalBearing(back.legs[0].coordinates), 90) && Self.heads(Self.departureBearing(back.legs[1].coordinates), 270))
        #expect(Self.heads(Self.arrivalBearing(on.legs[0].coordinates), 90) && Self.heads(Self.departureBearing(on.legs[1].coordinates), 90),
                "\(on.legs[1].coordinates)")
        #expect(on.legs[0].directedEdges.last == on.legs[1].directedEdges.first)
        #expect(Self.isDetour(on.distance, over: back.distance, between: map["V"], map["K"]))
        #expect(byDefault.legs.map(\.directedEdges) == on.legs.map(\.directedEdges))
        #expect(abs(byDefault.distance - on.distance) < 0.01)
        // Dijkstra answers the same under the constraint.
        var dijkstra = Self.options(continueStraight: true)
        dijkstra.algorithm = .dijkstra
        #expect(try router.route(points, options: dijkstra).routes[0].weight == on.weight)
        let bicycle = Router(graph: try map.graph(profile: .bicycle))
        let cycled = try bicycle.route(points).routes[0]
        #expect(Self.heads(Self.departureBearing(cycled.legs[1].coordinates), 270))
    }

    /// A bearing at the via fixes its direction of passage: westwards there, the leg from S must turn round
    /// beyond V first, and then (continuing straight) goes on west to P.
    @Test func viaBearingFixesTheDirectionOfPassage() throws {
        let map = try Self.dead.get()
        let router = Router(graph: map.graph)
        let points = [map.point("S", east: 5), map.point("V", north: 3), map.point("P", north: 3)]
        let west = try router.route(points, options: Self.options(bearings: [nil, BearingFilter(value: 270, range: 20), nil])).routes[0]
        #expect(Self.heads(Self.arrivalBearing(west.legs[0].coordinates), 270))
        #expect(Self.heads(Self.departureBearing(west.legs[1].coordinates), 270))
    }

    /// Alternatives, on a grid with more than one way through: every alternative, too, passes the via straight.
    @Test func alternativesKeepTheViaStraight() throws {
        let map = try MapDrawing("""
            A-------B-------C-------D
            |       |       |       |
            E-------F---V---G-------H
            |       |       |       |
            I-------J-------K-------L
            """, ways: ["ABCD", "EFVGH", "IJKL", "AEI", "BFJ", "CGK", "DHL"].map { ($0, Self.road) })
            .importGraph(named: "reroute-grid")
        let router = Router(graph: map.graph)
        var options = Self.options(continueStraight: true)
        options.alternatives = 3
        let response = try router.route([map.point("E", east: 5), map.point("V", north: 2), map.point("F", east: 5, north: 2)], options: options)
        for route in response.routes {
            #expect(route.legs.count == 2)
            #expect(route.legs[0].directedEdges.last == route.legs[1].directedEdges.first, "\(route.legs.map(\.directedEdges))")
        }
    }

    // MARK: Server

    static func get(_ service: RoutingService, _ target: String) -> (status: Int, json: [String: Any]) {
        let response = service.handle(HTTPRequest(method: "GET", target: target))
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]) ?? [:])
    }

    static func distance(_ json: [String: Any]) -> Double? { (json["routes"] as? [[String: Any]])?.first?["distance"] as? Double }

    @Test func serverHonoursBearings() throws {
        let map = try Self.street.get()
        let service = RoutingService(engine: RoutingEngine(graph: map.graph))
        let path = "/route/v1/driving/\(osrmPoint(map.point("S", east: 3)));\(osrmPoint(map.point("T", east: 3)))"
        let plain = Self.get(service, path), north = Self.get(service, path + "?bearings=0,30;")
        #expect(plain.status == 200 && north.status == 200)
        let plainDistance = try #require(Self.distance(plain.json)), northDistance = try #require(Self.distance(north.json))
        #expect(Self.isDetour(northDistance, over: plainDistance, between: map["S"], map["D"]))
        let none = Self.get(service, path + "?bearings=90,30;&radiuses=25;")
        #expect(none.status == 400 && none.json["code"] as? String == "NoSegment", "\(none.json)")
        #expect((none.json["message"] as? String ?? "").contains("90±30"))
        let bad = Self.get(service, path + "?bearings=0;")
        #expect(bad.status == 400 && bad.json["code"] as? String == "InvalidQuery")
    }

    @Test func serverHonoursApproaches() throws {
        let map = try Self.kerbRight.get()
        let service = RoutingService(engine: RoutingEngine(graph: map.graph))
        let path = "/route/v1/driving/\(osrmPoint(map.point("A", east: 30)));\(osrmPoint(map.point("T", north: 4)))"
        let free = Self.get(service, path + "?approaches=;unrestricted"), curb = Self.get(service, path + "?approaches=;curb")
        #expect(free.status == 200 && curb.status == 200)
        let freeDistance = try #require(Self.distance(free.json)), curbDistance = try #require(Self.distance(curb.json))
        #expect(Self.isDetour(curbDistance, over: freeDistance, between: map["T"], map["C"]))
        #expect(Self.get(service, path + "?approaches=;kerb").status == 400)
    }

    @Test func serverHonoursContinueStraightAndSilentVias() throws {
        let map = try Self.dead.get()
        let service = RoutingService(engine: RoutingEngine(graph: map.graph))
        let path = "/route/v1/driving/\(osrmPoint(map.point("S", east: 5)));\(osrmPoint(map.point("V", north: 3)));\(osrmPoint(map.point("P", north: 3)))"
        let on = Self.get(service, path + "?continue_straight=true"), back = Self.get(service, path + "?continue_straight=false")
        let byDefault = Self.get(service, path)
        #expect(on.status == 200 && back.status == 200 && byDefault.status == 200)
        let onDistance = try #require(Self.distance(on.json)), backDistance = try #require(Self.distance(back.json))
        #expect(Self.isDetour(onDistance, over: backDistance, between: map["V"], map["K"]))
        #expect(Self.distance(byDefault.json) == onDistance)
        // V as a silent via point: one leg, still no U-turn there; with continue_straight=false it may turn.
        let silent = Self.get(service, path + "?waypoints=0;2"), silentBack = Self.get(service, path + "?waypoints=0;2&continue_straight=false")
        #expect(((silent.json["routes"] as? [[String: Any]])?.first?["legs"] as? [Any])?.count == 1)
        #expect(Self.distance(silent.json) == onDistance)
        #expect(Self.distance(silentBack.json) == backDistance)
        #expect(Self.get(service, path + "?continue_straight=maybe").status == 400)
    }

    // MARK: Command line

    /// `navgraph route --bearings/--approaches/--continue-straight` give the library's routes.
    @Test func commandLineTakesTheRerouteOptions() throws {
        let map = try Self.street.get(), dead = try Self.dead.get()
        func distance(_ arguments: [String]) throws -> Double? {
            let result = try Fixtures.run(["route"] + arguments + ["--format", "directions"])
            #expect(result.status == 0, "\(result.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return (json?["routes"] as? [[String: Any]])?.first?["distance"] as? Double
        }
        func latLon(_ c: Coordinate) -> String { String(format: "%.7f,%.7f", c.lat, c.lon) }
        let street = [map.path, latLon(map.point("S", east: 3)), latLon(map.point("T", east: 3))]
        let plain = try #require(try distance(street)), north = try #require(try distance(street + ["--bearings", "0,30;"]))
        #expect(Self.isDetour(north, over: plain, between: map["S"], map["D"]))
        let viaBack = [dead.path, latLon(dead.point("S", east: 5)), latLon(dead.point("V", north: 3)), latLon(dead.point("P", north: 3))]
        let on = try #require(try distance(viaBack + ["--continue-straight", "true"]))
        let back = try #require(try distance(viaBack + ["--continue-straight", "false"]))
        #expect(Self.isDetour(on, over: back, between: dead["V"], dead["K"]))
        let kerb = try Self.kerbRight.get()
        let toKerb = [kerb.path, latLon(kerb.point("A", east: 30)), latLon(kerb.point("T", north: 4))]
        let free = try #require(try distance(toKerb)), curb = try #require(try distance(toKerb + ["--approaches", ";curb"]))
        #expect(Self.isDetour(curb, over: free, between: kerb["T"], kerb["C"]))
        let bad = try Fixtures.run(["route"] + street + ["--bearings", "0;"])
        #expect(bad.status != 0 && bad.stderr.contains("--bearings"), "\(bad.stderr)")
    }

    // MARK: Real extract

    /// Monaco: random waypoints with random bearings (and curb at the destination): the route leaves within the
    /// bearing's range, reaches the destination with it on the kerb side (right: Monaco keeps right) unless its road
    /// is oneway, and the hierarchy's cost equals Dijkstra's under the same constraints; with three waypoints and
    /// continue_straight, no via is passed with a U-turn, and again the two searches agree.
    @Test func realMonacoRoutesHonourBearingsApproachesAndContinueStraight() throws {
        let graph = try Fixtures.graph("monaco")
        let router = Router(graph: graph)
        var generator = SeededGenerator(seed: 20261206)
        var checkedBearings = 0, checkedKerbs = 0, checkedVias = 0, routed = 0
        for _ in 0..<150 {
            // A point a few metres beside the middle of a random segment, and a bearing near one of its directions.
            func beside() -> (point: Coordinate, along: Double) {
                var edge = Int.random(in: 0..<graph.edgeCount, using: &generator)
                while graph.routingNodeOfEdge[2 * edge] < 0 && graph.routingNodeOfEdge[2 * edge + 1] < 0 {
                    edge = Int.random(in: 0..<graph.edgeCount, using: &generator)
                }
                let first = Int(graph.edgeShapeFirst[edge]), end = Int(graph.edgeShapeFirst[edge + 1])
                let segment = Int.random(in: first..<(end - 1), using: &generator)
                let a = graph.coordinate(shapePoint: segment), b = graph.coordinate(shapePoint: segment + 1)
                let t = Double.random(in: 0.3...0.7, using: &generator)
                let middle = Coordinate(lat: a.lat + (b.lat - a.lat) * t, lon: a.lon + (b.lon - a.lon) * t)
                let along = Bearing.between(a, b), side = Bool.random(using: &generator) ? 90.0 : -90.0
                let metres = Double.random(in: 2...6, using: &generator)
                let angle = (along + side) * Double.pi / 180
                return (Coordinate(lat: middle.lat + metres * cos(angle) / 111_195,
                                   lon: middle.lon + metres * sin(angle) / (111_195 * cos(middle.lat * Double.pi / 180))), along)
            }
            let start = beside(), destination = beside()
            let bearing = BearingFilter(value: Bearing.normalized((Bool.random(using: &generator) ? 0 : 180) + start.along
                                                                  + Double.random(in: -20...20, using: &generator)).rounded(), range: 45)
            var options = Self.options(bearings: [bearing, nil], approaches: [nil, .curb], radii: [100, 100])
            let response: RouteResponse
            do { response = try router.route([start.point, destination.point], options: options) } catch let error as NavGraphError {
                // Dijkstra must fail alike.
                options.algorithm = .dijkstra
                #expect(Self.failure { try router.route([start.point, destination.point], options: options) }?.code == error.code)
                continue
            }
            routed += 1
            let route = response.routes[0]
            // The first piece starts at the snapped point; when the snap lies inside its segment, that piece runs along it.
            let snap = response.snaps[0]
            let a = graph.coordinate(shapePoint: snap.segment), b = graph.coordinate(shapePoint: snap.segment + 1)
            if Geo.haversine(snap.point, a) > 1, Geo.haversine(snap.point, b) > 1 {
                // Half a degree for the snapped point's bearing to the segment's end against the segment's own.
                let departure = try #require(Self.departureBearing(route.coordinates))
                #expect(abs(Bearing.deviation(from: bearing.value, to: departure)) <= bearing.range + 0.5,
                        "departs at \(departure), bearing \(bearing.text)")
                checkedBearings += 1
            }
            let end = response.snaps[1]
            let twoWay = graph.routingNodeOfEdge[2 * end.edge] >= 0 && graph.routingNodeOfEdge[2 * end.edge + 1] >= 0
            let c = graph.coordinate(shapePoint: end.segment), d = graph.coordinate(shapePoint: end.segment + 1)
            if twoWay, Geo.haversine(end.point, c) > 1, Geo.haversine(end.point, d) > 1, end.distance > 1,
               let arrival = Self.arrivalBearing(route.coordinates) {
                let toPoint = Bearing.between(end.point, destination.point)
                #expect(Bearing.deviation(from: arrival, to: toPoint) > 0, "arrives at \(arrival), the point lies at \(toPoint)")
                checkedKerbs += 1
            }
            options.algorithm = .dijkstra
            let reference = try router.route([start.point, destination.point], options: options).routes[0]
            #expect(reference.weight == route.weight)
            // Three waypoints, continuing straight: the via is left in the direction it was reached.
            let via = beside()
            var straight = Self.options(continueStraight: true, radii: [100, 100, 100])
            guard let three = try? router.route([start.point, via.point, destination.point], options: straight).routes[0] else { continue }
            #expect(three.legs[0].directedEdges.last == three.legs[1].directedEdges.first)
            straight.algorithm = .dijkstra
            #expect(try router.route([start.point, via.point, destination.point], options: straight).routes[0].weight == three.weight)
            checkedVias += 1
        }
        print("monaco reroute: routed \(routed), bearings \(checkedBearings), kerbs \(checkedKerbs), vias \(checkedVias)")
        #expect(routed >= 100 && checkedBearings >= 80 && checkedKerbs >= 40 && checkedVias >= 80,
                "routed \(routed), bearings \(checkedBearings), kerbs \(checkedKerbs), vias \(checkedVias)")
    }
}

private extension Coordinate {
    func with(lon: Double) -> Coordinate { Coordinate(lat: lat, lon: lon) }
}
