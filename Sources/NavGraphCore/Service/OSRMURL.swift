import Foundation

/// A request path of the OSRM form `/{service}/{version}/{profile}/{coordinates}[.json]`, split and checked.
package struct OSRMURL {
    package var service: String
    package var version: String
    package var profile: String
    /// The vehicle profile the path names.
    package var profileID: ProfileID
    package var coordinates: [Coordinate]

    /// Services this server answers in the OSRM path form.
    static let services: Set<String> = ["route", "table", "nearest", "isochrone", "geojson", "style", "match", "trip"]
    /// Profile names the path may give, and what they mean.
    package static let profiles: [String: ProfileID] = [
        "driving": .car, "car": .car, "truck": .truck, "motorcycle": .motorcycle,
        "cycling": .bicycle, "bicycle": .bicycle, "walking": .foot, "foot": .foot, "escooter": .escooter,
    ]

    /// The profile a name means, or the error naming it and the names served.
    package static func profileID(named name: String) throws -> ProfileID {
        guard let profileID = profiles[name] else {
            throw OSRMError(.invalidValue, "profile '\(name)' is not served (use \(profiles.keys.sorted().joined(separator: ", ")))")
        }
        return profileID
    }

    package init(path: String, maximumCoordinates: Int) throws {
        // Split on the bytes: the path of a long trace runs to kilobytes, and `/`, `;` and `,` are ASCII.
        let parts = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { String(Substring($0)) }
        guard parts.count >= 2, parts[0].isEmpty, !parts[1].isEmpty else {
            throw OSRMError(.invalidUrl, "URL '\(path)' is not /{service}/{version}/{profile}/{coordinates}")
        }
        service = parts[1]
        guard Self.services.contains(service) else {
            throw OSRMError(.invalidService, "service '\(service)' is not one of \(Self.services.sorted().joined(separator: ", "))")
        }
        guard parts.count == 5, !parts[3].isEmpty, !parts[4].isEmpty else {
            throw OSRMError(.invalidUrl, "URL '\(path)' is not /\(service)/v1/{profile}/{coordinates}")
        }
        version = parts[2]
        guard version == "v1" else { throw OSRMError(.invalidVersion, "version '\(version)' is not v1") }
        profile = parts[3]
        profileID = try Self.profileID(named: profile)
        var text = parts[4]
        if let dot = text.lastIndex(of: "."), !text[text.index(after: dot)...].contains(where: { $0.isNumber || $0 == "," || $0 == ";" || $0 == ")" }) {
            let format = String(text[text.index(after: dot)...])
            guard format == "json" else { throw OSRMError(.invalidValue, "format '\(format)' is not supported (only json)") }
            text = String(text[..<dot])
        }
        coordinates = try Self.parseCoordinates(text, maximum: maximumCoordinates)
    }

    /// `lon,lat;lon,lat...`, `polyline(...)` (precision 5) or `polyline6(...)`.
    package static func parseCoordinates(_ text: String, maximum: Int) throws -> [Coordinate] {
        var points: [Coordinate] = []
        for (prefix, precision) in [("polyline6(", 6), ("polyline(", 5)] where text.hasPrefix(prefix) {
            guard text.hasSuffix(")") else { throw OSRMError(.invalidUrl, "coordinates '\(text)': polyline is missing its ')'") }
            let encoded = String(text.dropFirst(prefix.count).dropLast())
            do {
                points = try Polyline.decode(encoded, precision: precision)
            } catch {
                throw OSRMError(.invalidUrl, "coordinates '\(text)': not a valid encoded polyline")
            }
            guard !points.isEmpty else { throw OSRMError(.invalidUrl, "coordinates '\(text)': the polyline has no points") }
            break
        }
        if points.isEmpty {
            // Count first so a huge list is refused before anything is parsed.
            let count = text.utf8.reduce(1) { $0 + ($1 == 59 ? 1 : 0) }
            if count > maximum { throw OSRMError(.tooBig, "\(count) coordinates exceed this server's limit of \(maximum)", parameter: "coordinates") }
            points.reserveCapacity(count)
            for item in text.utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
                let values = item.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
                guard values.count == 2, let lon = Double(Substring(values[0])), let lat = Double(Substring(values[1])) else {
                    throw OSRMError(.invalidUrl, "coordinate '\(Substring(item))' is not {longitude},{latitude}")
                }
                points.append(Coordinate(lat: lat, lon: lon))
            }
        }
        try check(points, maximum: maximum)
        return points
    }

    /// Refuses more than `maximum` coordinates and any outside longitude -180...180, latitude -90...90 (or NaN).
    package static func check(_ points: [Coordinate], maximum: Int) throws {
        if points.count > maximum { throw OSRMError(.tooBig, "\(points.count) coordinates exceed this server's limit of \(maximum)", parameter: "coordinates") }
        for (index, point) in points.enumerated() where !point.isValid {
            throw OSRMError(.invalidValue, String(format: "coordinate %d (%.6f,%.6f as lon,lat) is out of range (longitude -180..180, latitude -90..90)",
                                                  index, point.lon, point.lat))
        }
    }
}

