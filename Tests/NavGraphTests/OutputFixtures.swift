import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Synthetic routes near Berlin for the output tests, plus helpers to read the JSON back.
enum OutputFixtures {
    static let lat = 52.5

    /// A leg along `coords`, 10 m/s with traffic and 12 m/s free flow, one congestion value per segment.
    static func leg(_ coords: [Coordinate], congestion: [Int?], ferry: Set<Int> = [], toll: Set<Int> = [], summary: String = "") -> RouteLeg {
        let annotations = zip(coords, coords.dropFirst()).enumerated().map { i, pair in
            let d = Geo.haversine(pair.0, pair.1)
            return SegmentAnnotation(distance: d, duration: d / 10, durationTypical: d / 12,
                                     congestionNumeric: i < congestion.count ? congestion[i] : nil,
                                     roadClass: ferry.contains(i) ? .ferry : .secondary,
                                     isToll: toll.contains(i), isFerry: ferry.contains(i), edge: i)
        }
        return RouteLeg(coordinates: coords, annotations: annotations,
                        distance: annotations.reduce(0) { $0 + $1.distance },
                        duration: annotations.reduce(0) { $0 + $1.duration },
                        durationTypical: annotations.reduce(0) { $0 + $1.durationTypical },
                        summary: summary, directedEdges: [])
    }

    static func east(_ lons: [Double], lat: Double = lat) -> [Coordinate] { lons.map { Coordinate(lat: lat, lon: $0) } }

    /// Three waypoints on an east-west road (A 13.400, B 13.404, C 13.409) and one alternative that
    /// detours north of the road on leg 0 and shares leg 1.
    static func response() -> RouteResponse {
        let leg0 = leg(east([13.400, 13.401, 13.402, 13.403, 13.404]), congestion: [10, 20, 50, 90], summary: "Unter den Linden")
        let leg1 = leg(east([13.404, 13.405, 13.406, 13.407, 13.408, 13.409]), congestion: [nil, nil, 70, 70, 30],
                       ferry: [4], toll: [2], summary: "Spree ferry")
        let detour = [Coordinate(lat: lat, lon: 13.400), Coordinate(lat: 52.502, lon: 13.401), Coordinate(lat: 52.502, lon: 13.402),
                      Coordinate(lat: 52.502, lon: 13.403), Coordinate(lat: lat, lon: 13.404)]
        let primary = Route(legs: [leg0, leg1], isAlternate: false, avoided: ["toll"], usedAvoidedClasses: ["toll"])
        let alternate = Route(legs: [leg(detour, congestion: [30, 30, 30, 30]), leg1], isAlternate: true, avoided: ["toll"],
                              usedAvoidedClasses: [], divergeCoordinate: detour[0], mergeCoordinate: detour[4])
        let waypoints = [13.400, 13.404, 13.409].enumerated().map { i, lon in
            RouteWaypoint(input: Coordinate(lat: lat + 0.0001, lon: lon), snapped: Coordinate(lat: lat, lon: lon),
                          snapDistance: 11.1, roadName: "Road \(i)", label: nil)
        }
        return RouteResponse(waypoints: waypoints, routes: [primary, alternate])
    }

    static func object(_ data: Data) throws -> [String: Any] {
        let parsed = try JSONSerialization.jsonObject(with: data)
        guard let object = parsed as? [String: Any] else { throw NavGraphError("not a JSON object") }
        return object
    }

    static func features(_ collection: [String: Any]) -> [[String: Any]] {
        collection["features"] as? [[String: Any]] ?? []
    }

    static func properties(_ feature: [String: Any]) -> [String: Any] { feature["properties"] as? [String: Any] ?? [:] }

    static func featureType(_ feature: [String: Any]) -> String? { properties(feature)["featureType"] as? String }

    /// LineString or Point coordinates as Coordinates (GeoJSON order is lon, lat).
    static func coordinates(_ feature: [String: Any]) -> [Coordinate] {
        guard let geometry = feature["geometry"] as? [String: Any] else { return [] }
        let raw: [[Double]] = (geometry["coordinates"] as? [[Double]]) ?? ((geometry["coordinates"] as? [Double]).map { [$0] } ?? [])
        return raw.compactMap { $0.count == 2 ? Coordinate(lat: $0[1], lon: $0[0]) : nil }
    }

    static func rounded(_ c: Coordinate) -> Coordinate {
        Coordinate(lat: (c.lat * 1e6).rounded() / 1e6, lon: (c.lon * 1e6).rounded() / 1e6)
    }

    /// Joins line pieces that share their end points, dropping each repeated joint.
    static func concatenate(_ lines: [[Coordinate]]) -> [Coordinate] {
        lines.reduce(into: []) { all, line in all += all.isEmpty ? line[...] : line.dropFirst() }
    }

    static func bool(_ value: Any?) -> Bool? {
        guard let n = value as? NSNumber, String(cString: n.objCType) == "c" else { return nil }
        return n.boolValue
    }
}
