/// The great-circle length of every segment of the edges map matching has met lately, so that the many candidates
/// made on one edge (consecutive fixes, both directions) measure its shape once. Each length is
/// `Geo.haversine(start, end)` of the segment in stored order, which is the value a walk in either direction
/// computes (the formula is symmetric), so sums over them equal the walks' own.
///
/// Lifetime: one per `MapMatcher`; forgets everything when it holds more than `capacity` lengths.
/// Thread safety: one thread at a time.
final class SegmentLengthCache {
    private let graph: RoutingGraph
    /// Edge → index of its first segment's length in `lengths`.
    @exclusivity(unchecked) private var firstLength: [Int: Int] = [:]
    @exclusivity(unchecked) private var lengths = ContiguousArray<Double>()
    /// Lengths held before the cache starts afresh (about a megabyte).
    let capacity = 1 << 17

    init(graph: RoutingGraph) { self.graph = graph }

    /// Calls `body` with the lengths of the edge's segments in stored order (`edgeShapeFirst[edge]` onwards).
    func withLengths<Result>(ofEdge edge: Int, _ body: (UnsafeBufferPointer<Double>) -> Result) -> Result {
        let first = Int(graph.edgeShapeFirst[edge]), count = max(0, Int(graph.edgeShapeFirst[edge + 1]) - 1 - first)
        let start: Int
        if let known = firstLength[edge] {
            start = known
        } else {
            if lengths.count + count > capacity { lengths.removeAll(keepingCapacity: true); firstLength.removeAll(keepingCapacity: true) }
            start = lengths.count
            var previous = graph.coordinate(shapePoint: first), cosPrevious = Geo.cosLatitude(previous)
            for point in first..<first + count {
                let next = graph.coordinate(shapePoint: point + 1), cosNext = Geo.cosLatitude(next)
                lengths.append(Geo.haversine(previous, next, cosLatA: cosPrevious, cosLatB: cosNext))
                previous = next; cosPrevious = cosNext
            }
            firstLength[edge] = start
        }
        return lengths.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<start + count])) }
    }
}
