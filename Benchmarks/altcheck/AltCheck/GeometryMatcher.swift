import NavGraphCore

/// Why a route geometry could not be judged on navgraph's graph.
public enum MatchFailure: String, Error, Sendable, Codable, CaseIterable {
    /// Two consecutive points are no segment of the graph (a road the car profile lacks, or a different geometry).
    case road
    /// The segment exists but navgraph may not drive it in that direction (oneway).
    case direction
    /// The segment exists but navgraph routes on neither direction (private access, not in the routable network).
    case access
    /// Consecutive directed edges with no allowed turn between them (turn restriction, U-turn).
    case turn
    /// The partly driven first or last edge could not be placed.
    case ends
    /// Fewer than two graph points: the route lies inside one segment.
    case tooShort
    /// The engine's primary route is unmatched, so sharing with it cannot be measured.
    case primary
    /// navgraph finds no route for the pair, so there is no optimum to measure stretch against.
    case noOptimum
}

/// A route laid onto the graph: routing nodes (directed edges) in driving order and the cost in ms under the
/// matcher's metric, where the partly driven first and last edges count in proportion to the length driven.
public struct MatchedPath: Sendable, Equatable {
    public var nodes: [Int]
    public var cost: Int
}

/// Maps route geometries made of OSM node coordinates (OSRM, Valhalla, navgraph) onto navgraph's directed edges:
/// points are looked up among the graph's shape points (rounded to 1e-6°, ± one unit), consecutive points must be
/// points of one edge, and points between two graph points (snapped ends, densified shapes) must lie on that edge.
public struct GeometryMatcher {
    let graph: RoutingGraph
    let metric: RoutingMetric
    /// Edge of each shape point.
    let shapeEdge: [Int32]
    /// Shape points by rounded coordinate (see `key`).
    let index: [Int64: [Int32]]
    /// Metres within which a point not among the shape points counts as lying on a segment.
    public var tolerance = 1.0

    public init(graph: RoutingGraph, metric: RoutingMetric) {
        self.graph = graph
        self.metric = metric
        var shapeEdge = [Int32](repeating: 0, count: graph.shapeLatE7.count)
        var index: [Int64: [Int32]] = [:]
        for edge in 0..<graph.edgeCount {
            for shape in Int(graph.edgeShapeFirst[edge])..<Int(graph.edgeShapeFirst[edge + 1]) {
                shapeEdge[shape] = Int32(edge)
                let point = graph.coordinate(shapePoint: shape)
                index[Self.key(Self.micro(point.lat), Self.micro(point.lon)), default: []].append(Int32(shape))
            }
        }
        self.shapeEdge = shapeEdge
        self.index = index
    }

    static func micro(_ degrees: Double) -> Int64 { Int64((degrees * 1e6).rounded()) }
    static func key(_ latE6: Int64, _ lonE6: Int64) -> Int64 { (latE6 + 90_000_000) * 400_000_000 + lonE6 + 180_000_000 }

    /// Shape points within one 1e-6° unit of `point` in latitude and longitude.
    func candidates(_ point: Coordinate) -> [Int32] {
        let lat = Self.micro(point.lat), lon = Self.micro(point.lon)
        var found: [Int32] = []
        for dLat in -1...1 { for dLon in -1...1 { found += index[Self.key(lat + Int64(dLat), lon + Int64(dLon))] ?? [] } }
        return found
    }

    /// One stretch of a directed edge driven from shape point `from` to shape point `to`.
    struct Step { var directedEdge: Int; var from: Int; var to: Int }

    func firstShape(_ d: Int) -> Int { d & 1 == 0 ? Int(graph.edgeShapeFirst[d >> 1]) : Int(graph.edgeShapeFirst[(d >> 1) + 1]) - 1 }
    func lastShape(_ d: Int) -> Int { d & 1 == 0 ? Int(graph.edgeShapeFirst[(d >> 1) + 1]) - 1 : Int(graph.edgeShapeFirst[d >> 1]) }
    func node(_ d: Int) -> Int? {
        let node = Int(graph.routingNodeOfEdge[d])
        return node >= 0 && metric.nodeWeight[node] < CCHMetric.infinity ? node : nil
    }
    /// Whether the turn from directed edge `from` into `to` exists (into `to` itself or into a via-way restriction's
    /// copy of it; the matcher follows original nodes, so a banned via-way sequence is not detected).
    func turnAllowed(_ from: Int, _ to: Int) -> Bool {
        guard let a = node(from), node(to) != nil else { return false }
        return (Int(graph.cch.turnFirstOut[a])..<Int(graph.cch.turnFirstOut[a + 1])).contains { Int(graph.routingEdge[Int(graph.cch.turnHead[$0])]) == to }
    }

