import Dispatch
import Foundation
import NavGraphCore

/// The API `navgraph serve` answers, without sockets: access tokens, metrics, the Mapbox (Directions, Matching,
/// route refresh) and NextBillion dialects and the map page, in front of the core's OSRM service. `HTTPServer`
/// calls `handle(_:)` from its worker threads; tests call it directly.
///
/// Lifetime: one per served graph. Thread safety: Sendable; the OSRM service pools its routers, the metrics and the
/// refresh cache are behind locks.
public final class RoutingService: Sendable {
    /// The OSRM v5 API and the shared route pipeline.
    public let osrm: OSRMService
    public let metrics = ServerMetrics()
    /// With `--access-tokens`: the tokens every API endpoint requires; nil accepts any token or none.
    public let accessTokens: AccessTokens?
    /// Routes issued with `enable_refresh=true`, for `/directions-refresh/v1`.
    package let refreshCache: RouteRefreshCache
    /// The route planner page (`/`, `/roads/v1`, `/info` ...); nil serves the API alone.
    public let mapPage: MapPage?

    public var engine: RoutingEngine { osrm.engine }
    public var limits: ServiceLimits { osrm.limits }
    public var traffic: LiveTraffic { osrm.traffic }

    /// Endpoints counted in the metrics; other paths count as `other`.
    package static let endpoints: Set<String> = ["route", "table", "nearest", "isochrone", "geojson", "style", "traffic", "health", "metrics",
                                         "directions", "directions-refresh", "navigation", "distancematrix",
                                         "match", "trip", "matching", "snapToRoads"]
    /// Paths that need no access token: liveness, and the map page's static files (the page passes its own token on).
    package static func isOpen(_ path: String) -> Bool {
        path == "/health" || path == "/" || path == "/index.html" || path.hasPrefix("/web/") || path.hasPrefix("/assets/") || path.hasPrefix("/fonts/")
    }

    public init(engine: RoutingEngine, limits: ServiceLimits = ServiceLimits(), mapPage: MapPage? = nil, accessTokens: AccessTokens? = nil) {
        osrm = OSRMService(engine: engine, limits: limits)
        self.mapPage = mapPage
        self.accessTokens = accessTokens
        refreshCache = RouteRefreshCache(capacity: limits.maximumRefreshableResponses, maximumAge: limits.refreshSeconds)
    }

    /// Answers one request and records it in the metrics.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let start = DispatchTime.now()
        let response = respond(request)
        var first = request.path.firstPathComponent
        if first.hasSuffix("json"), request.path.hasSuffix("/json") { first = String(request.path.dropFirst().prefix { $0 != "/" }) }
        let endpoint = Self.endpoints.contains(first) ? first : "other"
        metrics.record(endpoint: endpoint, status: response.status, seconds: Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
        return response
    }

    private func respond(_ incoming: HTTPRequest) -> HTTPResponse {
        let failure: (OSRMError) -> HTTPResponse
        if MapboxDirectionsAPI.matches(incoming.path) || RouteRefreshAPI.matches(incoming.path) || MapboxMatchingAPI.matches(incoming.path) {
            failure = MapboxDirectionsAPI.failure
        } else if NextBillionAPI.matches(incoming.path) || NextBillionSnapAPI.matches(incoming.path) {
            failure = NextBillionAPI.failure
        } else {
            failure = { error in error.response }
        }
        var request = incoming
        do {
            // Tokens are the transport's concern: checked here, then dropped so no dialect sees them.
            if let accessTokens, !Self.isOpen(request.path) { try accessTokens.check(request.query) }
            request.query.removeAll { AccessTokens.parameterNames.contains($0.name) }
            if MapboxDirectionsAPI.matches(request.path) {
                let mapbox = try MapboxDirectionsAPI.parse(request, limits: limits)
                let result = try routerPool(for: mapbox.directions.url.profileID).with { router in
                    try directions(mapbox.directions, router: router)
                }
                return .json(MapboxDirectionsAPI.body(result, mapbox))
            }
            if RouteRefreshAPI.matches(request.path) { return try RouteRefreshAPI.answer(request, service: self) }
            if NextBillionAPI.matches(request.path) { return try NextBillionAPI.answer(request, service: self) }
            if MapboxMatchingAPI.matches(request.path) { return try MapboxMatchingAPI.answer(request, service: self) }
            if NextBillionSnapAPI.matches(request.path) { return try NextBillionSnapAPI.answer(request, service: self) }
            if request.method == "GET", request.path == "/metrics" {
                return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4", body: Data(metricsText().utf8))
            }
            if let page = mapPage?.answer(request, service: self) { return page }
            return try osrm.respond(request)
        } catch let error as OSRMError {
            return failure(error)
        } catch let error as NavGraphError {
            return failure(OSRMError(error))
        } catch {
            return failure(OSRMError(.invalidValue, "\(error)"))
        }
    }

    /// The router pool of a profile (made on its first request).
    package func routerPool(for profile: ProfileID) throws -> RouterPool { try osrm.routerPool(for: profile) }

    /// The shared route pipeline (`OSRMService.directions`); with `enableRefresh` the routes are kept for
    /// `/directions-refresh/v1` under the response's uuid and the body says for how long (`refresh_ttl`).
    package func directions(_ request: DirectionsRequest, router: Router) throws -> DirectionsResult {
        var result = try osrm.directions(request, router: router)
        if request.enableRefresh {
            refreshCache.insert(result.uuid, RefreshableRoutes(profile: request.url.profileID, parameters: request.parameters,
                                                               usesTraffic: request.usesTraffic, dialectAnnotations: request.dialectAnnotations,
                                                               routes: result.paths, issued: Date()))
            result.shape.refreshTTL = refreshCache.maximumAge.rounded(.down)
        }
        return result
    }

    /// Map matching through the core's pipeline.
    package func matching(_ request: MatchRequest, router: Router) throws -> MatchAnswer { try osrm.matching(request, router: router) }

    /// The cells of `/table` for an OSRM-style target, for in-process callers (see `OSRMService.table`).
    public func table(target: String, skipUnsnappable: Bool = false) throws -> (matrix: TravelMatrix, snapped: [Bool]) {
        try osrm.table(target: target, skipUnsnappable: skipUnsnappable)
    }

    /// The Prometheus text of `/metrics`.
    public func metricsText() -> String {
        metrics.text(gauges: [
            ("navgraph_traffic_generation", "Id of the traffic overlay in force (0 = free flow).", Double(traffic.snapshot?.current.generation ?? 0)),
            ("navgraph_cached_metrics", "Customized metrics in the engine's cache.", Double(engine.cachedMetricCount)),
            ("navgraph_query_contexts", "Per-thread query contexts created.", Double(osrm.pool.created)),
            ("navgraph_refreshable_responses", "Responses kept for /directions-refresh.", Double(refreshCache.count)),
        ])
    }
}
