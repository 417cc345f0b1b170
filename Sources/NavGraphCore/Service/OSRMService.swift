import Foundation

/// The OSRM v5 HTTP API without sockets, the engine's own request language: `handle(_:)` turns one request
/// (`/route`, `/table`, `/nearest`, `/match`, `/trip`, `/isochrone`, `/geojson`, `/style`, `/health`,
/// `POST /traffic`) into one response. `NavGraphServer` puts it behind libmicrohttpd with the other dialects;
/// the Python package and apps call it in process.
///
/// Lifetime: one per served graph. Thread safety: Sendable; each call checks a Router (search state) out of a
/// locked pool and returns it, the engine and its metric cache are shared, traffic swaps are atomic.
public final class OSRMService: Sendable {
    public let engine: RoutingEngine
    public let limits: ServiceLimits
    public let traffic = LiveTraffic()
    /// The default profile's routers (its `created` count is a /metrics gauge).
    package let pool: RouterPool
    /// Router pools of the other profiles, made on first request.
    let pools: ProfilePools
    private let started = Date()

    /// Snapping radius when a request gives none (OSRM's default is unlimited).
    public static let defaultRadius = 5_000.0

    public init(engine: RoutingEngine, limits: ServiceLimits = ServiceLimits()) {
        self.engine = engine
        self.limits = limits
        pool = RouterPool(engine: engine)
        pools = ProfilePools(default: pool, engine: engine)
    }

    /// Answers one request of the OSRM API; an error is OSRM's JSON error with its HTTP status.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        do {
            return try respond(request)
        } catch let error as OSRMError {
            return error.response
        } catch let error as NavGraphError {
            return OSRMError(error).response
        } catch {
            return OSRMError(.invalidValue, "\(error)").response
        }
    }

    /// Answers one request of the OSRM API, throwing its error for the caller's dialect to write.
    package func respond(_ request: HTTPRequest) throws -> HTTPResponse {
        let start = DispatchTime.now()
        switch (request.method, request.path) {
        case ("GET", "/health"), ("HEAD", "/health"): return health()
        case ("POST", "/traffic"): return try postTraffic(request)
        case (_, "/traffic"): throw OSRMError(.invalidUrl, "\(request.method) /traffic: traffic is loaded with POST")
        default: break
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            throw OSRMError(.invalidUrl, "method \(request.method) is not supported on \(request.path) (use GET)")
        }
        let serviceName = request.path.firstPathComponent
        let maximum = ["table": limits.maximumTableSize, "match": limits.maximumMatchingSize, "trip": limits.maximumTripSize][serviceName]
            ?? limits.maximumCoordinates
        let url = try OSRMURL(path: request.path, maximumCoordinates: maximum)
        return try pools.pool(for: url.profileID).with { router in try answer(url, request, router: router, start: start) }
    }

    /// The router pool of a profile (made on its first request).
    package func routerPool(for profile: ProfileID) throws -> RouterPool { try pools.pool(for: profile) }

    private func answer(_ url: OSRMURL, _ request: HTTPRequest, router: Router, start: DispatchTime) throws -> HTTPResponse {
        switch url.service {
        case "table":
            let query = try QueryOptions(request.query, allowed: TableEndpoint.options, service: "table")
            let deadline = start + .nanoseconds(Int(limits.requestSeconds * 1e9))
            return .json(try TableEndpoint.answer(url, query, router: router, traffic: router.graph.profile.roadSet == .motor ? traffic.snapshot?.current : nil, limits: limits, deadline: deadline))
        case "isochrone":
            let query = try QueryOptions(request.query, allowed: IsochroneEndpoint.options, service: "isochrone")
            let departure = try query["depart_at"].map(RouteEndpoint.Parameters.departure)
            return try IsochroneEndpoint.answer(url, query, router: router, traffic: trafficSnapshot(query)?.overlay(departure: departure))
        case "nearest":
            let query = try QueryOptions(request.query, allowed: NearestEndpoint.options, service: "nearest")
            return .json(try NearestEndpoint.answer(url, query, router: router, limits: limits))
        case "match":
            let query = try QueryOptions(request.query, allowed: MatchEndpoint.options, service: "match")
            return .json(try matching(MatchEndpoint.request(url, query, limits: limits), router: router).osrmBytes)
        case "trip":
            let query = try QueryOptions(request.query, allowed: TripEndpoint.options, service: "trip")
            return .json(try trip(TripEndpoint.request(url, query, limits: limits), router: router))
        case "route":
            let query = try QueryOptions(request.query, allowed: RouteEndpoint.options, service: "route")
            let parameters = try RouteEndpoint.Parameters(query, coordinateCount: url.coordinates.count, maximumAlternatives: limits.maximumAlternatives,
                                                          profile: url.profileID)
            let request = DirectionsRequest(url: url, parameters: parameters, usesTraffic: try query.bool("traffic", default: true))
            let result = try directions(request, router: router)
            return .json(RouteEndpoint.bytes(result.response, parameters, uuid: result.uuid, shape: result.shape))
        default:
            // geojson and style: the route drawn by the output layer.
            let query = try QueryOptions(request.query, allowed: RouteEndpoint.options.union(["theme", "position", "units"]), service: url.service)
            let parameters = try RouteEndpoint.Parameters(query, coordinateCount: url.coordinates.count, maximumAlternatives: limits.maximumAlternatives,
                                                          profile: url.profileID)
            var output = OutputOptions()
            output.prettyPrinted = false
            if let theme = query["theme"] {
                do { output.theme = try RouteTheme(json: Data(theme.utf8)) } catch {
                    throw OSRMError(.invalidValue, "theme: not a theme JSON object (\(error))")
                }
            }
            if let position = query["position"] {
                guard let point = try? OSRMURL.parseCoordinates(position, maximum: 1).first else {
                    throw OSRMError(.invalidValue, "position='\(position)' is not {longitude},{latitude}")
                }
                output.position = point
            }
            output.units = DistanceUnits(rawValue: try query.choice("units", DistanceUnits.allCases.map(\.rawValue), default: "metric")) ?? .metric
            let overlay = try trafficSnapshot(query, router: router)?.overlay(departure: parameters.departure)
            let response = try RouteEndpoint.route(url, parameters, router: router, traffic: overlay)
            let body = url.service == "style" ? MapLibreStyle.make(response, output) : RouteGeoJSON.make(response, output)
            return HTTPResponse(status: 200, contentType: url.service == "style" ? "application/json; charset=utf-8" : "application/geo+json", body: body)
        }
    }

    /// The cells of `/table` for an OSRM-style target (`/table/v1/driving/lon,lat;...?annotations=...`), without
    /// JSON or the size and time limits, for in-process bindings; `skipUnsnappable` leaves points no road is near
    /// unreachable instead of failing. Returns the matrix and whether each coordinate snapped.
    public func table(target: String, skipUnsnappable: Bool = false) throws -> (matrix: TravelMatrix, snapped: [Bool]) {
        let request = HTTPRequest(method: "GET", target: target)
        do {
            let url = try OSRMURL(path: request.path, maximumCoordinates: Int.max)
            guard url.service == "table" else { throw OSRMError(.invalidService, "'\(url.service)' is not table") }
            let query = try QueryOptions(request.query, allowed: TableEndpoint.options, service: "table")
            var unlimited = limits
            unlimited.maximumTableSize = Int.max
            return try pools.pool(for: url.profileID).with { router in
                let table = try TableEndpoint.compute(url, query, router: router, traffic: router.graph.profile.roadSet == .motor ? traffic.snapshot?.current : nil,
                                                      limits: unlimited, skipUnsnappable: skipUnsnappable)
                return (table.matrix, url.coordinates.indices.map { table.snaps[$0] != nil })
            }
        } catch let error as NavGraphError {
            throw OSRMError(error)
        }
    }

    private func postTraffic(_ request: HTTPRequest) throws -> HTTPResponse {
        if request.bodyTooBig {
            throw OSRMError(.tooBig, "the traffic body exceeds this server's limit of \(limits.maximumBodyBytes) bytes")
        }
        guard !request.body.isEmpty else { throw OSRMError(.invalidValue, "POST /traffic needs a CSV body (the navgraph traffic format)") }
        let report = try traffic.load(csv: request.body, engine: engine)
        return .json(.object([
            ("code", .string("Ok")),
            ("generation", .number(Double(report.generation))),
            ("segment_rows", .number(Double(report.segmentRows))),
            ("unknown_pairs", .number(Double(report.unknownPairs))),
            ("segments_with_traffic", .number(Double(report.segmentsWithTraffic))),
            ("read_ms", .number(report.readSeconds * 1000, decimals: 1)),
            ("customization_ms", .number(report.customizationSeconds * 1000, decimals: 1)),
        ]))
    }

    private func health() -> HTTPResponse {
        let graph = engine.graph
        let snapshot = traffic.snapshot
        return .json(.object([
            ("status", .string("ok")),
            ("graph", .string(graph.file.path)),
            ("routing_nodes", .number(Double(graph.routingNodeCount))),
            ("traffic", snapshot.map { .string($0.label) } ?? .null),
            ("traffic_generation", .number(Double(snapshot?.current.generation ?? 0))),
            ("uptime_s", .number(Date().timeIntervalSince(started), decimals: 1)),
        ]))
    }
}

