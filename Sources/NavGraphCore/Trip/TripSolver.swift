import Foundation

/// Orders the stops of a trip on a cost matrix (seconds, row-major, asymmetric; `TripSolver.unreachable` for no
/// path): the tour starts at stop 0 and either returns to it (`roundtrip`) or ends at the last stop. Exact by
/// Held–Karp dynamic programming up to `exactLimit` stops, else farthest insertion improved by 2-opt and Or-opt.
public struct TripSolver: Sendable {
    /// Cost of a missing path: large enough that any tour using one costs more than every tour without.
    public static let unreachable = 1e12
    /// Stops up to which the dynamic programme is used (2^(n−1)·(n−1) states).
    public static let exactLimit = 12

    public let count: Int
    public let cost: [Double]
    /// true: a cycle back to stop 0; false: a path from stop 0 to stop `count − 1`.
    public let roundtrip: Bool

    public init(count: Int, cost: [Double], roundtrip: Bool) {
        self.count = count; self.cost = cost; self.roundtrip = roundtrip
    }

    @inline(__always) package func c(_ a: Int, _ b: Int) -> Double { cost[a * count + b] }

    /// The tour's cost (with the closing arc when `roundtrip`).
    public func tourCost(_ order: [Int]) -> Double {
        var total = 0.0
        for (a, b) in zip(order, order.dropFirst()) { total += c(a, b) }
        if roundtrip, let last = order.last, let first = order.first, order.count > 1 { total += c(last, first) }
        return total
    }

    /// The best order found: exact up to `exactLimit` stops, heuristic above.
    public func solve() -> [Int] {
        if count <= 2 { return Array(0..<count) }
        return count <= Self.exactLimit ? exact() : heuristic()
    }

    /// Kicks of the iterated local search: each reorders three runs of the best tour (a double bridge, which 2-opt
    /// and Or-opt cannot undo in one move) and improves the result again.
    public static let kicks = 60

    /// Farthest insertion improved by 2-opt and Or-opt, then `kicks` rounds of iterated local search (a fixed seed,
    /// so the same matrix gives the same tour).
    public func heuristic() -> [Int] {
        var best = improved(farthestInsertion())
        var bestCost = tourCost(best)
        let movable = roundtrip ? count - 1 : count - 2   // positions 1...movable may change
        guard movable >= 4 else { return best }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<Self.kicks {
            var cuts = Set<Int>()
            while cuts.count < 3 { cuts.insert(1 + next(movable)) }
            let sorted = cuts.sorted()
            let (a, b, c) = (sorted[0], sorted[1], sorted[2])
            var kicked = Array(best[..<a])
            kicked += best[b..<c]
            kicked += best[a..<b]
            kicked += best[c...]
            let candidate = improved(kicked)
            let cost = tourCost(candidate)
            if cost < bestCost - 1e-9 { best = candidate; bestCost = cost }
        }
        return best
    }

    /// Held–Karp: the cheapest order over all permutations that start at 0 (and, for a path, end at `count − 1`).
    public func exact() -> [Int] {
        let n = count
        guard n > 2 else { return Array(0..<n) }
        // Free stops: 1..<n for a cycle, 1..<(n−1) for a path (whose end is fixed).
        let free = roundtrip ? Array(1..<n) : Array(1..<(n - 1))
        let m = free.count
        if m == 0 { return [0, n - 1] }
        let states = 1 << m
        var best = [Double](repeating: .infinity, count: states * m)
        var from = [Int8](repeating: -1, count: states * m)
        for j in 0..<m { best[(1 << j) * m + j] = c(0, free[j]) }
        for mask in 1..<states {
            for j in 0..<m where mask & (1 << j) != 0 {
                let value = best[mask * m + j]
                guard value < .infinity else { continue }
                for k in 0..<m where mask & (1 << k) == 0 {
                    let next = mask | (1 << k), candidate = value + c(free[j], free[k])
                    if candidate < best[next * m + k] { best[next * m + k] = candidate; from[next * m + k] = Int8(j) }
                }
            }
        }
        let full = states - 1, end = roundtrip ? 0 : n - 1
        var last = 0, lowest = Double.infinity
        for j in 0..<m {
            let total = best[full * m + j] + c(free[j], end)
            if total < lowest { lowest = total; last = j }
        }
        var order: [Int] = []
        var mask = full, j = last
        while j >= 0 {
            order.append(free[j])
            let previous = Int(from[mask * m + j])
            mask &= ~(1 << j)
            j = previous
        }
        return [0] + order.reversed() + (roundtrip ? [] : [n - 1])
    }