/// The query options of one request: each name at most once, each known to the service, read by type.
package struct QueryOptions {
    private var values: [String: String] = [:]

    package init(_ pairs: [(name: String, value: String)], allowed: Set<String>, service: String) throws {
        for (name, value) in pairs {
            guard allowed.contains(name) else {
                throw OSRMError(.invalidQuery, "option '\(name)' is not known to the \(service) service (known: \(allowed.sorted().joined(separator: ", ")))")
            }
            guard values[name] == nil else { throw OSRMError(.invalidQuery, "option '\(name)' is given twice") }
            values[name] = value
        }
    }

    package subscript(name: String) -> String? { values[name] }

    package func bool(_ name: String, default value: Bool) throws -> Bool {
        guard let raw = values[name] else { return value }
        switch raw {
        case "true": return true
        case "false": return false
        default: throw OSRMError(.invalidQuery, "\(name)='\(raw)' is not true or false")
        }
    }

    package func choice(_ name: String, _ allowed: [String], default value: String) throws -> String {
        guard let raw = values[name] else { return value }
        guard allowed.contains(raw) else { throw OSRMError(.invalidQuery, "\(name)='\(raw)' is not one of \(allowed.joined(separator: ", "))") }
        return raw
    }

    package func integer(_ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let raw = values[name] else { return value }
        guard let parsed = Int(raw) else { throw OSRMError(.invalidQuery, "\(name)='\(raw)' is not an integer") }
        guard range.contains(parsed) else { throw OSRMError(.invalidValue, "\(name)=\(parsed) is outside \(range.lowerBound)...\(range.upperBound)") }
        return parsed
    }

    /// A `;`-separated per-coordinate list whose length must equal `count`; empty elements are nil.
    func perCoordinate<T>(_ name: String, count: Int, parse: (Substring) throws -> T) throws -> [T?]? {
        guard let raw = values[name] else { return nil }
        let items = raw.utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        guard items.count == count else {
            throw OSRMError(.invalidOptions, "\(name) has \(items.count) elements but there are \(count) coordinates")
        }
        return try items.map { $0.isEmpty ? nil : try parse(Substring($0)) }
    }

    /// A `;`-separated list of coordinate indices, or nil for `all` / absent.
    package func indices(_ name: String, count: Int) throws -> [Int]? {
        guard let raw = values[name], raw != "all" else { return nil }
        return try raw.split(separator: ";", omittingEmptySubsequences: false).map { item in
            guard let index = Int(item) else { throw OSRMError(.invalidQuery, "\(name): '\(item)' is not an index") }
            guard (0..<count).contains(index) else {
                throw OSRMError(.invalidOptions, "\(name): index \(index) is out of range (\(count) coordinates)")
            }
            return index
        }
    }
}

/// Options every OSRM service accepts, read and checked once.
package struct GeneralOptions {
    package static let names: Set<String> = ["bearings", "radiuses", "generate_hints", "hints", "approaches", "exclude", "snapping", "skip_waypoints"]

    package var radii: [Double?]?
    /// Per-coordinate `bearings=value,range` (nil entries where empty).
    package var bearings: [BearingFilter?]?
    /// Per-coordinate `approaches=curb|unrestricted` (nil entries where empty).
    package var approaches: [Approach?]?
    /// `continue_straight=true|false`; nil for `default` or absent (the profile decides). Only `/route` allows the name.
    package var continueStraight: Bool?
    package var exclude: AvoidSet = []
    var skipWaypoints = false

    /// `unlimited` radius, in metres.
    static let unlimitedRadius = 50_000.0

    /// The `language` option (a Mapbox extension; navgraph also names `/nearest` and `/table` waypoints in it):
    /// a BCP-47-like tag, nil when not given.
    package static func language(_ options: QueryOptions) throws -> String? {
        guard let language = options["language"] else { return nil }
        guard !language.isEmpty, language.count <= 35,
              language.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw OSRMError(.invalidValue, "language='\(language)' is not a language tag such as en or de-CH")
        }
        return language
    }

    package init(_ options: QueryOptions, coordinateCount count: Int) throws {
        radii = try options.perCoordinate("radiuses", count: count) { item -> Double in
            if item == "unlimited" { return Self.unlimitedRadius }
            guard let value = Double(item) else { throw OSRMError(.invalidQuery, "radiuses: '\(item)' is not a number or unlimited") }
            guard value >= 0, value.isFinite else { throw OSRMError(.invalidValue, "radiuses: \(item) is not >= 0") }
            return min(value, Self.unlimitedRadius)
        }
        bearings = try options.perCoordinate("bearings", count: count) { item -> BearingFilter in
            guard let filter = BearingFilter(text: item) else { throw OSRMError(.invalidQuery, "bearings: '\(item)' is not {value},{range}") }
            guard filter.isInRange else { throw OSRMError(.invalidValue, "bearings: '\(item)' is out of range") }
            return filter
        }
        _ = try options.perCoordinate("hints", count: count) { $0 }
        approaches = try options.perCoordinate("approaches", count: count) { item -> Approach in
            guard let approach = Approach(rawValue: String(item)) else { throw OSRMError(.invalidQuery, "approaches: '\(item)' is not curb or unrestricted") }
            return approach
        }
        switch try options.choice("continue_straight", ["default", "true", "false"], default: "default") {
        case "true": continueStraight = true
        case "false": continueStraight = false
        default: continueStraight = nil
        }
        _ = try options.bool("generate_hints", default: true)
        _ = try options.choice("snapping", ["default", "any"], default: "default")
        skipWaypoints = try options.bool("skip_waypoints", default: false)
        if let raw = options["exclude"] {
            for item in raw.split(separator: ",", omittingEmptySubsequences: false) {
                switch item {
                case "toll": exclude.insert(.toll)
                case "ferry": exclude.insert(.ferry)
                case "motorway": exclude.insert(.highway)
                default: throw OSRMError(.invalidValue, "exclude: '\(item)' is not a class (toll, ferry, motorway, in any combination)")
                }
            }
        }
    }
}
