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
        let sourceSnaps = sources.compactMap { snaps[$0] }, destinationSnaps = destinations.compactMap { snaps[$0] }
        let matrix = wantDistances
            ? try TableComputation.pairwise(router: router, sources: sourceSnaps, destinations: destinationSnaps, metric: metric, deadline: deadline)
            : (durations: TableComputation.durations(router: router, sources: sourceSnaps, destinations: destinationSnaps, metric: metric), distances: [])
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
    /// Seconds for each source × destination pair (nil where unreachable) by hierarchy buckets; pairs on one
    /// road edge go through the point-to-point rules. Equal to `pairwise`'s durations.
    public static func durations(router: Router, sources: [Snap], destinations: [Snap], metric: RoutingMetric) -> [[Double?]] {
        var table = BucketTable(graph: router.graph, metric: metric)
        var costs = table.costs(sources: sources, destinations: destinations, costs: router.costs)
        for (row, source) in sources.enumerated() {
            for (column, destination) in destinations.enumerated() where destination.edge == source.edge {
                costs[row][column] = router.legPath(from: source, to: destination, metric: metric, algorithm: .hierarchy)?.cost
            }
        }
        return costs.map { $0.map { $0.map { Double($0) / 1000 } } }
    }

    /// Seconds and metres for each source × destination pair (nil where unreachable), routed pair by pair with
    /// the router's hierarchy search. Durations are the search cost (whole milliseconds per road edge, so they
    /// can differ from `/route`'s per-segment sum by a few milliseconds, as OSRM's table and route do);
    /// distances are the path's edge lengths, trimmed at the snapped ends.
    public static func pairwise(router: Router, sources: [Snap], destinations: [Snap], metric: RoutingMetric,
                                deadline: DispatchTime) throws -> (durations: [[Double?]], distances: [[Double?]]) {
        var durations = [[Double?]](repeating: [Double?](repeating: nil, count: destinations.count), count: sources.count)
        var distances = durations
        let planner = RoutePlanner(graph: router.graph, costs: router.costs)
        for (row, source) in sources.enumerated() {
            if DispatchTime.now() > deadline {
                throw OSRMError(.tooBig, "the table took longer than this server's time limit after \(row) of \(sources.count) rows; ask for fewer coordinates")
            }
            for (column, destination) in destinations.enumerated() {
                guard let path = router.legPath(from: source, to: destination, metric: metric, algorithm: .hierarchy) else { continue }
                durations[row][column] = Double(path.cost) / 1000
                distances[row][column] = length(of: path, graph: router.graph, planner: planner)
            }
        }
        return (durations, distances)
    }

    /// Metres driven along a leg path: whole edges in the middle, partial ones at the snapped ends.
    static func length(of path: Router.LegPath, graph: RoutingGraph, planner: RoutePlanner) -> Double {
        guard let first = path.nodes.first, let last = path.nodes.last else { return 0 }
        if path.nodes.count == 1 {
            let d = Int(graph.routingEdge[first])
            return max(0, planner.position(of: path.target, onDirectedEdge: d) - planner.position(of: path.source, onDirectedEdge: d))
        }
        let start = Int(graph.routingEdge[first]), end = Int(graph.routingEdge[last])
        var metres = graph.edgeLength[start >> 1] - planner.position(of: path.source, onDirectedEdge: start)
        for node in path.nodes.dropFirst().dropLast() { metres += graph.edgeLength[Int(graph.routingEdge[node]) >> 1] }
        return metres + planner.position(of: path.target, onDirectedEdge: end)
    }
}
