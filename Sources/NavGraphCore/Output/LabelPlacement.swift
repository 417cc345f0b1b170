/// Picks one label point per route on a stretch no other route shares, so duration labels don't pile up.
enum LabelPlacement {
    /// One point per route (nil for an empty route): the middle of its longest unshared stretch,
    /// or, when it shares everything, a point spread by route index along its geometry.
    package static func points(for routes: [[Coordinate]]) -> [Coordinate?] {
        let keys = routes.map { coords in Set(zip(coords, coords.dropFirst()).map(SegmentKey.init)) }
        return routes.enumerated().map { r, coords in
            guard let first = coords.first else { return nil }
            guard coords.count >= 2 else { return first }
            let others = keys.enumerated().filter { $0.offset != r }.reduce(into: Set<SegmentKey>()) { $0.formUnion($1.element) }
            var best: (start: Int, end: Int, length: Double)?
            var runStart: Int?, runLength = 0.0
            for i in 0..<coords.count - 1 {
                if others.contains(SegmentKey(coords[i], coords[i + 1])) {
                    runStart = nil
                    continue
                }
                if runStart == nil { runStart = i; runLength = 0 }
                runLength += Geo.haversine(coords[i], coords[i + 1])
                if let start = runStart, runLength > best?.length ?? 0 { best = (start, i + 1, runLength) }
            }
            if let best { return point(along: Array(coords[best.start...best.end]), at: 0.5) }
            return point(along: coords, at: Double(r + 1) / Double(routes.count + 1))
        }
    }

    /// The point `fraction` (0…1) of the way along a polyline, measured in metres.
    package static func point(along coords: [Coordinate], at fraction: Double) -> Coordinate? {
        guard var previous = coords.first else { return nil }
        let total = zip(coords, coords.dropFirst()).reduce(0) { $0 + Geo.haversine($1.0, $1.1) }
        var left = total * min(1, max(0, fraction))
        for c in coords.dropFirst() {
            let d = Geo.haversine(previous, c)
            if d > 0, left <= d {
                let t = left / d
                return Coordinate(lat: previous.lat + (c.lat - previous.lat) * t, lon: previous.lon + (c.lon - previous.lon) * t)
            }
            left -= d
            previous = c
        }
        return previous
    }

    /// A segment identified by its endpoints at 1e-6 degrees, regardless of direction.
    private struct SegmentKey: Hashable {
        package let a: [Int64], b: [Int64]

        package init(_ p: Coordinate, _ q: Coordinate) {
            let x = SegmentKey.grid(p), y = SegmentKey.grid(q)
            (a, b) = x.lexicographicallyPrecedes(y) ? (x, y) : (y, x)
        }

        private static func grid(_ c: Coordinate) -> [Int64] {
            c.isValid ? [Int64((c.lat * 1e6).rounded()), Int64((c.lon * 1e6).rounded())] : [.min, .min]
        }
    }
}
