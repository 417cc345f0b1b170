import Foundation

/// `/table/v1`: durations (and distances) between sources and destinations, in OSRM's shape, from the CCH
/// many-to-many engine (`BucketManyToMany`, the one `navgraph matrix` uses).
package struct TableEndpoint {
    package static let options: Set<String> = GeneralOptions.names.union(["sources", "destinations", "annotations", "fallback_speed", "scale_factor", "language"])
        .union(VehicleQuery.names)

    /// A computed table and what its JSON reports besides the cells.
    struct Computed {
        package let matrix: TravelMatrix
        /// The snap of each coordinate index in use (missing: unsnappable and skipped).
        package let snaps: [Int: Snap]
        package let sources: [Int], destinations: [Int]
        package let wantDurations: Bool, wantDistances: Bool
        let skipWaypoints: Bool
        package let language: NameLanguage?
    }

    package static func answer(_ url: OSRMURL, _ query: QueryOptions, router: Router, traffic: TrafficOverlay?,
                       limits: ServiceLimits, deadline: DispatchTime) throws -> JSON {
        let table = try compute(url, query, router: router, traffic: traffic, limits: limits)
        if DispatchTime.now() > deadline {
            throw OSRMError(.tooBig, "the table took longer than this server's time limit; ask for fewer coordinates")
        }
        return json(table, router: router)
    }

    /// The table's cells for a parsed request; `skipUnsnappable` leaves points no road is near unreachable
    /// instead of failing the request (in-process callers; the server never sets it).
    static func compute(_ url: OSRMURL, _ query: QueryOptions, router: Router, traffic: TrafficOverlay?,
                        limits: ServiceLimits, skipUnsnappable: Bool = false) throws -> Computed {
        let count = url.coordinates.count
        if count > limits.maximumTableSize {
            throw OSRMError(.tooBig, "\(count) table coordinates exceed this server's limit of \(limits.maximumTableSize)")
        }
        let general = try GeneralOptions(query, coordinateCount: count)
        let language = router.graph.nameLanguage(for: try GeneralOptions.language(query))
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
        let vehicle = try VehicleQuery.parse(query, profile: url.profileID)
        let metric = router.engine.metric(avoid: general.exclude, mode: .strict, traffic: traffic, vehicle: vehicle)
        var options = RouteOptions()
        options.radius = OSRMService.defaultRadius
        options.radii = general.radii
        options.avoid = general.exclude
        let used = Array(Set(sources + destinations)).sorted()
        var snaps: [Int: Snap] = [:]
        do {
            let candidates = try used.map { index -> SnapCandidates? in
                do { return try router.snapCandidates(url.coordinates[index], index: index, options: options, metric: metric) } catch let error as NavGraphError where skipUnsnappable && error.code == .noSegment {
                    return nil
                }
            }
            // All points nearest to one small component: the table is answered inside it (as OSRM's).
            for (index, snap) in zip(used, SmallComponentRule.snaps(candidates)) { snaps[index] = snap }
        } catch let error as NavGraphError {
            throw OSRMError(error)
        }
        let sourceSnaps = sources.map { snaps[$0] }, destinationSnaps = destinations.map { snaps[$0] }
        // Durations are the search costs (whole milliseconds per edge, as OSRM's table and route differ too), so
        // only distances need path attributes (summed along the chosen paths).
        let carried: PathAttributeSet = wantDistances ? [.distance] : []
        let matrix = BucketManyToMany(router: router, metric: metric, attributes: carried)
            .compute(sources: sourceSnaps, destinations: destinationSnaps)
        return Computed(matrix: matrix, snaps: snaps, sources: sources, destinations: destinations, wantDurations: wantDurations,
                        wantDistances: wantDistances, skipWaypoints: general.skipWaypoints, language: language)
    }

    /// OSRM's table JSON of a computed table.
    static func json(_ table: Computed, router: Router) -> JSON {
        let matrix = table.matrix, snaps = table.snaps, language = table.language
        func waypoint(_ index: Int) -> JSON {
            guard let snap = snaps[index] else { return .null }
            return .object([
                ("name", .string(router.graph.string(router.graph.name(edge: snap.edge, in: language)))),
                ("location", JSON.position(snap.point)),
                ("distance", .measure(snap.distance)),
            ])
        }
        func rows(_ value: (Int, Int) -> Double?) -> JSON {
            .array((0..<matrix.sourceCount).map { row in
                .array((0..<matrix.destinationCount).map { column in value(row, column).map { .number($0, decimals: 1) } ?? .null })
            })
        }
        var members: [(String, JSON)] = [("code", .string("Ok"))]
        if table.wantDurations { members.append(("durations", rows(matrix.duration))) }
        if table.wantDistances { members.append(("distances", rows(matrix.metres))) }
        if !table.skipWaypoints {
            members.append(("sources", .array(table.sources.map(waypoint))))
            members.append(("destinations", .array(table.destinations.map(waypoint))))
        }
        return .object(members)
    }
}
