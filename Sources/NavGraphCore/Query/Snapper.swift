import Foundation

/// A coordinate projected onto a road edge.
public struct Snap: Sendable {
    public var edge: Int
    /// Metres from the edge's first shape point to the snapped point, along the shape.
    public var offset: Double
    /// Index of the shape point that starts the segment the point was projected on.
    public var segment: Int
    public var point: Coordinate
    /// Metres from the input coordinate to the snapped point.
    public var distance: Double
    /// The directions of the edge a route may take here (set by the request's bearing and approach; a
    /// map-matching candidate holds one).
    public var directions: SnapDirections = .both
}

/// A waypoint's snaps: the one routes use, the main-network fallback, and the nearest road when it lies in a small component.
public struct SnapCandidates: Sendable {
    /// The preferred snap: the main component unless an island is much closer.
    public var snap: Snap
    /// The nearest main-component snap within the radius when `snap` is on an island.
    public var mainFallback: Snap?
    /// The nearest usable road when it lies in a small component (see `Snapper.smallComponentSize`).
    public var nearestInSmallComponent: Snap?
    /// That small component's number (`RoutingGraph.routingComponent`).
    public var smallComponent: UInt32?
}

/// Finds the nearest usable road segment to a coordinate with the grid index, preferring the main component.
public final class Snapper: @unchecked Sendable {
    /// An island candidate wins over the main network only if it is this many times closer and 100 m closer.
    public static let islandPreferenceFactor = 3.0
    public static let islandPreferenceMetres = 100.0
    /// A strongly connected component with fewer routing nodes than this is small (OSRM's `small_component_size`).
    public static let smallComponentSize = 1000

    private let graph: RoutingGraph
    private let grid: GridParameters
    private let cellMetres: Double
    /// Components are numbered by decreasing size, so those from this number on are small.
    public let firstSmallComponent: UInt32

    public init(graph: RoutingGraph) {
        self.graph = graph
        grid = graph.metadata.grid
        let middleLat = (graph.metadata.bbox.minLat + graph.metadata.bbox.maxLat) / 2
        cellMetres = min(grid.cellLat * 111_195, grid.cellLon * 111_195 * cos(middleLat * Double.pi / 180))
        firstSmallComponent = Self.firstSmallComponent(graph)
    }

    /// The number of the first small component: read from the stored largest sizes, counted only when all of them are big.
    private static func firstSmallComponent(_ graph: RoutingGraph) -> UInt32 {
        if let own = graph.profileComponentSizes { return UInt32(clamping: own.firstIndex { $0 < smallComponentSize } ?? own.count) }
        let listed = graph.metadata.componentSizes
        if let index = listed.firstIndex(where: { $0 < smallComponentSize }) { return UInt32(index) }
        let count = graph.metadata.componentCount
        guard count > listed.count, count <= graph.routingComponent.count else { return UInt32(clamping: listed.count) }
        var sizes = [Int](repeating: 0, count: count)
        for component in graph.routingComponent where Int(component) < count { sizes[Int(component)] += 1 }
        return UInt32(clamping: sizes.firstIndex { $0 < smallComponentSize } ?? count)
    }

    /// Nearest usable edge within radius; among them, the main component unless an island is much closer.
    public func snap(_ point: Coordinate, radius: Double, isUsable: (Int) -> Bool) -> Snap? {
        snapWithFallback(point, radius: radius, isUsable: isUsable)?.snap
    }

    /// Like snap, plus the nearest main-component snap within radius when an island was chosen,
    /// for a retry when the island cannot reach the other waypoint.
    public func snapWithFallback(_ point: Coordinate, radius: Double, isUsable: (Int) -> Bool) -> (snap: Snap, mainFallback: Snap?)? {
        candidates(point, radius: radius, isUsable: isUsable).map { ($0.snap, $0.mainFallback) }
    }

    /// Like snapWithFallback, plus the nearest usable road within radius when it lies in a small component (the
    /// nearest is exact: the rings stop only once they have covered it).
    public func candidates(_ point: Coordinate, radius: Double, isUsable: (Int) -> Bool) -> SnapCandidates? {
        candidates(point, radius: radius, bearing: nil) { isUsable($0) ? .both : [] }
    }

