/// A stretch of one leg between two points, with its share of the segment's annotation.
struct CongestionPiece {
    package var from: Coordinate
    package var to: Coordinate
    package var annotation: SegmentAnnotation?
    /// Share of the annotated distance and duration this piece covers.
    package var share: Double
    package var traversed: Bool

    /// One piece per coordinate pair; the segment holding the vehicle becomes two pieces split at the snapped point.
    package static func split(_ leg: RouteLeg, legIndex: Int, progress: RouteProgress?) -> [CongestionPiece] {
        var pieces: [CongestionPiece] = []
        for s in 0..<max(0, leg.coordinates.count - 1) {
            let a = leg.annotations.indices.contains(s) ? leg.annotations[s] : nil
            let from = leg.coordinates[s], to = leg.coordinates[s + 1]
            let done = progress?.traversedFraction(leg: legIndex, segment: s) ?? 0
            if let progress, done > 0, done < 1 {
                pieces.append(CongestionPiece(from: from, to: progress.snapped, annotation: a, share: done, traversed: true))
                pieces.append(CongestionPiece(from: progress.snapped, to: to, annotation: a, share: 1 - done, traversed: false))
            } else {
                pieces.append(CongestionPiece(from: from, to: to, annotation: a, share: 1, traversed: done >= 1))
            }
        }
        return pieces
    }
}

/// Consecutive pieces of a leg with the same congestion level, toll, ferry and traversed state.
struct CongestionRun {
    package var coordinates: [Coordinate]
    package var congestion: CongestionLevel
    /// Distance-weighted mean of the pieces' numeric congestion; nil when unknown.
    package var congestionNumeric: Int?
    package var isToll: Bool
    package var isFerry: Bool
    package var traversed: Bool
    package var distance: Double
    package var duration: Double

    static func group(_ pieces: [CongestionPiece]) -> [CongestionRun] {
        var runs: [CongestionRun] = []
        var weighted = 0.0, weight = 0.0, sum = 0.0, count = 0
        func finish() {
            guard !runs.isEmpty, runs[runs.count - 1].congestion != .unknown, count > 0 else { return }
            let mean = weight > 0 ? weighted / weight : sum / Double(count)
            runs[runs.count - 1].congestionNumeric = Int(mean.rounded())
        }
        for piece in pieces {
            let a = piece.annotation
            let level = a?.congestion ?? .unknown, toll = a?.isToll ?? false, ferry = a?.isFerry ?? false
            let distance = (a?.distance ?? 0) * piece.share, duration = (a?.duration ?? 0) * piece.share
            if let last = runs.last, last.congestion == level, last.isToll == toll, last.isFerry == ferry,
               last.traversed == piece.traversed {
                runs[runs.count - 1].coordinates.append(piece.to)
                runs[runs.count - 1].distance += distance
                runs[runs.count - 1].duration += duration
            } else {
                finish()
                (weighted, weight, sum, count) = (0, 0, 0, 0)
                runs.append(CongestionRun(coordinates: [piece.from, piece.to], congestion: level, congestionNumeric: nil,
                                isToll: toll, isFerry: ferry, traversed: piece.traversed, distance: distance, duration: duration))
            }
            if let numeric = a?.congestionNumeric {
                weighted += Double(numeric) * distance
                weight += distance
                sum += Double(numeric)
                count += 1
            }
        }
        finish()
        return runs
    }
}