    /// Metres along the shape from `from` to `to` (one edge).
    func length(_ from: Int, _ to: Int) -> Double {
        let step = to > from ? 1 : -1
        return stride(from: from, to: to, by: step).reduce(0) {
            $0 + Geo.haversine(graph.coordinate(shapePoint: $1), graph.coordinate(shapePoint: $1 + step))
        }
    }

    /// Metres from the farthest of the points to the shape between `from` and `to` (one edge).
    func offset(_ points: [Coordinate], along from: Int, _ to: Int) -> Double {
        let step = to > from ? 1 : -1
        return points.map { point in
            stride(from: from, to: to, by: step).map { shape in
                let a = graph.coordinate(shapePoint: shape), b = graph.coordinate(shapePoint: shape + step)
                return Geo.haversine(point, Geo.project(point, ontoSegmentFrom: a, to: b).point)
            }.min() ?? .infinity
        }.max() ?? 0
    }

    /// Whether every point lies within `tolerance` of the shape between `from` and `to` (one edge).
    func lie(_ points: [Coordinate], along from: Int, _ to: Int) -> Bool { offset(points, along: from, to) <= tolerance }

    /// The stretch of one edge from a point in `sources` to a point in `targets`: preferably continuing the
    /// previous directed edge, then turning from it, then between adjacent shape points; a failure if there is none that navgraph may drive.
    func step(from sources: [Int32], to targets: [Int32], after previous: Int?) -> Result<Step, MatchFailure> {
        var best: (rank: Int, step: Step)?
        for p in sources {
            for q in targets where q != p && shapeEdge[Int(q)] == shapeEdge[Int(p)] {
                let d = 2 * Int(shapeEdge[Int(p)]) + (q > p ? 0 : 1)
                var rank = abs(Int(q) - Int(p)) == 1 ? 0 : 4
                if node(d) == nil { rank += node(d ^ 1) == nil ? 200 : 100 }
                if let previous, previous != d { rank += turnAllowed(previous, d) ? 1 : 2 }
                if best.map({ rank < $0.rank }) ?? true { best = (rank, Step(directedEdge: d, from: Int(p), to: Int(q))) }
            }
        }
        guard let best else { return .failure(.road) }
        return best.rank >= 200 ? .failure(.access) : best.rank >= 100 ? .failure(.direction) : .success(best.step)
    }

    /// Lays a geometry onto the graph; see the type's description.
    public func match(_ points: [Coordinate]) -> Result<MatchedPath, MatchFailure> {
        let found = points.map(candidates)
        guard let first = found.firstIndex(where: { !$0.isEmpty }), let last = found.lastIndex(where: { !$0.isEmpty }) else {
            return .failure(.tooShort)
        }
        // Points before the first graph point and after the last one (the snapped ends), if not repeats of them.
        let leading = points[..<first].filter { Geo.haversine($0, points[first]) >= 0.05 }
        let trailing = points[(last + 1)...].filter { Geo.haversine($0, points[last]) >= 0.05 }
        return Result { () throws(MatchFailure) -> MatchedPath in
            var visits = try self.visits(points, found, first...last)
            try placeStart(leading, before: found[first], visits: &visits)
            try placeEnd(trailing, after: found[last], visits: &visits)
            return try path(visits)
        }
    }

    /// One directed edge as driven: from shape point `from` to shape point `to`, over `metres`.
    typealias Visit = (d: Int, from: Int, to: Int, metres: Double)

    /// The directed edges driven between the first and last graph points, in order.
    func visits(_ points: [Coordinate], _ found: [[Int32]], _ range: ClosedRange<Int>) throws(MatchFailure) -> [Visit] {
        var visits: [Visit] = []
        var anchor = range.lowerBound, pending: [Coordinate] = []
        for i in range.dropFirst() {
            if found[i].isEmpty { pending.append(points[i]); continue }
            // A repeated point (or the same node printed one unit apart) adds nothing.
            if pending.isEmpty && found[i].contains(where: found[anchor].contains) { anchor = i; continue }
            let next = try step(from: found[anchor], to: found[i], after: visits.last?.d).get()
            guard lie(pending, along: next.from, next.to) else { throw .road }
            if let current = visits.last, current.d == next.directedEdge {
                visits[visits.count - 1].to = next.to
                visits[visits.count - 1].metres += length(next.from, next.to)
            } else {
                visits.append((next.directedEdge, next.from, next.to, length(next.from, next.to)))
            }
            anchor = i
            pending = []
        }
        guard !visits.isEmpty else { throw .tooShort }
        return visits
    }