    /// Like `candidates(_:radius:isUsable:)` for roads with a usable direction (`usableDirections` of an edge, empty
    /// when it is not usable) whose travel bearing at the snapped segment `bearing` admits; with a bearing each
    /// snap's `directions` holds those directions, without one it is `.both`.
    public func candidates(_ point: Coordinate, radius: Double, bearing: BearingFilter?,
                           usableDirections: (Int) -> SnapDirections) -> SnapCandidates? {
        var best: Snap?, bestMain: Snap?
        guard grid.rows > 0 && grid.columns > 0 else { return nil }
        // The centre cell, moved onto the grid when the point lies outside it: that moves no grid cell farther away
        // in rings, so what a ring has covered still holds (and a damaged grid cannot trap the conversion).
        let centerRow = Self.clampedCell((point.lat - grid.minLat) / grid.cellLat, count: grid.rows)
        let centerColumn = Self.clampedCell((point.lon - grid.minLon) / grid.cellLon, count: grid.columns)
        let longitudeScale = cos(point.lat * Double.pi / 180)
        // Rings beyond the last one that touches the grid hold nothing (fuzzing: tiny cells made millions of empty rings).
        let lastRingOnGrid = max(centerRow, grid.rows - 1 - centerRow, centerColumn, grid.columns - 1 - centerColumn)
        // How far the point lies inside its centre cell (metres, in the projection's own measure, less a centimetre for
        // rounding): ring 0 has seen everything that near, and each ring adds a cell to it. Nothing off the grid counts.
        let cellSouth = grid.minLat + Double(centerRow) * grid.cellLat, cellWest = grid.minLon + Double(centerColumn) * grid.cellLon
        let inside = min(min(point.lat - cellSouth, cellSouth + grid.cellLat - point.lat) * Geo.metresPerDegree,
                         min(point.lon - cellWest, cellWest + grid.cellLon - point.lon) * longitudeScale * Geo.metresPerDegree) - 0.01
        let insideCentre = inside.isFinite && inside > 0 ? inside : 0
        let ringsForRadius = (radius / max(1, cellMetres)).rounded(.up) + 1
        let maximumRing = ringsForRadius.isFinite && ringsForRadius < Double(lastRingOnGrid) ? max(0, Int(ringsForRadius)) : lastRingOnGrid
        var ring = 0
        while ring <= maximumRing {
            let rowRange = max(0, centerRow - ring)...min(grid.rows - 1, centerRow + ring)
            let firstColumn = max(0, centerColumn - ring), lastColumn = min(grid.columns - 1, centerColumn + ring)
            for row in rowRange {
                let onEdgeRow = row == centerRow - ring || row == centerRow + ring
                // A ring's edge rows whole (ring 0 is one); between them only its two edge columns.
                var column = onEdgeRow ? firstColumn : centerColumn - ring
                let last = onEdgeRow ? lastColumn : centerColumn + ring, step = onEdgeRow ? 1 : 2 * ring
                while column <= last {
                    defer { column += step }
                    guard column >= 0 && column < grid.columns else { continue }
                    // Wrapping arithmetic: row and column are on the grid, whose cell ranges the graph file's checks bound.
                    let cell = row &* grid.columns &+ column
                    var entry = Int(graph.gridFirst[cell])
                    let entryEnd = Int(graph.gridFirst[cell &+ 1])
                    while entry < entryEnd {
                        consider(segment: Int(graph.gridSegment[entry]), point: point, longitudeScale: longitudeScale,
                                 bearing: bearing, usableDirections: usableDirections, best: &best, bestMain: &bestMain)
                        entry &+= 1
                    }
                }
            }
            // Everything within ring * cellMetres of the point, and as far again as it lies inside its cell, has been seen.
            let covered = Double(ring) * cellMetres + insideCentre
            // Until the main network is found the rings go on to the radius, even past an island close enough to be
            // preferred: its fallback is what routes when the island cannot reach the other waypoints (OSRM snaps such
            // a point to the nearest big component).
            if let bestMain, bestMain.distance <= covered { break }
            ring += 1
        }
        guard let nearest = best, nearest.distance <= radius else { return nil }
        var chosen = nearest, fallback: Snap?
        if let bestMain, bestMain.distance <= radius,
           !(chosen.distance * Snapper.islandPreferenceFactor < bestMain.distance && chosen.distance + Snapper.islandPreferenceMetres < bestMain.distance) {
            chosen = bestMain
        } else if var bestMain, bestMain.distance <= radius, bestMain.edge != chosen.edge {
            bestMain.offset = offsetAlongEdge(bestMain)
            bestMain.distance = Geo.haversine(point, bestMain.point)
            fallback = bestMain
        }
        chosen.offset = offsetAlongEdge(chosen)
        chosen.distance = Geo.haversine(point, chosen.point)
        var result = SnapCandidates(snap: chosen, mainFallback: fallback)
        if let component = smallComponent(edge: nearest.edge) {
            var snap = nearest
            snap.offset = offsetAlongEdge(snap)
            snap.distance = Geo.haversine(point, snap.point)
            result.nearestInSmallComponent = snap
            result.smallComponent = component
        }
        return result
    }

