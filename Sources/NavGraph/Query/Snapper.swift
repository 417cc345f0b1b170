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
}

/// Finds the nearest usable road segment to a coordinate with the grid index, preferring the main component.
public final class Snapper: @unchecked Sendable {
    /// An island candidate wins over the main network only if it is this many times closer and 100 m closer.
    public static let islandPreferenceFactor = 3.0
    public static let islandPreferenceMetres = 100.0

    private let graph: RoutingGraph
    private let grid: GridParameters
    private let cellMetres: Double

    public init(graph: RoutingGraph) {
        self.graph = graph
        grid = graph.metadata.grid
        let middleLat = (graph.metadata.bbox.minLat + graph.metadata.bbox.maxLat) / 2
        cellMetres = min(grid.cellLat * 111_195, grid.cellLon * 111_195 * cos(middleLat * Double.pi / 180))
    }

    /// Nearest usable edge within radius; among them, the main component unless an island is much closer.
    public func snap(_ point: Coordinate, radius: Double, isUsable: (Int) -> Bool) -> Snap? {
        snapWithFallback(point, radius: radius, isUsable: isUsable)?.snap
    }

    /// Like snap, plus the nearest main-component snap within radius when an island was chosen,
    /// for a retry when the island cannot reach the other waypoint.
    public func snapWithFallback(_ point: Coordinate, radius: Double, isUsable: (Int) -> Bool) -> (snap: Snap, mainFallback: Snap?)? {
        var best: Snap?, bestMain: Snap?
        guard grid.rows > 0 && grid.columns > 0 else { return nil }
        // The centre cell, moved onto the grid when the point lies outside it: that moves no grid cell farther away
        // in rings, so what a ring has covered still holds (and a damaged grid cannot trap the conversion).
        let centerRow = Self.clampedCell((point.lat - grid.minLat) / grid.cellLat, count: grid.rows)
        let centerColumn = Self.clampedCell((point.lon - grid.minLon) / grid.cellLon, count: grid.columns)
        let longitudeScale = cos(point.lat * Double.pi / 180)
        // Rings beyond the last one that touches the grid hold nothing (fuzzing: tiny cells made millions of empty rings).
        let lastRingOnGrid = max(centerRow, grid.rows - 1 - centerRow, centerColumn, grid.columns - 1 - centerColumn)
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
                    let cell = row * grid.columns + column
                    for entry in Int(graph.gridFirst[cell])..<Int(graph.gridFirst[cell + 1]) {
                        consider(segment: Int(graph.gridSegment[entry]), point: point, longitudeScale: longitudeScale,
                                 isUsable: isUsable, best: &best, bestMain: &bestMain)
                    }
                }
            }
            // Everything within ring * cellMetres of the point has been seen.
            let covered = Double(ring) * cellMetres
            if let bestMain, bestMain.distance <= covered { break }
            if bestMain == nil, let best, best.distance * Snapper.islandPreferenceFactor + Snapper.islandPreferenceMetres <= covered { break }
            ring += 1
        }
        guard var chosen = best, chosen.distance <= radius else { return nil }
        var fallback: Snap?
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
        return (chosen, fallback)
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
    private func consider(segment: Int, point: Coordinate, longitudeScale: Double, isUsable: (Int) -> Bool,
                          best: inout Snap?, bestMain: inout Snap?) {
        let a = graph.coordinate(shapePoint: segment), b = graph.coordinate(shapePoint: segment + 1)
        let projection = Geo.project(point, ontoSegmentFrom: a, to: b, longitudeScale: longitudeScale)
        let distance = projection.distance
        let improvesBest = best.map { distance < $0.distance } ?? true
        let improvesMain = bestMain.map { distance < $0.distance } ?? true
        guard improvesBest || improvesMain else { return }
        let edge = graph.edge(ofShapePoint: segment)
        guard isUsable(edge) else { return }
        let candidate = Snap(edge: edge, offset: projection.fraction, segment: segment, point: projection.point, distance: distance)
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

    /// Turns the segment fraction stored in `offset` into metres from the edge start.
    private func offsetAlongEdge(_ snap: Snap) -> Double {
        let first = Int(graph.edgeShapeFirst[snap.edge])
        var metres = 0.0
        for point in first..<snap.segment {
            metres += Geo.haversine(graph.coordinate(shapePoint: point), graph.coordinate(shapePoint: point + 1))
        }
        let segmentLength = Geo.haversine(graph.coordinate(shapePoint: snap.segment), graph.coordinate(shapePoint: snap.segment + 1))
        return min(graph.edgeLength[snap.edge], metres + snap.offset * segmentLength)
    }
}
