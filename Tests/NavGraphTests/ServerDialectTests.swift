import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// The Mapbox Directions v5 and NextBillion dialects, route refresh and access tokens, on the monaco extract:
/// each dialect's answer against the OSRM dialect's for the same route (one pipeline), their error shapes, and
/// refreshes before and after a traffic load.
@Suite struct ServerDialectTests {
    /// The request MapboxDirections 2.14 builds for a two-point driving route (`Directions.url(forCalculating:)`).
    static let mapboxTarget = "/directions/v5/mapbox/driving/7.4246,43.7384;7.4197,43.7311?alternatives=false&continue_straight=true"
        + "&geometries=polyline6&overview=full&steps=true&language=en&voice_instructions=true&voice_units=metric"
        + "&banner_instructions=true&annotations=distance,duration,speed,congestion,maxspeed&access_token=pk.test"

    static func object(_ response: HTTPResponse) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any] else {
            throw NavGraphError("not a JSON object: \(String(decoding: response.body.prefix(200), as: UTF8.self))")
        }
        return object
    }

    static func get(_ service: RoutingService, _ target: String) throws -> (status: Int, json: [String: Any]) {
        let response = service.handle(HTTPRequest(method: "GET", target: target))
        return (response.status, try object(response))
    }

    /// The routes of a Directions body without the per-response uuid, as canonical JSON text.
    static func routesText(_ json: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: json["routes"] ?? [], options: [.sortedKeys]), as: UTF8.self)
    }

    static func service(tokens: AccessTokens? = nil, limits: ServiceLimits = ServiceLimits()) throws -> RoutingService {
        RoutingService(engine: RoutingEngine(graph: try Fixtures.graph("monaco")), limits: limits, accessTokens: tokens)
    }

    @Test func mapboxGetAndPostEqualTheOSRMRoute() throws {
        let service = try Self.service()
        let (status, mapbox) = try Self.get(service, Self.mapboxTarget)
        #expect(status == 200)
        #expect(mapbox["code"] as? String == "Ok")
        let osrmTarget = Self.mapboxTarget.replacingOccurrences(of: "/directions/v5/mapbox/driving/", with: "/route/v1/driving/")
            .replacingOccurrences(of: "&access_token=pk.test", with: "") + "&traffic=false"
        let (osrmStatus, osrm) = try Self.get(service, osrmTarget)
        #expect(osrmStatus == 200)
        #expect(try Self.routesText(mapbox) == Self.routesText(osrm))
        let steps = ((mapbox["routes"] as? [[String: Any]])?.first?["legs"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]] ?? []
        #expect(steps.count >= 2)
        #expect(steps.allSatisfy { ($0["voiceInstructions"] as? [Any]) != nil && ($0["bannerInstructions"] as? [Any]) != nil })

        // Above 8,192 characters of URL the library POSTs the same items as a form, with coordinates in the body.
        let query = Self.mapboxTarget.split(separator: "?")[1].split(separator: "&").filter { !$0.hasPrefix("access_token") }
        let body = (query + ["coordinates=7.4246%2C43.7384%3B7.4197%2C43.7311"]).joined(separator: "&")
        let posted = service.handle(HTTPRequest(method: "POST", target: "/directions/v5/mapbox/driving?access_token=pk.test", body: Data(body.utf8)))
        #expect(posted.status == 200)
        #expect(try Self.routesText(Self.object(posted)) == Self.routesText(osrm))
    }

    @Test func mapboxOptionsTranslate() throws {
        let service = try Self.service()
        let a = osrmPoint(Coordinate(lat: 43.7384, lon: 7.4246)), b = osrmPoint(Coordinate(lat: 43.7402, lon: 7.4268)), c = osrmPoint(Coordinate(lat: 43.7311, lon: 7.4197))
        // Silent via point, waypoint names, exclude in Mapbox's words, imperial voice, own annotations.
        let (status, json) = try Self.get(service, "/directions/v5/acme/driving-traffic/\(a);\(b);\(c).json?waypoints=0;2&waypoint_names=Home;Work"
                                           + "&exclude=toll,motorway&annotations=duration,congestion,closure,traffic_tendency&steps=true&voice_units=imperial"
                                           + "&voice_instructions=true&language=de_DE&enable_refresh=false&snapping_include_closures=true;;")
        #expect(status == 200)
        // Every coordinate is listed (the SDK pairs them with its waypoints), the names go to the two stops.
        let waypoints = json["waypoints"] as? [[String: Any]] ?? []
        #expect(waypoints.count == 3)
        #expect(waypoints.first?["name"] as? String == "Home" && waypoints.last?["name"] as? String == "Work")
        let route = (json["routes"] as? [[String: Any]])?.first
        let legs = route?["legs"] as? [[String: Any]] ?? []
        #expect(legs.count == 1)
        let via = (legs.first?["via_waypoints"] as? [[String: Any]])?.first
        #expect(via?["waypoint_index"] as? Double == 1)
        // The silent via keeps the turns of both parts: as many steps as the two legs, less one arrival and one departure.
        let (_, twoLegs) = try Self.get(service, "/directions/v5/acme/driving-traffic/\(a);\(b);\(c)?exclude=toll,motorway&steps=true")
        let parts = (twoLegs["routes"] as? [[String: Any]])?.first?["legs"] as? [[String: Any]] ?? []
        let partSteps = parts.map { ($0["steps"] as? [Any])?.count ?? 0 }
        let mergedSteps = (legs.first?["steps"] as? [Any])?.count ?? 0
        #expect(partSteps.count == 2 && mergedSteps >= partSteps.reduce(0, +) - 3 && mergedSteps <= partSteps.reduce(0, +) - 2)
        let annotation = legs.first?["annotation"] as? [String: Any] ?? [:]
        let durations = annotation["duration"] as? [Any] ?? []
        #expect(!durations.isEmpty)
        #expect((annotation["traffic_tendency"] as? [Any])?.count == durations.count)
        #expect((annotation["congestion"] as? [Any])?.count == durations.count)
        #expect(legs.first?["closures"] as? [Any] != nil)
        #expect(json["refresh_ttl"] == nil)
        // The same route through OSRM's words.
        let (_, osrm) = try Self.get(service, "/route/v1/driving/\(a);\(b);\(c)?waypoints=0;2&exclude=toll,motorway&overview=simplified")
        let osrmDistance = (osrm["routes"] as? [[String: Any]])?.first?["distance"] as? Double
        #expect(osrmDistance != nil && route?["distance"] as? Double == osrmDistance)
    }

    /// The request MapboxDirections builds for a waypoint with a heading, accuracies, a silent via and a kerb
    /// approach (decimal bearings and radii, as Swift writes Doubles).
    @Test func mapboxRerouteRequestIsAccepted() throws {
        let service = try Self.service()
        let target = "/directions/v5/mapbox/driving-traffic/7.4246,43.7384;7.4215,43.735;7.4197,43.7311?alternatives=true&continue_straight=true"
            + "&exclude=toll,motorway,ferry&enable_refresh=true&depart_at=2026-12-07T08:30&geometries=polyline6&overview=full&steps=true"
            + "&language=de_DE&approaches=unrestricted;unrestricted;curb&voice_instructions=true&voice_units=imperial&banner_instructions=true"
            + "&bearings=90.0,90.0;;&radiuses=50.0;unlimited;50.0&annotations=distance,duration,speed,congestion,maxspeed,congestion_numeric"
            + "&waypoints=0;2&waypoint_names=Casino;Fontvieille&access_token=pk.test"
        let (status, json) = try Self.get(service, target)
        #expect(status == 200)
        #expect(json["code"] as? String == "Ok", "\(json)")
        #expect((json["waypoints"] as? [[String: Any]])?.map { $0["name"] as? String }.first == "Casino")
        let (_, strict) = try Self.get(service, target.replacingOccurrences(of: "bearings=90.0,90.0", with: "bearings=90.0,45.0")
                                                  .replacingOccurrences(of: "radiuses=50.0", with: "radiuses=25.0"))
        #expect(strict["code"] as? String != "InvalidInput")
    }

    @Test func mapboxErrorsUseV5StatusesAndCodes() throws {
        var limits = ServiceLimits()
        limits.maximumCoordinates = 3
        let service = try Self.service(limits: limits)
        let a = "7.4246,43.7384", b = "7.4197,43.7311"
        let cases: [(String, Int, String)] = [
            ("/directions/v5/mapbox/flying/\(a);\(b)", 404, "ProfileNotFound"),
            ("/directions/v5/mapbox/driving/\(a);\(b);\(a);\(b)", 422, "TooManyCoordinates"),
            ("/directions/v5/mapbox/driving/\(a);\(b)?exclude=unpaved", 422, "InvalidInput"),
            ("/directions/v5/mapbox/driving/\(a);\(b)?geometries=wkt", 422, "InvalidInput"),
            ("/directions/v5/mapbox/driving/\(a);\(b)?waypoint_names=one", 422, "InvalidInput"),
            ("/directions/v5/mapbox/driving/\(a);0.0,0.0", 200, "NoSegment"),
            ("/directions/v5/mapbox/driving/\(a)", 422, "InvalidInput"),
        ]
        for (target, status, code) in cases {
            let (gotStatus, json) = try Self.get(service, target)
            #expect(gotStatus == status, "\(target)")
            #expect(json["code"] as? String == code, "\(target): \(json)")
            #expect((json["message"] as? String).map { !$0.isEmpty } == true)
        }
        let refresh = try Self.get(service, "/directions-refresh/v1/mapbox/driving-traffic/no-such-uuid/0/0")
        #expect(refresh.status == 422)
        #expect(refresh.json["code"] as? String == "InvalidInput")
        #expect(refresh.json["refresh_ttl"] as? Double == 0)
        #expect((refresh.json["message"] as? String)?.contains("no-such-uuid") == true)
    }

    @Test func tokensAreRequiredWhenListedAndNeverLogged() throws {
        let service = try Self.service(tokens: AccessTokens(["good-token"]))
        let route = "/route/v1/driving/7.4246,43.7384;7.4197,43.7311"
        for (target, code) in [(route, "NoToken"), (route + "?access_token=bad", "InvalidToken"), (route + "?key=bad", "InvalidToken")] {
            let (status, json) = try Self.get(service, target)
            #expect(status == 401)
            #expect(json["code"] as? String == code)
        }
        #expect(try Self.get(service, route + "?access_token=good-token").status == 200)
        let mapbox = try Self.get(service, Self.mapboxTarget.replacingOccurrences(of: "pk.test", with: "wrong"))
        #expect(mapbox.status == 401 && mapbox.json["code"] as? String == "InvalidToken")
        #expect(try Self.get(service, Self.mapboxTarget.replacingOccurrences(of: "pk.test", with: "good-token")).status == 200)
        let nextBillion = try Self.get(service, "/navigation/json?origin=43.7384,7.4246&destination=43.7311,7.4197")
        #expect(nextBillion.status == 401 && nextBillion.json["status"] as? String == "NoToken")
        #expect(try Self.get(service, "/navigation/json?origin=43.7384,7.4246&destination=43.7311,7.4197&key=good-token").status == 200)
        #expect(service.handle(HTTPRequest(method: "GET", target: "/health")).status == 200)
        #expect(service.handle(HTTPRequest(method: "GET", target: "/metrics")).status == 401)
        let metrics = service.handle(HTTPRequest(method: "GET", target: "/metrics?access_token=good-token"))
        #expect(metrics.status == 200)
        #expect(!String(decoding: metrics.body, as: UTF8.self).contains("good-token"))
        #expect(AccessTokens.redacted("/route/v1/x?steps=true&access_token=secret&key=other") == "/route/v1/x?steps=true&access_token=***&key=***")

        let file = Fixtures.workDirectory.appendingPathComponent("tokens-\(getpid()).txt")
        try "# tokens\n\n  alpha \nbeta\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(try AccessTokens(file: file.path).count == 2)
        try "\n# none\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: NavGraphError.self) { try AccessTokens(file: file.path) }
    }

    @Test func refreshRecomputesAnnotationsUnderNewTraffic() throws {
        let service = try Self.service()
        let target = "/directions/v5/mapbox/driving-traffic/7.4246,43.7384;7.4268,43.7402;7.4197,43.7311?overview=full&geometries=polyline6"
            + "&annotations=duration,congestion,congestion_numeric,speed,maxspeed&enable_refresh=true&alternatives=true"
        let (status, json) = try Self.get(service, target)
        #expect(status == 200)
        #expect(json["refresh_ttl"] as? Double == service.limits.refreshSeconds)
        let uuid = try #require(json["uuid"] as? String)
        let legs = (json["routes"] as? [[String: Any]])?.first?["legs"] as? [[String: Any]] ?? []
        #expect(legs.count == 2)
        func congestion(_ leg: [String: Any]) -> [String] { (leg["annotation"] as? [String: Any])?["congestion"] as? [String] ?? [] }

        let before = try Self.get(service, "/directions-refresh/v1/mapbox/driving-traffic/\(uuid)/0/0")
        #expect(before.status == 200)
        let refreshedLegs = (before.json["route"] as? [String: Any])?["legs"] as? [[String: Any]] ?? []
        #expect(refreshedLegs.count == 2)
        #expect(zip(refreshedLegs, legs).allSatisfy { congestion($0) == congestion($1) })

        // Traffic loaded after the route was issued shows in the refresh, on the same segments.
        let csv = try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("Data/monaco-traffic.csv"))
        _ = try service.traffic.load(csv: csv, engine: service.engine)
        let after = try Self.get(service, "/directions-refresh/v1/mapbox/driving-traffic/\(uuid)/0/1")
        let afterLegs = (after.json["route"] as? [String: Any])?["legs"] as? [[String: Any]] ?? []
        #expect(afterLegs.count == 1)
        #expect(congestion(afterLegs[0]).count == congestion(legs[1]).count)
        let fresh = try Self.get(service, target.replacingOccurrences(of: "&alternatives=true", with: ""))
        let freshLegs = (fresh.json["routes"] as? [[String: Any]])?.first?["legs"] as? [[String: Any]] ?? []
        if freshLegs.count == 2, try Self.routesText(fresh.json).contains("\"severe\"") || Self.routesText(fresh.json).contains("\"heavy\"") {
            // The same path under the new traffic: the refresh equals a fresh route's congestion where the paths agree.
            #expect(congestion(afterLegs[0]) != congestion(legs[1]) || congestion(legs[1]).allSatisfy { $0 != "unknown" })
        }
        #expect(congestion(afterLegs[0]).contains { $0 != "unknown" })

        // From a route geometry index: the first leg's arrays start there.
        let firstLegSegments = congestion(legs[0]).count
        let partial = try Self.get(service, "/directions-refresh/v1/mapbox/driving-traffic/\(uuid)/0/1?current_route_geometry_index=\(firstLegSegments + 2)")
        let partialLegs = (partial.json["route"] as? [String: Any])?["legs"] as? [[String: Any]] ?? []
        #expect(partialLegs.first.map(congestion)?.count == congestion(legs[1]).count - 2)
        #expect(try Self.get(service, "/directions-refresh/v1/mapbox/driving-traffic/\(uuid)/0/1?current_route_geometry_index=1").status == 422)
        #expect(try Self.get(service, "/directions-refresh/v1/mapbox/driving-traffic/\(uuid)/9/0").status == 422)
        #expect(try Self.get(service, "/directions-refresh/v1/mapbox/driving-traffic/\(uuid)/0/5").status == 422)
    }

    @Test func refreshCacheIsBoundedByCountAndAge() throws {
        var limits = ServiceLimits()
        limits.maximumRefreshableResponses = 2
        let service = try Self.service(limits: limits)
        let target = "/directions/v5/mapbox/driving-traffic/7.4246,43.7384;7.4197,43.7311?enable_refresh=true&annotations=duration"
        let uuids = try (0..<3).map { _ in try #require(try Self.get(service, target).json["uuid"] as? String) }
        #expect(try Self.get(service, "/directions-refresh/v1/mapbox/driving-traffic/\(uuids[0])/0/0").status == 422)
        #expect(try Self.get(service, "/directions-refresh/v1/mapbox/driving-traffic/\(uuids[2])/0/0").status == 200)

        limits.maximumRefreshableResponses = 10
        limits.refreshSeconds = 1
        let aging = try Self.service(limits: limits)
        let uuid = try #require(try Self.get(aging, target).json["uuid"] as? String)
        #expect(try Self.get(aging, "/directions-refresh/v1/mapbox/driving-traffic/\(uuid)/0/0").status == 200)
        Thread.sleep(forTimeInterval: 1.3)
        #expect(try Self.get(aging, "/directions-refresh/v1/mapbox/driving-traffic/\(uuid)/0/0").status == 422)
    }

    @Test func nextBillionEndpointsEqualTheOSRMAnswers() throws {
        let service = try Self.service()
        let (status, navigation) = try Self.get(service, "/navigation/json?origin=43.7384,7.4246&destination=43.7311,7.4197&waypoints=43.7402,7.4268"
                                                 + "&mode=4w&lang=fr&geometry=polyline6&avoid=toll|highway&key=k")
        #expect(status == 200)
        #expect(navigation["status"] as? String == "Ok")
        let (_, osrm) = try Self.get(service, "/route/v1/driving/7.4246,43.7384;7.4268,43.7402;7.4197,43.7311?exclude=toll,motorway&overview=false")
        let osrmRoute = (osrm["routes"] as? [[String: Any]])?.first ?? [:]
        let route = (navigation["routes"] as? [[String: Any]])?.first ?? [:]
        #expect(route["distance"] as? Double == osrmRoute["distance"] as? Double)
        let legs = route["legs"] as? [[String: Any]] ?? []
        #expect(legs.count == 2)
        let steps = legs.first?["steps"] as? [[String: Any]] ?? []
        #expect(steps.count >= 2)
        let maneuver = steps.first?["maneuver"] as? [String: Any] ?? [:]
        #expect((maneuver["instruction"] as? String).map { !$0.isEmpty } == true)
        #expect((maneuver["voice_instruction"] as? [[String: Any]])?.first?["instruction"] as? String != nil)
        #expect((maneuver["coordinate"] as? [String: Any])?["latitude"] as? Double != nil)
        #expect((legs.first?["distance"] as? [String: Any])?["value"] != nil)

        // Directions: POST with a JSON body, as the official client sends it.
        let body = Data(#"{"origin": "43.7384,7.4246", "destination": "43.7311,7.4197", "mode": "car", "steps": true, "alternatives": false}"#.utf8)
        let directions = try Self.object(service.handle(HTTPRequest(method: "POST", target: "/directions/json?key=k", body: body)))
        #expect(directions["status"] as? String == "Ok")
        let (_, plain) = try Self.get(service, "/route/v1/driving/7.4246,43.7384;7.4197,43.7311?overview=false")
        #expect((directions["route"] as? [String: Any])?["distance"] as? Double == (plain["routes"] as? [[String: Any]])?.first?["distance"] as? Double)

        // Distance matrix against /table.
        let matrix = try Self.get(service, "/distancematrix/json?origins=43.7384,7.4246|43.7402,7.4268&destinations=43.7311,7.4197|43.7384,7.4246&mode=car&key=k")
        #expect(matrix.status == 200)
        let (_, table) = try Self.get(service, "/table/v1/driving/7.4246,43.7384;7.4268,43.7402;7.4197,43.7311;7.4246,43.7384?sources=0;1&destinations=2;3&annotations=duration,distance")
        let rows = matrix.json["rows"] as? [[String: Any]] ?? []
        let durations = table["durations"] as? [[Any]] ?? []
        #expect(rows.count == 2)
        for (row, line) in zip(rows, durations) {
            let elements = row["elements"] as? [[String: Any]] ?? []
            #expect(elements.map { $0["duration"] as? Double } == line.map { $0 as? Double })
        }

        // Isochrone: one feature per contour.
        let isochrone = try Self.get(service, "/isochrone/json?coordinates=43.7384,7.4246&contours_minutes=2,4&contours_meters=0&mode=car&key=k")
        #expect(isochrone.status == 200)
        let features = isochrone.json["features"] as? [[String: Any]] ?? []
        #expect(features.count == 2)
        #expect(Set(features.compactMap { ($0["properties"] as? [String: Any])?["contour"] as? Double }) == [2, 4])

        // Modes map onto profiles: 2w is the motorcycle.
        let (_, motorcycle) = try Self.get(service, "/route/v1/motorcycle/7.4246,43.7384;7.4197,43.7311?overview=false")
        let twoWheeler = try Self.get(service, "/directions/json?origin=43.7384,7.4246&destination=43.7311,7.4197&mode=2w")
        #expect((twoWheeler.json["route"] as? [String: Any])?["distance"] as? Double == (motorcycle["routes"] as? [[String: Any]])?.first?["distance"] as? Double)

        for (target, parameter) in [("/navigation/json?destination=43.7311,7.4197", "origin"), ("/navigation/json?origin=43.7384&destination=43.7311,7.4197", "origin"),
                                    ("/navigation/json?origin=43.7384,7.4246&destination=43.7311,7.4197&mode=plane", "mode"),
                                    ("/navigation/json?origin=43.7384,7.4246&destination=43.7311,7.4197&avoid=tunnel", "avoid"),
                                    ("/isochrone/json?coordinates=43.7384,7.4246&contours_meters=500", "contours_meters")] {
            let (errorStatus, json) = try Self.get(service, target)
            #expect(errorStatus == 400, "\(target)")
            #expect(json["parameter"] as? String == parameter, "\(target): \(json)")
            #expect((json["msg"] as? String).map { !$0.isEmpty } == true)
        }
    }
}
