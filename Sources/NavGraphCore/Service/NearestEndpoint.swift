import Foundation

/// `/nearest/v1`: the nearest road segments to one coordinate, closest first.
struct NearestEndpoint {
    package static let options: Set<String> = GeneralOptions.names.union(["number", "language"])

    package static func answer(_ url: OSRMURL, _ query: QueryOptions, router: Router, limits: ServiceLimits) throws -> JSON {
        guard url.coordinates.count == 1 else {
            throw OSRMError(.invalidOptions, "nearest takes exactly one coordinate, got \(url.coordinates.count)")
        }
        let number = try query.integer("number", default: 1, range: 1...Int.max)
        if number > limits.maximumNearest {
            throw OSRMError(.tooBig, "number=\(number) exceeds this server's limit of \(limits.maximumNearest)")
        }
        let general = try GeneralOptions(query, coordinateCount: 1)
        let language = router.graph.nameLanguage(for: try GeneralOptions.language(query))
        let metric = router.metric(avoid: general.exclude, mode: .strict, traffic: nil)
        let radius = (general.radii?.first ?? nil) ?? OSRMService.defaultRadius
        let graph = router.graph
        var taken = Set<Int>()
        var snaps: [Snap] = []
        let point = url.coordinates[0]
        while snaps.count < number {
            let found = router.snapper.snap(point, radius: radius) { edge in
                !taken.contains(edge) && router.isUsable(edge: edge, metric: metric)
            }
            guard let snap = found else { break }
            taken.insert(snap.edge)
            snaps.append(snap)
        }
        guard !snaps.isEmpty else {
            throw OSRMError(.noSegment, String(format: "no road within %.0f m of %.6f,%.6f (lon,lat)", radius, point.lon, point.lat))
        }
        snaps.sort { $0.distance < $1.distance }
        return .object([
            ("code", .string("Ok")),
            ("waypoints", .array(snaps.map { snap in
                .object([
                    ("nodes", .array([.number(Double(graph.shapeOSMNode[snap.segment])), .number(Double(graph.shapeOSMNode[snap.segment + 1]))])),
                    ("name", .string(graph.string(graph.name(edge: snap.edge, in: language)))),
                    ("location", JSON.position(snap.point)),
                    ("distance", .measure(snap.distance)),
                ])
            })),
        ])
    }
}
