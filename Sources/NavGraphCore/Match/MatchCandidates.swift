import Foundation

/// Finds a trace point's candidates: the nearest road edges within a radius, one directed snap per direction the
/// metric may drive (a candidate is a routing node, which is a directed edge). An edge that passes the point more
/// than once (a hairpin road, a loop) gives a snap per pass: two projections are passes of their own when the
/// road between them runs longer than the circle's diameter, so it left the circle in between.
struct MatchCandidateFinder {
    package let graph: RoutingGraph
    package let snapper: Snapper

    /// Appends the candidates around `point` to `out` (cleared first); `nearest` is scratch reused between calls.
    package func candidates(around point: Coordinate, radius: Double, maximumEdges: Int, metric: RoutingMetric,
                    nearest: inout [Snap], into out: inout [Snap]) {
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
        for index in nearest.indices where kept < maximumEdges {
            let candidate = nearest[index]
            guard !nearest[..<kept].contains(where: { $0.edge == candidate.edge && !separatePasses($0.segment, candidate.segment, apart: 2 * radius) })
            else { continue }
            nearest.swapAt(kept, index)
            kept += 1
        }
        for var snap in nearest.prefix(kept) {
            snap.offset = snapper.offsetAlongEdge(snap)
            snap.distance = Geo.haversine(point, snap.point)
            for direction in 0..<2 {
                let node = Int(graph.routingNodeOfEdge[2 * snap.edge + direction])
                guard node >= 0, metric.nodeWeight[node] < CCHMetric.infinity else { continue }
                snap.directions = .of(directedEdge: direction)
                out.append(snap)
            }
        }
    }

    /// Whether the road between two segments of one edge runs longer than `apart` metres (the segments strictly
    /// between them are summed, stopping once past it).
    private func separatePasses(_ a: Int, _ b: Int, apart: Double) -> Bool {
        let low = min(a, b), high = max(a, b)
        guard high > low + 1 else { return false }
        var length = 0.0
        for shapePoint in (low + 1)..<high {
            length += Geo.haversine(graph.coordinate(shapePoint: shapePoint), graph.coordinate(shapePoint: shapePoint + 1))
            if length > apart { return true }
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