    /// Extends the first visit back over the points before its first graph point, or prepends the edge they lie on.
    func placeStart(_ leading: [Coordinate], before found: [Int32], visits: inout [Visit]) throws(MatchFailure) {
        guard let start = leading.first, let head = visits.first else { return }
        if head.from != firstShape(head.d) {
            let previous = head.d & 1 == 0 ? head.from - 1 : head.from + 1
            guard lie(leading, along: previous, head.from) else { throw .ends }
            visits[0].from = previous
            visits[0].metres += Geo.haversine(start, graph.coordinate(shapePoint: head.from))
            return
        }
        let entries = found.flatMap { directedEdges(ofShape: Int($0)) }.filter { found.contains(Int32(lastShape($0))) }
            .filter { firstShape($0) != lastShape($0) && turnAllowed($0, head.d) && lie(leading, along: entryShape($0), lastShape($0)) }
        guard let d = entries.min(by: { offset(leading, along: entryShape($0), lastShape($0)) < offset(leading, along: entryShape($1), lastShape($1)) })
        else { throw .ends }
        visits.insert((d, entryShape(d), lastShape(d), Geo.haversine(start, graph.coordinate(shapePoint: lastShape(d)))), at: 0)
    }

    /// Extends the last visit over the points after its last graph point, or appends the edge they lie on.
    func placeEnd(_ trailing: [Coordinate], after found: [Int32], visits: inout [Visit]) throws(MatchFailure) {
        guard let end = trailing.last, let tail = visits.last else { return }
        if tail.to != lastShape(tail.d) {
            let next = tail.d & 1 == 0 ? tail.to + 1 : tail.to - 1
            guard lie(trailing, along: tail.to, next) else { throw .ends }
            visits[visits.count - 1].to = next
            visits[visits.count - 1].metres += Geo.haversine(end, graph.coordinate(shapePoint: tail.to))
            return
        }
        let exits = found.flatMap { directedEdges(ofShape: Int($0)) }.filter { found.contains(Int32(firstShape($0))) }
            .filter { firstShape($0) != lastShape($0) && turnAllowed(tail.d, $0) && lie(trailing, along: firstShape($0), exitShape($0)) }
        guard let d = exits.min(by: { offset(trailing, along: firstShape($0), exitShape($0)) < offset(trailing, along: firstShape($1), exitShape($1)) })
        else { throw .ends }
        visits.append((d, firstShape(d), exitShape(d), Geo.haversine(end, graph.coordinate(shapePoint: firstShape(d)))))
    }

    /// Routing nodes and cost of the visits: every visit but the ends drives its whole edge, and each follows the
    /// previous by an allowed turn (or over an edge too short to show in the geometry).
    func path(_ visits: [Visit]) throws(MatchFailure) -> MatchedPath {
        var nodes: [Int] = [], cost = 0
        for (position, visit) in visits.enumerated() {
            guard let node = node(visit.d) else { throw self.node(visit.d ^ 1) == nil ? .access : .direction }
            let isEnd = position == 0 || position == visits.count - 1
            // (Up to half a metre may be missing where two shape points lie within one unit of each other.)
            if !isEnd && length(firstShape(visit.d), visit.from) + length(visit.to, lastShape(visit.d)) > 0.5 { throw .road }
            if let previous = nodes.last, !turnAllowed(visits[position - 1].d, visit.d) {
                guard let bridge = shortBridge(from: previous, to: node) else { throw .turn }
                cost += Int(metric.nodeWeight[bridge]) + Int(metric.turnCost(graph, from: previous, to: bridge) ?? 0)
                nodes.append(bridge)
            }
            if let previous = nodes.last { cost += Int(metric.turnCost(graph, from: previous, to: node) ?? 0) }
            let weight = Int(metric.nodeWeight[node]), total = graph.edgeLength[visit.d >> 1]
            cost += isEnd && total > 0 ? Int((Double(weight) * min(1, visit.metres / total)).rounded()) : weight
            nodes.append(node)
        }
        return MatchedPath(nodes: nodes, cost: cost)
    }

    /// Both directed edges of the edge owning a shape point.
    func directedEdges(ofShape shape: Int) -> [Int] { [2 * Int(shapeEdge[shape]), 2 * Int(shapeEdge[shape]) + 1] }

    /// A routing node of an edge under half a metre long that turns from `from` and into `to`.
    func shortBridge(from: Int, to: Int) -> Int? {
        let turns = graph.cch.turnFirstOut, head = graph.cch.turnHead
        return (Int(turns[from])..<Int(turns[from + 1])).lazy.map { Int(head[$0]) }.first { middle in
            graph.edgeLength[Int(graph.routingEdge[middle]) >> 1] < 0.5 && metric.nodeWeight[middle] < CCHMetric.infinity
                && (Int(turns[middle])..<Int(turns[middle + 1])).contains { Int(head[$0]) == to }
        }
    }

    /// The second-to-last shape point of directed edge d (start of its last segment).
    func entryShape(_ d: Int) -> Int { d & 1 == 0 ? lastShape(d) - 1 : lastShape(d) + 1 }
    /// The second shape point of directed edge d (end of its first segment).
    func exitShape(_ d: Int) -> Int { d & 1 == 0 ? firstShape(d) + 1 : firstShape(d) - 1 }
}
