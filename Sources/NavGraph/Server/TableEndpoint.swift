import Foundation

/// `/table/v1`: durations (and distances) between sources and destinations, in OSRM's shape.
struct TableEndpoint {
    static let options: Set<String> = GeneralOptions.names.union(["sources", "destinations", "annotations", "fallback_speed", "scale_factor"])

    static func answer(_ url: OSRMURL, _ query: QueryOptions, router: Router, traffic: TrafficOverlay?,
                       limits: ServiceLimits, deadline: DispatchTime) throws -> JSON {
        let count = url.coordinates.count
        if count > limits.maximumTableSize {
            throw OSRMError(.tooBig, "\(count) table coordinates exceed this server's limit of \(limits.maximumTableSize)")
        }
        let general = try GeneralOptions(query, coordinateCount: count)
        let sources = try query.indices("sources", count: count) ?? Array(0..<count)
        let destinations = try query.indices("destinations", count: count) ?? Array(0..<count)
        var wantDurations = true, wantDistances = false
        if let raw = query["annotations"] {
            wantDurations = false
            for item in raw.split(separator: ",", omittingEmptySubsequences: false) {
                switch item {
                case "duration": wantDurations = true
                case "distance": wantDistances = true
                default: throw OSRMError(.invalidQuery, "annotations: '\(item)' is not duration or distance")
                }
            }
        }
        if query["fallback_speed"] != nil || query["scale_factor"] != nil {
            throw OSRMError(.invalidOptions, "fallback_speed and scale_factor are not supported by this server")
        }
        let metric = router.metric(avoid: general.exclude, mode: .strict, traffic: traffic)
        var options = RouteOptions()
        options.radius = RoutingService.defaultRadius
        options.radii = general.radii
        options.avoid = general.exclude
        let used = Array(Set(sources + destinations)).sorted()
        var snaps: [Int: Snap] = [:]
        do {
            for index in used { snaps[index] = try router.snap(url.coordinates[index], index: index, options: options, metric: metric) }
        } catch let error as NavGraphError {
            throw OSRMError(error)
        }
        let matrix = try TableComputation.pairwise(router: router, sources: sources.compactMap { snaps[$0] },
                                                   destinations: destinations.compactMap { snaps[$0] }, metric: metric, deadline: deadline)
        func waypoint(_ index: Int) -> JSON {
            guard let snap = snaps[index] else { return .null }
            return .object([
                ("name", .string(router.graph.string(router.graph.edgeName[snap.edge]))),
                ("location", JSON.position(snap.point)),
                ("distance", .measure(snap.distance)),
            ])
        }
        func rows(_ values: [[Double?]]) -> JSON {
            .array(values.map { .array($0.map { $0.map { .number($0, decimals: 1) } ?? .null }) })
        }
        var members: [(String, JSON)] = [("code", .string("Ok"))]
        if wantDurations { members.append(("durations", rows(matrix.durations))) }
        if wantDistances { members.append(("distances", rows(matrix.distances))) }
        if !general.skipWaypoints {
            members.append(("sources", .array(sources.map(waypoint))))
            members.append(("destinations", .array(destinations.map(waypoint))))
        }
        return .object(members)
    }
}

/// Many-to-many travel times and distances. This is the one place the table service computes them, so a
/// dedicated matrix engine can replace the pairwise routing below.
public enum TableComputation {
    /// Seconds and metres for each source × destination pair (nil where unreachable), routed pair by pair with
    /// the router's hierarchy search; legs are built exactly as `/route` builds them, so both agree.
    public static func pairwise(router: Router, sources: [Snap], destinations: [Snap], metric: RoutingMetric,
                                deadline: DispatchTime) throws -> (durations: [[Double?]], distances: [[Double?]]) {
        var durations = [[Double?]](repeating: [Double?](repeating: nil, count: destinations.count), count: sources.count)
        var distances = durations
        for (row, source) in sources.enumerated() {
            if DispatchTime.now() > deadline {
                throw OSRMError(.tooBig, "the table took longer than this server's time limit after \(row) of \(sources.count) rows; ask for fewer coordinates")
            }
            for (column, destination) in destinations.enumerated() {
                guard let path = router.legPath(from: source, to: destination, metric: metric, algorithm: .hierarchy) else { continue }
                let leg = router.buildLeg(path, metric: metric)
                durations[row][column] = leg.duration
                distances[row][column] = leg.distance
            }
        }
        return (durations, distances)
    }
}