    /// The component of an edge (the larger of its two directions'), when it is small.
    public func smallComponent(edge: Int) -> UInt32? {
        var component = UInt32.max
        for direction in 0..<2 {
            let node = graph.routingNodeOfEdge[2 * edge + direction]
            if node >= 0 { component = min(component, graph.routingComponent[Int(node)]) }
        }
        return component != UInt32.max && component >= firstSmallComponent ? component : nil
    }

    /// Grid row or column of a fractional cell position, clamped to 0..<count (NaN and infinities included).
    private static func clampedCell(_ position: Double, count: Int) -> Int {
        guard position.isFinite else { return position == .infinity ? count - 1 : 0 }
        return Int(max(0, min(Double(count - 1), position.rounded(.down))))
    }

    /// Distance from the point to the nearest routable segment regardless of radius (for error messages), bounded by `limit`.
    public func nearestDistance(_ point: Coordinate, limit: Double) -> Double? {
        snap(point, radius: limit, isUsable: { _ in true })?.distance
    }

    @inline(__always)
    private func consider(segment: Int, point: Coordinate, longitudeScale: Double, bearing: BearingFilter?,
                          usableDirections: (Int) -> SnapDirections, best: inout Snap?, bestMain: inout Snap?) {
        let a = graph.coordinate(shapePoint: segment), b = graph.coordinate(shapePoint: segment &+ 1)
        let projection = Geo.project(point, ontoSegmentFrom: a, to: b, longitudeScale: longitudeScale)
        let distance = projection.distance
        let improvesBest = best.map { distance < $0.distance } ?? true
        let improvesMain = bestMain.map { distance < $0.distance } ?? true
        guard improvesBest || improvesMain else { return }
        let edge = graph.edge(ofShapePoint: segment)
        // Without a bearing every direction stays open (`RoutePlanner` skips those the metric cannot use).
        var directions = usableDirections(edge)
        guard !directions.isEmpty else { return }
        if let bearing { directions.formIntersection(bearing.directions(from: a, to: b)) } else { directions = .both }
        guard !directions.isEmpty else { return }
        let candidate = Snap(edge: edge, offset: projection.fraction, segment: segment, point: projection.point, distance: distance,
                             directions: directions)
        if improvesBest { best = candidate }
        if improvesMain && isInMainComponent(edge: edge) { bestMain = candidate }
    }

    private func isInMainComponent(edge: Int) -> Bool {
        for direction in 0..<2 {
            let node = graph.routingNodeOfEdge[2 * edge + direction]
            if node >= 0 && graph.routingComponent[Int(node)] == 0 { return true }
        }
        return false
    }

    /// Turns the segment fraction stored in `offset` into metres from the edge start. `segmentLengths`, when given,
    /// holds the edge's segment lengths in stored order as `Geo.haversine` computes them (`SegmentLengthCache`).
    func offsetAlongEdge(_ snap: Snap, segmentLengths: UnsafeBufferPointer<Double>? = nil) -> Double {
        let first = Int(graph.edgeShapeFirst[snap.edge])
        func length(_ point: Int) -> Double {
            segmentLengths.map { $0[point - first] }
                ?? Geo.haversine(graph.coordinate(shapePoint: point), graph.coordinate(shapePoint: point + 1))
        }
        var metres = 0.0
        for point in first..<snap.segment { metres += length(point) }
        return min(graph.edgeLength[snap.edge], metres + snap.offset * length(snap.segment))
    }
}