/// Routers (one query context each) checked out per request; at most one per concurrent request is ever made.
/// Thread safety: the free list is behind a lock; a checked-out router belongs to one thread until returned.
package final class RouterPool: @unchecked Sendable {
    private let engine: RoutingEngine
    private let lock = NSLock()
    private var free: [Router] = []
    private var createdCount = 0
    /// Routers made so far (read under the lock: /metrics asks while other requests make routers).
    package var created: Int { lock.withLock { createdCount } }

    package init(engine: RoutingEngine) { self.engine = engine }

    package func with<T>(_ body: (Router) throws -> T) rethrows -> T {
        let router = lock.withLock { () -> Router? in free.popLast() } ?? makeRouter()
        defer { lock.withLock { free.append(router) } }
        return try body(router)
    }

    private func makeRouter() -> Router {
        lock.withLock { createdCount += 1 }
        return Router(engine: engine)
    }
}

/// One router pool per profile the graph file holds, made on the first request for a profile. Thread safety: the
/// table is behind a lock.
final class ProfilePools: @unchecked Sendable {
    private let lock = NSLock()
    private let engine: RoutingEngine
    private var pools: [ProfileID: RouterPool]

    package init(default pool: RouterPool, engine: RoutingEngine) {
        self.engine = engine
        pools = [engine.profile: pool]
    }

    package func pool(for profile: ProfileID) throws -> RouterPool {
        try lock.withLock {
            if let pool = pools[profile] { return pool }
            let graph = try RoutingGraph(file: engine.graph.file, profile: profile)
            let pool = RouterPool(engine: RoutingEngine(graph: graph))
            pools[profile] = pool
            return pool
        }
    }
}

extension String {
    /// The first non-empty `/`-separated component (`split(separator: "/").first`, or ""), found without splitting
    /// the rest of the path (its coordinates) into Strings.
    package var firstPathComponent: String {
        String(drop { $0 == "/" }.prefix { $0 != "/" })
    }
}
