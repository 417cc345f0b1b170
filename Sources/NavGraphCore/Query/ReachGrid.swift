import Foundation

/// Earliest reach times (minutes) of the road network rasterised on a lon/lat grid: each grid point holds the
/// smallest time of any road point sampled in the four grid squares around it, so the union of grid-point
/// pixels at or under a time covers every road point reached by then (with half a cell to spare).
public struct ReachGrid: Sendable {
    /// Grid point (i, j) lies at (originLon + i × cellLon, originLat + j × cellLat).
    public var originLon: Double
    public var originLat: Double
    public var cellLon: Double
    public var cellLat: Double
    public var columns: Int
    public var rows: Int
    /// Minutes per grid point, row-major (j × columns + i); infinity where nothing is reached.
    public var minutes: ContiguousArray<Float>

    /// Marks the four grid points around `point` with `time` if it is earlier.
    @inline(__always)
    package mutating func mark(_ point: Coordinate, _ time: Float) {
        let x = (point.lon - originLon) / cellLon, y = (point.lat - originLat) / cellLat
        let i = Int(x.rounded(.down)), j = Int(y.rounded(.down))
        let columns = self.columns, rows = self.rows
        minutes.withUnsafeMutableBufferPointer { minutes in
            for b in j...j + 1 where b >= 0 && b < rows {
                for a in i...i + 1 where a >= 0 && a < columns {
                    let index = b * columns + a
                    if time < minutes[index] { minutes[index] = time }
                }
            }
        }
    }

    /// The grid point pixel (i, j) corner coordinate: corner (i, j) is the lower-left corner of pixel (i, j).
    public func corner(_ i: Int, _ j: Int) -> Coordinate {
        Coordinate(lat: originLat + (Double(j) - 0.5) * cellLat, lon: originLon + (Double(i) - 0.5) * cellLon)
    }
}

