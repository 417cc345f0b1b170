import Foundation
import NavGraphCore

/// NextBillion's API dialect: `GET /navigation/json`, `GET|POST /directions/json`, `GET /distancematrix/json` and
/// `GET /isochrone/json`, with `origin`/`destination`/`waypoints` as `lat,lng|lat,lng`, translated into the shared
/// request model; the answers are written in the shapes of the official `nextbillion-sdk` client's typed models
/// (`{"status": "Ok", "msg": "", "routes": [...]}` with `{"value": ...}` distances and `latitude`/`longitude` objects).
package enum NextBillionAPI {
    /// `mode` values and the profiles they route with (`escooter` where the graph file has that profile).
    package static let modes: [String: String] = [
        "car": "car", "4w": "car", "truck": "truck", "6w": "truck", "2w": "motorcycle", "bike": "bicycle",
        "escooter": "escooter",
    ]
    /// Parameters NextBillion defines that navgraph accepts and does not act on (listed in docs/API.md).
    package static let acceptedUnused: Set<String> = [
        "original_shape", "original_shape_type", "option", "cross_border", "emission_class", "drive_time_limits", "rest_times",
        "road_info", "turn_angle_range", "hazmat_type", "context", "route_failed_prompt", "contours_colors", "denoise",
        "generalize", "polygons", "special_object_types", "truck_size_unit", "route_type",
    ]
    package static let paths: Set<String> = ["/navigation/json", "/directions/json", "/distancematrix/json", "/isochrone/json"]

    /// Whether the path belongs to this dialect.
    package static func matches(_ path: String) -> Bool { paths.contains(path) }

    /// Answers one request of this dialect.
    package static func answer(_ request: HTTPRequest, service: RoutingService) throws -> HTTPResponse {
        let pairs = try parameters(request)
        var values: [String: String] = [:]
        for (name, value) in pairs where !acceptedUnused.contains(name) {
            guard values[name] == nil else { throw OSRMError(.invalidQuery, "option '\(name)' is given twice", parameter: name) }
            values[name] = value
        }
        let options = Options(values: values, path: request.path)
        switch request.path {
        case "/navigation/json", "/directions/json":
            let directions = try options.directionsRequest(navigation: request.path == "/navigation/json", limits: service.limits)
            let result = try service.routerPool(for: directions.url.profileID).with { router in
                try service.directions(directions, router: router)
            }
            return .json(request.path == "/navigation/json"
                         ? NextBillionWriter.navigation(result, directions.parameters)
                         : NextBillionWriter.directions(result, directions.parameters))
        case "/distancematrix/json": return .json(try options.matrix(service: service))
        default: return .json(try options.isochrone(service: service))
        }
    }

    /// Query pairs, plus a POST body's pairs (a JSON object, as the official client sends, or a form).
    package static func parameters(_ request: HTTPRequest) throws -> [(name: String, value: String)] {
        guard request.method == "POST" else {
            guard request.method == "GET" || request.method == "HEAD" else {
                throw OSRMError(.invalidUrl, "method \(request.method) is not supported on \(request.path) (use GET or POST)")
            }
            return request.query
        }
        if request.bodyTooBig { throw OSRMError(.tooBig, "the request body exceeds this server's limit", parameter: "body") }
        guard let first = request.body.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else { return request.query }
        guard first == UInt8(ascii: "{") else { return request.query + HTTPRequest.formPairs(request.body) }
        guard let object = try? JSONDecoder().decode([String: BodyValue].self, from: request.body) else {
            throw OSRMError(.invalidValue, "the POST body is not a JSON object of strings, numbers and booleans", parameter: "body")
        }
        return request.query + object.sorted { $0.key < $1.key }.compactMap { key, value in value.text.map { (key, $0) } }
    }

    /// A scalar of a JSON request body, as the query-string text it stands for.
    private enum BodyValue: Decodable {
        case text(String?)

        package init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .text(nil) }
            else if let flag = try? container.decode(Bool.self) { self = .text(flag ? "true" : "false") }
            else if let whole = try? container.decode(Int.self) { self = .text(String(whole)) }
            else if let number = try? container.decode(Double.self) { self = .text(String(number)) }
            else { self = .text(try container.decode(String.self)) }
        }

        package var text: String? { if case .text(let value) = self { value } else { nil } }
    }

    /// The options of one request, read by name with NextBillion's meanings.
    package struct Options {
        package var values: [String: String]
        package var path: String

        /// Fails on a name this endpoint does not know.
        package func check(_ allowed: Set<String>) throws {
            if let unknown = values.keys.sorted().first(where: { !allowed.contains($0) }) {
                throw OSRMError(.invalidQuery, "option '\(unknown)' is not known to \(path) (known: \(allowed.sorted().joined(separator: ", ")))",
                                parameter: unknown)
            }
        }

        /// `lat,lng` points separated by `|`.
        package func points(_ name: String, required: Bool) throws -> [Coordinate] {
            guard let raw = values[name], !raw.isEmpty else {
                if required { throw OSRMError(.invalidQuery, "\(name) is required (lat,lng)", parameter: name) }
                return []
            }
            return try raw.split(separator: "|", omittingEmptySubsequences: false).map { item in
                let parts = item.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count == 2, let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
                      let lon = Double(parts[1].trimmingCharacters(in: .whitespaces)) else {
                    throw OSRMError(.invalidValue, "\(name): '\(item)' is not lat,lng", parameter: name)
                }
                let point = Coordinate(lat: lat, lon: lon)
                guard point.isValid else { throw OSRMError(.invalidValue, "\(name): '\(item)' is out of range (lat -90..90, lng -180..180)", parameter: name) }
                return point
            }
        }

        /// The profile of `mode` (default car).
        package func profile() throws -> (name: String, id: ProfileID) {
            let mode = values["mode"] ?? "car"
            guard let name = modes[mode], let id = OSRMURL.profiles[name] else {
                let served = modes.keys.filter { OSRMURL.profiles[modes[$0] ?? ""] != nil }.sorted()
                throw OSRMError(.invalidValue, "mode '\(mode)' is not served (use \(served.joined(separator: ", ")))", parameter: "mode")
            }
            return (name, id)
        }

        /// The shared options every NextBillion endpoint maps onto OSRM's names: avoid, bearings, approaches, truck.
        package func sharedPairs(count: Int, profile: ProfileID) throws -> [(name: String, value: String)] {
            var pairs: [(name: String, value: String)] = []
            if let raw = values["avoid"] ?? values["exclude"] {
                var classes: [String] = []
                for item in raw.split(whereSeparator: { $0 == "|" || $0 == "," }) {
                    switch item {
                    case "toll", "ferry": classes.append(String(item))
                    case "highway": classes.append("motorway")
                    case "none": break
                    default: throw OSRMError(.invalidValue, "avoid: '\(item)' is not toll, ferry, highway or none", parameter: "avoid")
                    }
                }
                if !classes.isEmpty { pairs.append(("exclude", classes.joined(separator: ","))) }
            }
            for name in ["bearings", "approaches"] {
                if let raw = values[name] { pairs.append((name, raw.replacingOccurrences(of: "|", with: ";"))) }
            }
            if let raw = values["truck_size"] {
                let parts = raw.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count == 3, let height = Double(parts[0]), let width = Double(parts[1]), let length = Double(parts[2]) else {
                    throw OSRMError(.invalidValue, "truck_size='\(raw)' is not height,width,length in centimetres", parameter: "truck_size")
                }
                pairs += [("vehicle_height", "\(height / 100)"), ("vehicle_width", "\(width / 100)"), ("vehicle_length", "\(length / 100)")]
            }
            if let raw = values["truck_weight"] {
                guard let kilograms = Double(raw) else { throw OSRMError(.invalidValue, "truck_weight='\(raw)' is not kilograms", parameter: "truck_weight") }
                pairs.append(("vehicle_weight", "\(kilograms / 1000)"))
            }
            if let raw = values["truck_axle_load"] { pairs.append(("vehicle_axle_load", raw)) }
            return pairs
        }

        /// `departure_time` (Unix seconds) as the traffic hour's date components.
        package func departure() throws -> DateComponents? {
            guard let raw = values["departure_time"] else { return nil }
            guard let seconds = Int(raw), seconds >= 0 else {
                throw OSRMError(.invalidValue, "departure_time='\(raw)' is not Unix seconds", parameter: "departure_time")
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
            return calendar.dateComponents([.weekday, .hour, .minute], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        }

        /// `/navigation/json` and `/directions/json` as a shared route request.
        package func directionsRequest(navigation: Bool, limits: ServiceLimits) throws -> DirectionsRequest {
            try check(["origin", "destination", "waypoints", "mode", "avoid", "exclude", "departure_time", "alternatives", "altcount", "lang",
                       "geometry", "overview", "bearings", "approaches", "truck_size", "truck_weight", "truck_axle_load", "steps", "key"])
            let coordinates = try points("origin", required: true) + points("waypoints", required: false) + points("destination", required: true)
            guard coordinates.count <= limits.maximumCoordinates else {
                throw OSRMError(.tooBig, "\(coordinates.count) coordinates exceed this server's limit of \(limits.maximumCoordinates)", parameter: "waypoints")
            }
            let (name, profile) = try self.profile()
            var pairs = try sharedPairs(count: coordinates.count, profile: profile)
            if let raw = values["alternatives"], raw != "false" {
                guard raw == "true" else { throw OSRMError(.invalidQuery, "alternatives='\(raw)' is not true or false", parameter: "alternatives") }
                let count = values["altcount"] ?? "\(limits.maximumAlternatives)"
                guard let number = Int(count), number >= 1 else { throw OSRMError(.invalidValue, "altcount='\(count)' is not a count of 1 or more", parameter: "altcount") }
                pairs.append(("alternatives", "\(number)"))
            }
            if let language = values["lang"] { pairs.append(("language", language)) }
            if let geometry = values["geometry"] { pairs.append(("geometries", geometry)) }
            pairs.append(("overview", values["overview"] ?? "full"))
            let steps = navigation ? "true" : (values["steps"] ?? "false")
            pairs.append(("steps", steps))
            if navigation { pairs.append(("voice_instructions", "true")) }
            let query = try QueryOptions(pairs, allowed: RouteEndpoint.options, service: path)
            var parameters = try RouteEndpoint.Parameters(query, coordinateCount: coordinates.count,
                                                          maximumAlternatives: limits.maximumAlternatives, profile: profile)
            parameters.departure = try departure()
            return DirectionsRequest(url: OSRMURL(service: "route", profile: name, profileID: profile, coordinates: coordinates), parameters: parameters)
        }

        /// `/distancematrix/json`: `rows[i].elements[j]` with `duration` (s) and `distance` (m), null where unreachable.
        package func matrix(service: RoutingService) throws -> JSON {
            try check(["origins", "destinations", "mode", "avoid", "exclude", "bearings", "approaches", "departure_time", "truck_size",
                       "truck_weight", "truck_axle_load", "key"])
            let origins = try points("origins", required: true), destinations = try points("destinations", required: true)
            let (name, profile) = try self.profile()
            let all = origins + destinations
            // Per-point lists (bearings, approaches) name the origins, then the destinations.
            var pairs = try sharedPairs(count: all.count, profile: profile)
            pairs += [("sources", (0..<origins.count).map(String.init).joined(separator: ";")),
                      ("destinations", (origins.count..<all.count).map { String($0) }.joined(separator: ";")),
                      ("annotations", "duration,distance")]
            let query = try QueryOptions(pairs, allowed: TableEndpoint.options, service: path)
            let url = OSRMURL(service: "table", profile: name, profileID: profile, coordinates: all)
            let table = try service.routerPool(for: profile).with { router in
                try TableEndpoint.answer(url, query, router: router,
                                         traffic: router.graph.profile.roadSet == .motor ? service.traffic.snapshot?.overlay(departure: try departure()) : nil,
                                         limits: service.limits, deadline: .now() + .nanoseconds(Int(service.limits.requestSeconds * 1e9)))
            }
            let durations = table.elements("durations"), distances = table.elements("distances")
            let rows: [JSON] = durations.enumerated().map { row, line in
                guard case .array(let cells) = line else { return .object([("elements", .array([]))]) }
                let distanceCells: [JSON]
                if case .array(let items)? = distances[safe: row] { distanceCells = items } else { distanceCells = [] }
                return .object([("elements", .array(cells.enumerated().map { column, duration in
                    .object([("duration", duration), ("distance", distanceCells[safe: column] ?? .null)])
                }))])
            }
            return .object([("status", .string("Ok")), ("msg", .string("")), ("rows", .array(rows))])
        }

        /// `/isochrone/json`: the contours of `contours_minutes` as GeoJSON polygons with `contour` and `metric`.
        package func isochrone(service: RoutingService) throws -> JSON {
            try check(["coordinates", "contours_minutes", "contours_meters", "mode", "departure_time", "key", "avoid", "exclude",
                       "truck_size", "truck_weight", "truck_axle_load"])
            let center = try points("coordinates", required: true)
            guard center.count == 1 else { throw OSRMError(.invalidValue, "coordinates takes one lat,lng, got \(center.count)", parameter: "coordinates") }
            if let meters = values["contours_meters"], !meters.split(separator: ",").allSatisfy({ Double($0) == 0 }) {
                throw OSRMError(.invalidValue, "contours_meters='\(meters)': distance contours are not supported; use contours_minutes", parameter: "contours_meters")
            }
            guard let minutes = values["contours_minutes"], !minutes.isEmpty else {
                throw OSRMError(.invalidQuery, "contours_minutes is required", parameter: "contours_minutes")
            }
            let (name, profile) = try self.profile()
            let pairs = try sharedPairs(count: 1, profile: profile) + [("contours_minutes", minutes)]
            let query = try QueryOptions(pairs, allowed: IsochroneEndpoint.options, service: path)
            let url = OSRMURL(service: "isochrone", profile: name, profileID: profile, coordinates: center)
            let (isochrone, _) = try service.routerPool(for: profile).with { router in
                try IsochroneEndpoint.compute(url, query, router: router,
                                              traffic: router.graph.profile.roadSet == .motor ? service.traffic.snapshot?.overlay(departure: try departure()) : nil)
            }
            var geojson = IsochroneGeoJSON.json(isochrone)
            geojson.update("features") { features in
                guard case .array(let items) = features else { return features }
                return .array(items.filter { $0.member("properties")?.member("contour") != nil }.map { feature in
                    var shaped = feature
                    shaped.update("properties") { properties in
                        let color = properties.string("fill") ?? "#3388ff"
                        return .object([("contour", properties.member("contour") ?? .null), ("metric", .string("time")),
                                        ("color", .string(color)), ("fill", .string(color)), ("fillColor", .string(color)),
                                        ("opacity", .number(0.8)), ("fillOpacity", properties.member("fill-opacity") ?? .number(0.33))])
                    }
                    return shaped
                })
            }
            return .object([("status", .string("Ok")), ("msg", .string("")), ("type", .string("FeatureCollection")),
                            ("features", .array(geojson.elements("features")))])
        }
    }

    // MARK: Writers

    /// `{"latitude": ..., "longitude": ...}`.
    package static func location(_ c: Coordinate) -> JSON {
        .object([("latitude", .number(c.lat, decimals: 6)), ("longitude", .number(c.lon, decimals: 6))])
    }

    /// An error in NextBillion's form: `{"status": code, "msg": message}`, HTTP 400 (401 without a valid key).
    package static func failure(_ error: OSRMError) -> HTTPResponse {
        .json(.object([("status", .string(error.code.rawValue)), ("msg", .string(error.message))]
                      + (error.parameter.map { [("parameter", .string($0))] } ?? [])),
              status: error.isUnauthorized ? 401 : 400)
    }
}
