import Foundation
import NavGraphCore

/// The Mapbox Map Matching API v5 dialect: `GET /matching/v5/{owner}/{profile}/{coordinates}[.json]` and `POST
/// /matching/v5/{owner}/{profile}` with a form body, translated into the shared `MatchRequest`; the body is the OSRM
/// match response (the same shape), errors as `MapboxDirectionsAPI.failure` (`NoMatch` is 200, as Mapbox answers).
package enum MapboxMatchingAPI {
    /// Parameters Mapbox defines for matching that navgraph accepts and does not act on.
    package static let acceptedUnused: Set<String> = ["ignore", "waypoint_names", "roundabout_exits"]

    /// Whether the path belongs to this dialect.
    package static func matches(_ path: String) -> Bool { path.hasPrefix("/matching/v5/") }

    /// Translates, matches and writes one request.
    package static func answer(_ request: HTTPRequest, service: RoutingService) throws -> HTTPResponse {
        let (parts, pairs, coordinateText) = try MapboxDirectionsAPI.split(request, service: "matching")
        let profileName = parts[4]
        guard let (profile, traffic) = MapboxDirectionsAPI.profiles[profileName] else {
            throw OSRMError(.invalidValue, "profile '\(parts[3])/\(profileName)' is not served (use \(MapboxDirectionsAPI.profiles.keys.sorted().joined(separator: ", ")))",
                            parameter: "profile")
        }
        let coordinates = try OSRMURL.parseCoordinates(coordinateText, maximum: service.limits.maximumMatchingSize)
        let query = try QueryOptions(pairs.filter { !acceptedUnused.contains($0.name) }, allowed: MatchEndpoint.options.subtracting(["traffic"]),
                                     service: "matching")
        let url = OSRMURL(service: "match", profile: profileName, profileID: profile, coordinates: coordinates)
        var match = try MatchEndpoint.request(url, query, limits: service.limits)
        match.usesTraffic = traffic
        let answer = try service.routerPool(for: profile).with { router in try service.matching(match, router: router) }
        return .json(answer.osrmBytes)
    }
}