/// Builds a ReachGrid from one-to-all times: every directed edge is sampled every quarter cell along its shape,
/// each sample timed by interpolating the edge's segment times, partly driven edges included.
enum ReachRasterizer {
    /// Samples every edge that some point of is reached within `limitMinutes` (forward: from the snap;
    /// reverse: to it) on a grid of about `cellMetres` (coarser if the area would need over 16M grid points).
    static func rasterize(graph: RoutingGraph, metric: RoutingMetric, sweep: OneToAllSweep, reverse: Bool, snap: Snap,
                          limitMinutes: Double, cellMetres: Double) -> ReachGrid {
        let limit = limitMinutes * 60_000
        let label = sweep.label
        // The snapped edge's directions (at most a few nodes): a list, not a table, since every node asks.
        let snapped = sweep.snapped
        func snappedPartial(_ node: Int) -> UInt32? { snapped.first { $0.node == node }?.partial }
        // Bounding box of the edges reached in time (their shape points), to size the grid.
        var minLat = snap.point.lat, maxLat = snap.point.lat, minLon = snap.point.lon, maxLon = snap.point.lon
        var reached: [Int] = []
        for node in 0..<graph.routingNodeCount {
            let weight = metric.nodeWeight[node]
            guard weight < CCHMetric.infinity else { continue }
            // Reach times are durations: a restricted-entry penalty (TurnCosts) in the label is not time.
            let value = label[node] < CCHMetric.infinity ? TurnCosts.duration(ofSearchCost: label[node]) : CCHMetric.infinity
            let start: Double   // earliest ms at which some point of the edge is reached
            if reverse {
                start = value < CCHMetric.infinity ? Double(value) : .infinity
            } else {
                start = value < CCHMetric.infinity ? Double(value) - Double(weight) : .infinity
            }
            guard start <= limit || snappedPartial(node) != nil else { continue }
            reached.append(node)
            let edge = Int(graph.routingEdge[node]) >> 1
            for shape in Int(graph.edgeShapeFirst[edge])..<Int(graph.edgeShapeFirst[edge + 1]) {
                let point = graph.coordinate(shapePoint: shape)
                minLat = min(minLat, point.lat); maxLat = max(maxLat, point.lat)
                minLon = min(minLon, point.lon); maxLon = max(maxLon, point.lon)
            }
        }
        let middleLat = (minLat + maxLat) / 2
        var cell = cellMetres
        let metresPerLat = 111_195.0, metresPerLon = 111_195.0 * max(0.01, cos(middleLat * Double.pi / 180))
        // Keep the grid under ~16M points whatever the area.
        while ((maxLat - minLat) * metresPerLat / cell + 4) * ((maxLon - minLon) * metresPerLon / cell + 4) > 16_000_000 { cell *= 1.5 }
        let cellLat = cell / metresPerLat, cellLon = cell / metresPerLon
        let columns = Int(((maxLon - minLon) / cellLon).rounded(.up)) + 4, rows = Int(((maxLat - minLat) / cellLat).rounded(.up)) + 4
        var grid = ReachGrid(originLon: minLon - 1.5 * cellLon, originLat: minLat - 1.5 * cellLat, cellLon: cellLon, cellLat: cellLat,
                             columns: columns, rows: rows, minutes: ContiguousArray(repeating: .infinity, count: columns * rows))
        let step = cell / 4
        let costs = EdgeCostModel(graph: graph)
        func sample(_ node: Int, into grid: inout ReachGrid) {
            let d = Int(graph.routingEdge[node])
            let weight = Double(metric.nodeWeight[node])
            let segments = costs.segments(directedEdge: d, traffic: metric.traffic)
            let totalTime = segments.reduce(0.0) { $0 + $1.current }
            guard totalTime.isFinite, totalTime > 0 else { return }
            let scale = weight / totalTime   // ms of the metric per ms of segment time
            let value = label[node] < CCHMetric.infinity ? Double(TurnCosts.duration(ofSearchCost: label[node])) : .infinity
            let snapPartial = snappedPartial(node).map(Double.init)
            let snapPosition = snapPartial == nil ? 0 : (d & 1 == 0 ? snap.offset : graph.edgeLength[d >> 1] - snap.offset)
            /// ms at which the point `elapsed` ms of metric time into the edge is reached (or from which the snap is reached).
            func time(elapsed: Double, metres: Double) -> Double {
                if reverse {
                    guard let snapPartial else { return value + (weight - elapsed) }   // to the edge end, then on to the snap
                    // The snapped edge: straight to the snap if it lies ahead, else round a loop from the edge end.
                    var best = Double.infinity
                    if metres <= snapPosition { best = snapPartial - elapsed }
                    if let loop = sweep.loop[node] { best = min(best, Double(loop) + (weight - elapsed)) }
                    return best
                }
                var best = value - weight + elapsed
                if let snapPartial, metres >= snapPosition { best = min(best, elapsed - snapPartial) }
                return best
            }
            var travelled = 0.0, elapsed = 0.0
            for segment in segments {
                let a = graph.coordinate(shapePoint: segment.from), b = graph.coordinate(shapePoint: segment.to)
                let samples = max(1, Int((segment.length / step).rounded(.up)))
                let segmentTime = segment.current * scale
                for k in 0...samples {
                    let t = Double(k) / Double(samples)
                    let at = time(elapsed: elapsed + segmentTime * t, metres: travelled + segment.length * t)
                    guard at <= limit else { continue }
                    grid.mark(Coordinate(lat: a.lat + (b.lat - a.lat) * t, lon: a.lon + (b.lon - a.lon) * t), Float(max(0, at) / 60_000))
                }
                travelled += segment.length
                elapsed += segmentTime
            }
        }
        // Edges are sampled on all cores, each into its own grid, merged by minimum (when the grids are small).
        let workers = grid.minutes.count <= 4_000_000 && reached.count >= 2048 ? Parallel.workerCount : 1
        if workers == 1 {
            for node in reached { sample(node, into: &grid) }
            return grid
        }
        var grids = (0..<workers).map { _ in
            var copy = grid
            copy.minutes = ContiguousArray(repeating: .infinity, count: grid.minutes.count)
            return copy
        }
        grids.withUnsafeMutableBufferPointer { buffer in
            let shared = SharedBuffer(buffer)
            Parallel.run(workers) { worker in
                for index in stride(from: worker, to: reached.count, by: workers) { sample(reached[index], into: &shared.pointer[worker]) }
            }
        }
        grid.minutes.withUnsafeMutableBufferPointer { minutes in
            for other in grids {
                other.minutes.withUnsafeBufferPointer { values in
                    for index in 0..<minutes.count where values[index] < minutes[index] { minutes[index] = values[index] }
                }
            }
        }
        return grid
    }
}
