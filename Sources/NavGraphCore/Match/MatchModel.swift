import Foundation

/// The hidden Markov model's parameters (Newson and Krumm 2009), each documented with its default.
public struct MatchModel: Sendable {
    /// Standard deviation of GPS noise in metres when a point has no radius: Newson and Krumm's 4.07 m.
    public static let defaultSigma = 4.07
    /// Scale β of the exponential transition term in metres: the larger, the more a route may differ in length from
    /// the straight line between the points. 10 m, doubled per 10 m of σ above 10 m (noisier traces, looser fit), plus
    /// `betaPerMetre` of the straight line.
    public var beta = 10.0
    /// Metres added to β per metre of great-circle distance between the points: the further apart the fixes, the more
    /// a driven route exceeds the straight line (bends, hairpins, a loop round a block), so a sparse fix on a bend is
    /// not pulled onto a straight side street. 0.25: a step of 100 m has β 35 m, one of 10 m (1 s sampling in town)
    /// 12.5 m.
    public var betaPerMetre = 0.25
    /// Candidates are sought within this many σ of a point (at least `minimumSearchRadius`).
    public var searchSigmas = 4.0
    /// Metres within which candidates are always sought, however small σ.
    public var minimumSearchRadius = 25.0
    /// Nearest road edges kept per point (each contributes a candidate per drivable direction).
    public var maximumEdges = 20
    /// With `gaps=split`, consecutive points further apart in time than this (seconds) start a new matching.
    public var maximumTimeGap = 60.0
    /// Consecutive points further apart than this (metres, great circle) start a new matching.
    public var maximumDistanceGap = 2_000.0
    /// A transition whose route exceeds the great-circle distance by more than this (metres, plus twice the
    /// straight distance) is impossible.
    public var maximumDetour = 1_000.0
    /// With timestamps, a transition longer than this speed (m/s, 200 km/h) over the time between the points, plus
    /// twice the standstill tolerance, is impossible: at 1 s sampling noise cannot buy a loop around the block.
    public var maximumSpeed = 55.0
    /// With timestamps, a route that could be driven in the time between its points only faster than this multiple of
    /// the profile's speeds (the metric's durations, so live traffic counts), give or take σ metres of noise, pays for
    /// the metres beyond as for a detour (the temporal term of Lou et al.'s ST-Matching, 2009): a car at trunk-road speed
    /// beside a slower frontage road stays on the trunk road. Motor profiles only, since a cyclist downhill or a runner
    /// outpaces the profile's speed; 0 turns it off.
    public var speedTolerance = 1.5
    /// A point lying behind the previous one by at most this many σ (and 5 m) of road counts as standing still.
    public var standstillSigmas = 3.0
    /// A candidate whose best path's log-likelihood lies more than this below the best candidate's of its point is
    /// not continued (a beam: e^−20 is about 2 × 10⁻⁹ of the best path's probability).
    public var beamWidth = 20.0
    /// Points in a row that may be skipped (left unmatched) because the chain cannot reach them, before the trace
    /// splits there: a few wild fixes do not cut a drive in two.
    public var maximumSkippedPoints = 10
    /// With `tidy=true`, a point within this many metres of the last kept point is dropped.
    public var tidyMetres = 10.0
    /// A transition is sought only among routes that take at most its longest accepted length at this speed (m/s),
    /// plus `transitionTurnAllowance`: the bound that keeps each step's searches local. 2 m/s is walking pace, so a
    /// route of acceptable length that takes longer is a crawl no trace samples.
    public var minimumTransitionSpeed = 2.0
    /// Seconds added to that bound for turns and signals on the way (a U-turn costs about 27 s).
    public var transitionTurnAllowance = 120.0

    public init() {}

    /// The cost bound (ms) of a step's searches for routes of at most `metres`.
    package func costBound(metres: Double) -> UInt32 {
        let seconds = metres / max(0.1, minimumTransitionSpeed) + transitionTurnAllowance
        return UInt32(min(Double(CCHMetric.infinity - 1), max(0, seconds * 1000)))
    }

    /// β for a step between points `straight` metres apart with noise σ.
    func beta(sigma: Double, straight: Double) -> Double {
        (sigma <= 10 ? beta : beta * pow(2, (sigma - 10) / 10)) + betaPerMetre * straight
    }
}

/// One GPS fix of a trace: where, optionally when (Unix seconds), and its accuracy (σ in metres), if known.
public struct TracePoint: Sendable {
    public var coordinate: Coordinate
    public var timestamp: Double?
    public var sigma: Double?

    public init(coordinate: Coordinate, timestamp: Double? = nil, sigma: Double? = nil) {
        self.coordinate = coordinate; self.timestamp = timestamp; self.sigma = sigma
    }
}

/// Options of one map-matching request.
public struct MatchOptions: Sendable {
    public var model = MatchModel()
    /// Split where consecutive timestamps are further apart than `maximumTimeGap` (`gaps=split`, the default) or not.
    public var splitGaps = true
    /// Drop points bunched within `tidyMetres` of the previous kept one.
    public var tidy = false
    public var avoid: AvoidSet = []
    public var traffic: TrafficOverlay?
    public var vehicle: VehicleDimensions?

    public init() {}
}
