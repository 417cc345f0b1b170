import Foundation

/// One route request in the shared model, whatever API dialect it came in (OSRM `/route/v1`, Mapbox
/// `/directions/v5`, NextBillion `/navigation/json` and `/directions/json`): each dialect only translates its URL or
/// form into this and writes the pipeline's Directions JSON in its own shape.
package struct DirectionsRequest {
    /// Service, profile and coordinates (in the OSRM form every dialect is translated to).
    package var url: OSRMURL
    /// The checked options: avoidance, alternatives, steps, annotations, geometry, vehicle, language, departure ...
    package var parameters: RouteEndpoint.Parameters
    /// Route with the live traffic when the server has some; false routes on free flow.
    package var usesTraffic = true
    /// Keep the routes for `/directions-refresh/v1` under the response's uuid.
    package var enableRefresh = false
    /// Annotations only a dialect's writer adds (Mapbox's `closure`, `traffic_tendency`), which refreshes repeat.
    package var dialectAnnotations: Set<String> = []

    package init(url: OSRMURL, parameters: RouteEndpoint.Parameters, usesTraffic: Bool = true, enableRefresh: Bool = false,
                 dialectAnnotations: Set<String> = []) {
        self.url = url
        self.parameters = parameters
        self.usesTraffic = usesTraffic
        self.enableRefresh = enableRefresh
        self.dialectAnnotations = dialectAnnotations
    }
}

extension OSRMURL {
    /// A route request's URL made by a dialect translator rather than parsed from an OSRM path.
    package init(service: String, profile: String, profileID: ProfileID, coordinates: [Coordinate]) {
        self.service = service
        self.version = "v1"
        self.profile = profile
        self.profileID = profileID
        self.coordinates = coordinates
    }
}

/// What the shared route pipeline hands a dialect's writer: the routes, the response's id, the body's shape as the
/// request asks for it (a dialect adjusts it), and the paths a route refresh rebuilds.
package struct DirectionsResult {
    package var response: RouteResponse
    package var uuid: String
    package var shape: DirectionsShape
    package var paths: [[Router.LegPath]]
}

extension OSRMService {
    /// The route pipeline every dialect shares: the traffic in force (or free flow), the route with alternatives and
    /// steps, and the shape of the Directions body (OSRM/Mapbox) the dialect's writer starts from; `paths` are what a
    /// route refresh needs to rebuild the routes' annotations later.
    package func directions(_ request: DirectionsRequest, router: Router) throws -> DirectionsResult {
        let snapshot = request.usesTraffic && router.graph.profile.roadSet == .motor ? traffic.snapshot : nil
        let overlay = snapshot?.overlay(departure: request.parameters.departure)
        let (response, paths) = try RouteEndpoint.routeWithPaths(request.url, request.parameters, router: router, traffic: overlay)
        return DirectionsResult(response: response, uuid: ResponseID.make(), shape: RouteEndpoint.shape(request.parameters),
                                paths: paths)
    }
}

extension JSON {
    /// Adds a member at the end of an object (replacing one of the same key).
    package mutating func append(_ key: String, _ value: JSON) {
        guard case .object(var members) = self else { return }
        members.removeAll { $0.0 == key }
        members.append((key, value))
        self = .object(members)
    }

    /// The elements of an array member, empty when absent.
    package func elements(_ key: String) -> [JSON] {
        guard case .array(let items)? = member(key) else { return [] }
        return items
    }

    /// A number member's value.
    package func double(_ key: String) -> Double? {
        guard case .number(let value)? = member(key) else { return nil }
        return value
    }

    /// A string member's value.
    package func string(_ key: String) -> String? {
        guard case .string(let value)? = member(key) else { return nil }
        return value
    }
}