    /// Farthest insertion: the stop farthest from the tour goes in where it adds least, until all are in.
    public func farthestInsertion() -> [Int] {
        let n = count
        var tour = roundtrip ? [0] : [0, n - 1]
        var inTour = [Bool](repeating: false, count: n)
        for stop in tour { inTour[stop] = true }
        // Distance of each stop to the tour: the cheaper way to or from its nearest tour stop.
        var gap = (0..<n).map { stop in tour.map { min(c($0, stop), c(stop, $0)) }.min() ?? 0 }
        while tour.count < n {
            var farthest = -1
            for stop in 0..<n where !inTour[stop] && (farthest < 0 || gap[stop] > gap[farthest]) { farthest = stop }
            var bestPosition = 1, bestAdded = Double.infinity
            let arcs = roundtrip ? tour.count : tour.count - 1
            for position in 0..<arcs {
                let a = tour[position], b = tour[(position + 1) % tour.count]
                let added = c(a, farthest) + c(farthest, b) - (tour.count > 1 ? c(a, b) : 0)
                if added < bestAdded { bestAdded = added; bestPosition = position + 1 }
            }
            tour.insert(farthest, at: bestPosition)
            inTour[farthest] = true
            for stop in 0..<n where !inTour[stop] { gap[stop] = min(gap[stop], c(farthest, stop), c(stop, farthest)) }
        }
        return tour
    }

    /// 2-opt (segment reversal, costed in both directions since the matrix is asymmetric) and Or-opt (moving a run of
    /// one to three stops elsewhere), until neither improves the tour. Stop 0 stays first and, for a path, the last stays last.
    public func improved(_ start: [Int]) -> [Int] {
        var tour = start
        if roundtrip { tour.append(0) }   // closed: the tour's last arc returns to 0
        let last = tour.count - 1          // positions 0 and `last` are fixed
        var improvedAny = true
        var rounds = 0
        while improvedAny && rounds < 100 {
            improvedAny = false
            rounds += 1
            // 2-opt: reverse tour[i+1...j].
            var forward = [Double](repeating: 0, count: tour.count), backward = [Double](repeating: 0, count: tour.count)
            func prefix() {
                for k in 1..<tour.count {
                    forward[k] = forward[k - 1] + c(tour[k - 1], tour[k])
                    backward[k] = backward[k - 1] + c(tour[k], tour[k - 1])
                }
            }
            prefix()
            for i in 0..<(last - 1) {
                for j in (i + 2)..<last {
                    let old = forward[j + 1] - forward[i]
                    let new = c(tour[i], tour[j]) + (backward[j] - backward[i + 1]) + c(tour[i + 1], tour[j + 1])
                    if new < old - 1e-9 {
                        tour[(i + 1)...j].reverse()
                        prefix()
                        improvedAny = true
                    }
                }
            }
            // Or-opt: move tour[i..<i+length] between tour[p] and tour[p+1].
            for length in 1...3 {
                var i = 1
                while i + length <= last {
                    let a = tour[i - 1], first = tour[i], end = tour[i + length - 1], b = tour[i + length]
                    let removed = c(a, first) + c(end, b) - c(a, b)
                    var bestGain = 1e-9, bestPosition = -1
                    for p in 0..<last where p < i - 1 || p >= i + length {
                        let x = tour[p], y = tour[p + 1]
                        let gain = removed - (c(x, first) + c(end, y) - c(x, y))
                        if gain > bestGain { bestGain = gain; bestPosition = p }
                    }
                    if bestPosition >= 0 {
                        let run = Array(tour[i..<(i + length)])
                        tour.removeSubrange(i..<(i + length))
                        let insertAt = bestPosition < i ? bestPosition + 1 : bestPosition + 1 - length
                        tour.insert(contentsOf: run, at: insertAt)
                        improvedAny = true
                    } else {
                        i += 1
                    }
                }
            }
        }
        if roundtrip { tour.removeLast() }
        return tour
    }
}
