/// Polygons (outer rings with holes) bounding the union of grid-point pixels that satisfy a predicate.
///
/// Each true grid point owns the square pixel around it; boundary edges between true and false pixels are
/// chained into rings with the true side on the left (outer rings counter-clockwise, holes clockwise, as
/// RFC 7946 wants), turning left where two true pixels touch only at a corner so that rings stay simple.
/// False regions enclosed by true pixels become holes only if they span at least `minimumHolePixels`.
public enum ContourTracer {
    /// A polygon in grid-corner coordinates: corner (i, j) is the lower-left corner of pixel (i, j).
    public struct Polygon: Sendable {
        public var outer: [(Int, Int)]
        public var holes: [[(Int, Int)]]
    }

    public static func polygons(columns: Int, rows: Int, minimumHolePixels: Int, isInside: (Int) -> Bool) -> [Polygon] {
        var inside = ContiguousArray<Bool>(repeating: false, count: columns * rows)
        for index in 0..<inside.count { inside[index] = isInside(index) }
        fillSmallHoles(&inside, columns: columns, rows: rows, minimum: minimumHolePixels)
        @inline(__always) func at(_ i: Int, _ j: Int) -> Bool { i >= 0 && j >= 0 && i < columns && j < rows && inside[j * columns + i] }
        // Directed boundary edges by start corner; corner id = j * (columns + 1) + i. Direction 0 E, 1 N, 2 W, 3 S.
        let stride = columns + 1
        var outgoing: [Int: [Int]] = [:]   // corner -> directions leaving it
        for j in 0..<rows {
            for i in 0..<columns where inside[j * columns + i] {
                if !at(i, j - 1) { outgoing[j * stride + i, default: []].append(0) }
                if !at(i + 1, j) { outgoing[j * stride + i + 1, default: []].append(1) }
                if !at(i, j + 1) { outgoing[(j + 1) * stride + i + 1, default: []].append(2) }
                if !at(i - 1, j) { outgoing[(j + 1) * stride + i, default: []].append(3) }
            }
        }
        let step = [(1, 0), (0, 1), (-1, 0), (0, -1)]
        var rings: [[(Int, Int)]] = []
        for start in outgoing.keys.sorted() {
            while let first = outgoing[start]?.first {
                var ring: [(Int, Int)] = []
                var corner = start, direction = first
                remove(&outgoing, corner, direction)
                while true {
                    let i = corner % stride, j = corner / stride
                    if ring.count >= 2 && collinear(ring[ring.count - 2], ring[ring.count - 1], (i, j)) {
                        ring[ring.count - 1] = (i, j)
                    } else {
                        ring.append((i, j))
                    }
                    corner = (j + step[direction].1) * stride + i + step[direction].0
                    if corner == start { break }
                    // Prefer the left turn, then straight on, then the right turn.
                    guard let options = outgoing[corner],
                          let chosen = [(direction + 1) % 4, direction, (direction + 3) % 4].first(where: options.contains) else { break }
                    direction = chosen
                    remove(&outgoing, corner, direction)
                }
                if ring.count >= 2, collinear(ring[ring.count - 2], ring[ring.count - 1], ring[0]) { ring.removeLast() }
                if ring.count >= 3 { rings.append(ring) }
            }
        }
        var outers: [(ring: [(Int, Int)], area: Double)] = [], holes: [[(Int, Int)]] = []
        for ring in rings {
            let area = signedArea(ring)
            if area > 0 { outers.append((ring, area)) } else { holes.append(ring) }
        }
        var result = outers.map { Polygon(outer: $0.ring, holes: []) }
        for hole in holes {
            // A point just left of the hole's first edge lies in a true pixel inside the enclosing outer ring.
            let a = hole[0], b = hole[1 % hole.count]
            let dx = Double(b.0 - a.0), dy = Double(b.1 - a.1), length = max(1e-9, (dx * dx + dy * dy).squareRoot())
            let probe = (Double(a.0) + dx / length * 0.5 - dy / length * 0.25, Double(a.1) + dy / length * 0.5 + dx / length * 0.25)
            var best = -1, bestArea = Double.infinity
            for (index, outer) in outers.enumerated() where outer.area < bestArea && contains(outer.ring, probe) {
                best = index; bestArea = outer.area
            }
            if best >= 0 { result[best].holes.append(hole) }
        }
        return result
    }

    private static func remove(_ outgoing: inout [Int: [Int]], _ corner: Int, _ direction: Int) {
        guard var list = outgoing[corner], let index = list.firstIndex(of: direction) else { return }
        list.remove(at: index)
        outgoing[corner] = list.isEmpty ? nil : list
    }

    private static func collinear(_ a: (Int, Int), _ b: (Int, Int), _ c: (Int, Int)) -> Bool {
        (b.0 - a.0) * (c.1 - b.1) == (b.1 - a.1) * (c.0 - b.0)
    }

    static func signedArea(_ ring: [(Int, Int)]) -> Double {
        var sum = 0
        for index in ring.indices {
            let a = ring[index], b = ring[(index + 1) % ring.count]
            sum += a.0 * b.1 - b.0 * a.1
        }
        return Double(sum) / 2
    }

    package static func contains(_ ring: [(Int, Int)], _ point: (Double, Double)) -> Bool {
        var inside = false
        var previous = ring[ring.count - 1]
        for current in ring {
            let (xi, yi) = (Double(current.0), Double(current.1)), (xj, yj) = (Double(previous.0), Double(previous.1))
            if (yi > point.1) != (yj > point.1), point.0 < (xj - xi) * (point.1 - yi) / (yj - yi) + xi { inside.toggle() }
            previous = current
        }
        return inside
    }

    /// Sets false regions that do not touch the grid border and are smaller than `minimum` pixels.
    private static func fillSmallHoles(_ inside: inout ContiguousArray<Bool>, columns: Int, rows: Int, minimum: Int) {
        var seen = ContiguousArray<Bool>(repeating: false, count: inside.count)
        var stack: [Int] = [], region: [Int] = []
        for seed in 0..<inside.count where !inside[seed] && !seen[seed] {
            region.removeAll(keepingCapacity: true)
            var touchesBorder = false
            stack.append(seed); seen[seed] = true
            while let index = stack.popLast() {
                region.append(index)
                let i = index % columns, j = index / columns
                if i == 0 || j == 0 || i == columns - 1 || j == rows - 1 { touchesBorder = true }
                for (a, b) in [(i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)] where a >= 0 && b >= 0 && a < columns && b < rows {
                    let next = b * columns + a
                    if !inside[next] && !seen[next] { seen[next] = true; stack.append(next) }
                }
            }
            if !touchesBorder && region.count < minimum { for index in region { inside[index] = true } }
        }
    }
}
