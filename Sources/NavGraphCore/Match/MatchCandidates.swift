import Foundation

/// Finds a trace point's candidates: the nearest road edges within a radius, one directed snap per direction the
/// metric may drive (a candidate is a routing node, which is a directed edge).
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
                    if let index = nearest.firstIndex(where: { $0.edge == edge }) {
                        if projection.distance < nearest[index].distance {
                            nearest[index] = Snap(edge: edge, offset: projection.fraction, segment: segment, point: projection.point, distance: projection.distance)
                        }
                    } else if isDrivable(edge: edge, metric: metric) {
                        nearest.append(Snap(edge: edge, offset: projection.fraction, segment: segment, point: projection.point, distance: projection.distance))
                    }
                }
            }
        }
        nearest.sort { $0.distance < $1.distance }
        for var snap in nearest.prefix(maximumEdges) {
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

    private func isDrivable(edge: Int, metric: RoutingMetric) -> Bool {
        for direction in 0..<2 {
            let node = Int(graph.routingNodeOfEdge[2 * edge + direction])
            if node >= 0 && metric.nodeWeight[node] < CCHMetric.infinity { return true }
        }
        return false
    }
}
