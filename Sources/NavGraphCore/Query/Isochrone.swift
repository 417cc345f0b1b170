import Foundation

/// Areas reachable from a point (or from which a point is reached) within given minutes, as polygons.
public struct Isochrone: Sendable {
    /// One contour: its minutes and its polygons as lon/lat rings (first ring outer, then holes; rings closed).
    public struct Contour: Sendable {
        public var minutes: Double
        public var polygons: [[[Coordinate]]]
    }

    public var contours: [Contour]
    /// The snapped centre.
    public var snap: Snap
    /// Grid cell size used, in metres.
    public var cellMetres: Double

    /// Options of an isochrone computation.
    public struct Options: Sendable {
        /// Contour times in minutes.
        public var minutes: [Double] = [5, 10, 15]
        /// "From where can I reach the point" instead of "where can I reach from the point".
        public var reverse = false
        /// Target grid cell in metres (coarsened for very large areas).
        public var cellMetres = 50.0
        /// Unreached areas enclosed by a contour become holes only from this many square metres on.
        public var minimumHoleSquareMetres = 200_000.0
        public init() {}
    }

    /// Computes the contours around `snap` under `metric`: one-to-all times (`OneToAllSweep`), then the reached
    /// road network rasterised (`ReachRasterizer`) and traced (`ContourTracer`).
    public static func compute(router: Router, snap: Snap, metric: RoutingMetric, options: Options,
                               sweep: OneToAllSweep? = nil) -> (Isochrone, OneToAllSweep) {
        let graph = router.graph
        let sweep = sweep ?? OneToAllSweep(graph: graph)
        if options.reverse {
            sweep.backward(to: snap, metric: metric, costs: router.costs)
        } else {
            sweep.forward(from: snap, metric: metric, costs: router.costs)
        }
        let limit = options.minutes.max() ?? 0
        let grid = ReachRasterizer.rasterize(graph: graph, metric: metric, sweep: sweep, reverse: options.reverse, snap: snap,
                                             limitMinutes: limit, cellMetres: options.cellMetres)
        let cellMetres = grid.cellLat * 111_195
        let minimumHole = max(1, Int(options.minimumHoleSquareMetres / (cellMetres * cellMetres)))
        var contours: [Contour] = []
        for minutes in options.minutes.sorted() {
            let threshold = Float(minutes)
            let polygons = ContourTracer.polygons(columns: grid.columns, rows: grid.rows, minimumHolePixels: minimumHole) {
                grid.minutes[$0] <= threshold
            }
            contours.append(Contour(minutes: minutes, polygons: polygons.map { polygon in
                ([polygon.outer] + polygon.holes).map { ring in
                    var coordinates = ring.map { grid.corner($0.0, $0.1) }
                    if let first = coordinates.first { coordinates.append(first) }
                    return coordinates
                }
            }))
        }
        return (Isochrone(contours: contours, snap: snap, cellMetres: cellMetres), sweep)
    }
}
