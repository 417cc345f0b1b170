import Foundation
import NavGraphCore

/// The Mapbox Directions API v5 dialect: `GET /directions/v5/{owner}/{profile}/{coordinates}[.json]` and
/// `POST /directions/v5/{owner}/{profile}` with a form body (what MapboxDirections' `urlRequest(forCalculating:)`
/// sends above 8,192 characters of URL), translated into the shared `DirectionsRequest`; the pipeline's Directions
/// JSON with Mapbox's additions (waypoint names, `refresh_ttl`) and Mapbox's error statuses. Any owner is accepted.
package enum MapboxDirectionsAPI {
    /// The profiles a path may name: the vehicle profile and whether it routes with the live traffic.
    package static let profiles: [String: (profile: ProfileID, traffic: Bool)] = [
        "driving-traffic": (.car, true), "driving": (.car, false), "walking": (.foot, false), "cycling": (.bicycle, false),
        "truck": (.truck, true), "motorcycle": (.motorcycle, true),
    ]
    /// Parameters Mapbox defines that navgraph accepts and does not act on (listed in docs/API.md).
    package static let acceptedUnused: Set<String> = [
        "waypoint_targets", "snapping_include_closures", "snapping_include_static_closures", "alley_bias", "walkway_bias",
        "walking_speed", "avoid_maneuver_radius", "include", "layers", "compute_toll_cost", "arrive_by", "sku", "engine",
        "notifications", "metadata", "suppress_voice_instruction_local_names",
    ]
    /// Parameters this dialect reads itself; the others are the shared route options under their OSRM names.
    package static let own: Set<String> = ["enable_refresh", "waypoint_names", "max_height", "max_width", "max_weight", "annotations", "exclude"]
    /// Annotations Mapbox has beyond OSRM's: `closure` (the leg's `closures` list) and `traffic_tendency`.
    package static let ownAnnotations: Set<String> = ["closure", "traffic_tendency"]
    /// The road classes `exclude` may name, and their OSRM names.
    package static let excludable = ["toll": "toll", "motorway": "motorway", "ferry": "ferry"]

    /// A translated request and what the writer adds to the pipeline's JSON.
    package struct Request {
        package var directions: DirectionsRequest
        /// `waypoint_names`, one per waypoint of the response (empty entries keep the road name).
        package var waypointNames: [String]?
        package var closures = false
        package var trafficTendency = false
    }

    /// The `/route` options this dialect passes on (its profile names the traffic, not an option).
    private static let sharedOptions = RouteEndpoint.options.subtracting(["traffic"])

    /// Whether the path belongs to this dialect.
    package static func matches(_ path: String) -> Bool { path.hasPrefix("/directions/v5/") }

    /// Reads the path, the query and (for POST) the form body into the shared request model.
    package static func parse(_ request: HTTPRequest, limits: ServiceLimits) throws -> Request {
        let (parts, pairs, coordinateText) = try split(request, service: "directions")
        let profileName = parts[4]
        guard let (profile, traffic) = profiles[profileName] else {
            throw OSRMError(.invalidValue, "profile '\(parts[3])/\(profileName)' is not served (use \(profiles.keys.sorted().joined(separator: ", ")))",
                            parameter: "profile")
        }
        let coordinates = try OSRMURL.parseCoordinates(coordinateText, maximum: limits.maximumCoordinates)
        guard coordinates.count >= 2 else {
            throw OSRMError(.invalidValue, "a route needs at least 2 coordinates, got \(coordinates.count)", parameter: "coordinates")
        }
        var own: [String: String] = [:]
        var shared: [(name: String, value: String)] = []
        for pair in pairs where !acceptedUnused.contains(pair.name) {
            if Self.own.contains(pair.name) {
                guard own[pair.name] == nil else { throw OSRMError(.invalidQuery, "option '\(pair.name)' is given twice", parameter: pair.name) }
                own[pair.name] = pair.value
            } else {
                shared.append(pair)
            }
        }
        var closures = false, trafficTendency = false
        if let raw = own["annotations"] {
            var kept: [String] = []
            for item in raw.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map({ String(Substring($0)) }) {
                switch item {
                case "closure": closures = true
                case "traffic_tendency": trafficTendency = true
                default: kept.append(item)
                }
            }
            if !kept.isEmpty { shared.append(("annotations", kept.joined(separator: ","))) }
        }
        if let raw = own["exclude"], !raw.isEmpty {
            let classes = try raw.split(separator: ",", omittingEmptySubsequences: false).map { item -> String in
                guard let name = excludable[String(item)] else {
                    throw OSRMError(.invalidValue, "exclude: '\(item)' is not a class this server can avoid (toll, motorway, ferry, in any combination)",
                                    parameter: "exclude")
                }
                return name
            }
            shared.append(("exclude", classes.joined(separator: ",")))
        }
        let query = try QueryOptions(shared, allowed: sharedOptions, service: "directions")
        var parameters = try RouteEndpoint.Parameters(query, coordinateCount: coordinates.count, maximumAlternatives: limits.maximumAlternatives,
                                                      profile: profile)
        parameters.vehicle = try vehicle(own, profile: profile) ?? parameters.vehicle
        let url = OSRMURL(service: "route", profile: profileName, profileID: profile, coordinates: coordinates)
        var result = Request(directions: DirectionsRequest(url: url, parameters: parameters, usesTraffic: traffic),
                             closures: closures, trafficTendency: trafficTendency)
        if let raw = own["enable_refresh"] {
            guard raw == "true" || raw == "false" else { throw OSRMError(.invalidQuery, "enable_refresh='\(raw)' is not true or false", parameter: "enable_refresh") }
            result.directions.enableRefresh = raw == "true"
        }
        result.directions.dialectAnnotations = Set(ownAnnotations.filter { ($0 == "closure" && closures) || ($0 == "traffic_tendency" && trafficTendency) })
        if let raw = own["waypoint_names"] {
            let names = raw.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            let stops = parameters.waypoints?.count ?? coordinates.count
            guard names.count == stops else {
                throw OSRMError(.invalidOptions, "waypoint_names has \(names.count) names but the route has \(stops) waypoints", parameter: "waypoint_names")
            }
            result.waypointNames = names
        }
        return result
    }

    /// A v5 path's parts (`""`, service, `v5`, owner, profile[, coordinates]), the query and form pairs, and the
    /// coordinates (from the path for GET, from the form body's `coordinates=` for POST).
    package static func split(_ request: HTTPRequest, service: String) throws -> (parts: [String], pairs: [(name: String, value: String)], coordinates: String) {
        let parts = request.path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { String(Substring($0)) }
        // "", service, "v5", owner, profile[, coordinates]
        var pairs = request.query
        var coordinateText: String
        switch request.method {
        case "GET", "HEAD":
            guard parts.count == 6, !parts[3].isEmpty, !parts[5].isEmpty else {
                throw OSRMError(.invalidUrl, "URL '\(request.path)' is not /\(service)/v5/{owner}/{profile}/{coordinates}")
            }
            coordinateText = parts[5]
            if coordinateText.hasSuffix(".json") { coordinateText.removeLast(5) }
        case "POST":
            guard parts.count == 5 || (parts.count == 6 && parts[5].isEmpty), !parts[3].isEmpty else {
                throw OSRMError(.invalidUrl, "URL '\(request.path)' is not /\(service)/v5/{owner}/{profile} (POST with a form body)")
            }
            if request.bodyTooBig { throw OSRMError(.tooBig, "the request body exceeds this server's limit", parameter: "body") }
            pairs += HTTPRequest.formPairs(request.body)
            guard let index = pairs.firstIndex(where: { $0.name == "coordinates" }) else {
                throw OSRMError(.invalidQuery, "a POST to /\(service)/v5 needs coordinates=lon,lat;lon,lat in its form body", parameter: "coordinates")
            }
            coordinateText = pairs.remove(at: index).value
        default:
            throw OSRMError(.invalidUrl, "method \(request.method) is not supported on \(request.path) (use GET or POST)")
        }
        return (parts, pairs, coordinateText)
    }

    /// `max_height`, `max_width` (metres) and `max_weight` (tonnes) as the vehicle's dimensions, for the motor profiles.
    private static func vehicle(_ own: [String: String], profile: ProfileID) throws -> VehicleDimensions? {
        var vehicle = VehicleDimensions()
        for (name, maximum, set) in [("max_height", 10.0, { (v: inout VehicleDimensions, x: Double) in v.height = x }),
                                     ("max_width", 10.0, { (v: inout VehicleDimensions, x: Double) in v.width = x }),
                                     ("max_weight", 100.0, { (v: inout VehicleDimensions, x: Double) in v.weight = x })] {
            guard let raw = own[name] else { continue }
            guard let value = Double(raw), value.isFinite, value > 0, value <= maximum else {
                throw OSRMError(.invalidValue, "\(name)='\(raw)' is not a number in 0...\(Int(maximum)) (exclusive of 0)", parameter: name)
            }
            set(&vehicle, value)
        }
        guard !vehicle.isEmpty else { return nil }
        guard profile.roadSet == .motor else {
            throw OSRMError(.invalidValue, "max_height, max_width and max_weight apply to the driving profiles, not \(profile.rawValue)", parameter: "max_height")
        }
        return vehicle
    }

    /// The pipeline's Directions body with Mapbox's additions: waypoint names, the leg `closures` list and
    /// `traffic_tendency`. Mapbox lists every coordinate in `waypoints`, silent via points included (the SDK pairs
    /// them with its own waypoints one to one); `waypoint_names` name the ones that separate legs.
    package static func body(_ result: DirectionsResult, _ request: Request) -> WrittenBytes {
        RouteEndpoint.bytes(result.response, request.directions.parameters, uuid: result.uuid, shape: shape(result, request))
    }

    /// The shape of the pipeline's body with Mapbox's additions.
    package static func shape(_ result: DirectionsResult, _ request: Request) -> DirectionsShape {
        let response = result.response
        var shape = result.shape
        var stops = response.waypoints.map { (waypoint: $0, isStop: true) }
        if request.directions.parameters.waypoints != nil, let route = response.routes.first, route.legs.count + 1 == response.waypoints.count {
            stops = [(response.waypoints[0], true)]
            for (index, leg) in route.legs.enumerated() {
                stops += leg.viaWaypoints.map { ($0.waypoint, false) }
                stops.append((response.waypoints[index + 1], true))
            }
        }
        var names = (request.waypointNames ?? [])[...]
        shape.waypoints = stops.map { stop -> RouteWaypoint in
            guard stop.isStop, let name = names.popFirst(), !name.isEmpty else { return stop.waypoint }
            var named = stop.waypoint
            named.roadName = name
            return named
        }
        shape.closures = request.closures
        shape.trafficTendency = request.trafficTendency
        return shape
    }

    /// A leg with the `closures` list and the `traffic_tendency` annotation, as asked for.
    package static func addOwnAnnotations(_ leg: JSON, closures: Bool, trafficTendency: Bool, segments: Int? = nil) -> JSON {
        var shaped = leg
        if closures { shaped.append("closures", .array([])) }
        if trafficTendency {
            let count = segments ?? leg.member("annotation")?.firstArrayCount ?? 0
            let tendencies = JSON.array(Array(repeating: .number(0), count: count))
            if leg.member("annotation") == nil { shaped.append("annotation", .object([])) }
            shaped.update("annotation") { annotation in
                var updated = annotation
                updated.append("traffic_tendency", tendencies)
                return updated
            }
        }
        return shaped
    }

    /// An error in Mapbox's form: `code` and `message`, with v5's statuses (NoRoute and NoSegment are 200, an
    /// unknown profile 404 ProfileNotFound, too many coordinates 422 TooManyCoordinates, a bad token 401, other bad
    /// input 422 InvalidInput).
    package static func failure(_ error: OSRMError) -> HTTPResponse {
        let (status, code): (Int, String)
        switch error.code {
        case .noRoute: (status, code) = (200, "NoRoute")
        case .noSegment: (status, code) = (200, "NoSegment")
        case .noMatch: (status, code) = (200, "NoMatch")
        case .noToken, .invalidToken: (status, code) = (401, error.code.rawValue)
        case .tooBig where error.parameter == "coordinates": (status, code) = (422, "TooManyCoordinates")
        case .tooBig where error.parameter == "body": (status, code) = (413, "RequestTooLarge")
        case _ where error.parameter == "profile": (status, code) = (404, "ProfileNotFound")
        default: (status, code) = (422, "InvalidInput")
        }
        let message = error.isUnauthorized ? "Not Authorized - \(error.code == .noToken ? "No Token" : "Invalid Token"): \(error.message)" : error.message
        // An unknown or expired refresh says refresh_ttl 0, which the SDK reports as refreshExpired (and stops asking).
        let expired: [(String, JSON)] = error.code == .routeNotFound ? [("refresh_ttl", .number(0))] : []
        return .json(.object([("code", .string(code)), ("message", .string(message))] + (error.parameter.map { [("parameter", .string($0))] } ?? []) + expired),
                     status: status)
    }
}

extension JSON {
    /// The length of an object's first array member (an annotation's segment count).
    package var firstArrayCount: Int? {
        guard case .object(let members) = self else { return nil }
        for (_, value) in members { if case .array(let items) = value { return items.count } }
        return nil
    }
}

extension HTTPRequest {
    /// The pairs of an `application/x-www-form-urlencoded` body (names and values percent-decoded, `+` a space).
    package static func formPairs(_ body: Data) -> [(name: String, value: String)] {
        HTTPRequest(method: "POST", target: "/?" + String(decoding: body, as: UTF8.self)).query
    }
}
