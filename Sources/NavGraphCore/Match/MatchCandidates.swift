import Foundation

/// Finds a trace point's candidates: the nearest road edges within a radius, one directed snap per direction the
/// metric may drive (a candidate is a routing node, which is a directed edge). An edge that passes the point more
/// than once (a hairpin road, a loop) gives a snap per pass: two projections are passes of their own when the
/// road between them moves away from the point, to more than `passMargin` beyond the farther of the two.
struct MatchCandidateFinder {
    package let graph: RoutingGraph
    package let snapper: Snapper

    /// Appends the candidates around `point` to `out` (cleared first); `nearest` is scratch reused between calls, and
    /// `lengths` measures the kept edges' offsets.
    package func candidates(around point: Coordinate, radius: Double, maximumEdges: Int, metric: RoutingMetric,
                            lengths: SegmentLengthCache, nearest: inout [Snap], into out: inout [Snap]) {
        out.removeAll(keepingCapacity: true)
        nearest.removeAll(keepingCapacity: true)
        let grid = graph.metadata.grid
        guard grid.rows > 0, grid.columns > 0, point.isValid else { return }
        let scale = cos(point.lat * Double.pi / 180)
        let dLat = radius / 111_195, dLon = radius / (111_195 * max(0.01, scale))
        let firstRow = max(0, grid.row(point.lat - dLat)), lastRow = min(grid.rows - 1, grid.row(point.lat + dLat))
        let firstColumn = max(0, grid.column(point.lon - dLon)), lastColumn = min(grid.columns - 1, grid.column(point.lon + dLon))
        guard firstRow <= lastRow, firstColumn <= lastColumn else { return }
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn {
                let cell = row * grid.columns + column
                for entry in Int(graph.gridFirst[cell])..<Int(graph.gridFirst[cell + 1]) {
                    let segment = Int(graph.gridSegment[entry])
                    let a = graph.coordinate(shapePoint: segment), b = graph.coordinate(shapePoint: segment + 1)
                    let projection = Geo.project(point, ontoSegmentFrom: a, to: b, longitudeScale: scale)
                    guard projection.distance <= radius else { continue }
                    let edge = graph.edge(ofShapePoint: segment)
                    guard isDrivable(edge: edge, metric: metric) else { continue }
                    nearest.append(Snap(edge: edge, offset: projection.fraction, segment: segment, point: projection.point, distance: projection.distance))
                }
            }
        }
        // Nearest first; a projection on an edge already taken counts only as another pass of it.
        nearest.sort { $0.distance < $1.distance || ($0.distance == $1.distance && $0.segment < $1.segment) }
        var kept = 0
        let margin = max(5, radius / 8)
        for index in nearest.indices where kept < maximumEdges {
            let candidate = nearest[index]
            guard !nearest[..<kept].contains(where: {
                $0.edge == candidate.edge
                    && !separatePasses($0, candidate, around: point, beyond: max($0.distance, candidate.distance) + margin, scale: scale)
            }) else { continue }
            nearest.swapAt(kept, index)
            kept += 1
        }
        for var snap in nearest.prefix(kept) {
            snap.offset = lengths.withLengths(ofEdge: snap.edge) { snapper.offsetAlongEdge(snap, segmentLengths: $0) }
            snap.distance = Geo.haversine(point, snap.point)
            for direction in 0..<2 {
                let node = Int(graph.routingNodeOfEdge[2 * snap.edge + direction])
                guard node >= 0, metric.nodeWeight[node] < CCHMetric.infinity else { continue }
                snap.directions = .of(directedEdge: direction)
                out.append(snap)
            }
        }
    }

    /// Whether the road between two projections onto one edge leaves the point by more than `beyond` metres (a
    /// shape point between them lies that far away), so that each is a pass of its own.
    private func separatePasses(_ a: Snap, _ b: Snap, around point: Coordinate, beyond: Double, scale: Double) -> Bool {
        let low = min(a.segment, b.segment), high = max(a.segment, b.segment)
        guard high > low else { return false }
        for shapePoint in (low + 1)...high {
            let c = graph.coordinate(shapePoint: shapePoint)
            let north = (c.lat - point.lat) * 111_195, east = (c.lon - point.lon) * 111_195 * scale
            if north * north + east * east > beyond * beyond { return true }
        }
        return false
    }

    private func isDrivable(edge: Int, metric: RoutingMetric) -> Bool {
        for direction in 0..<2 {
            let node = Int(graph.routingNodeOfEdge[2 * edge + direction])
            if node >= 0 && metric.nodeWeight[node] < CCHMetric.infinity { return true }
        }
        return false
    }
}
