import Foundation

/// One stretch of a trace matched without a break: the trace points it covers, where each was matched, the paths
/// between them, and how plausible the whole is.
public struct Matching: Sendable {
    /// Indices into the input trace of the points matched, in order.
    public var pointIndices: [Int] = []
    /// The directed candidate each point was matched to.
    public var snaps: [Snap] = []
    /// The path from each matched point to the next (`pointIndices.count - 1` of them).
    public var paths: [Router.LegPath] = []
    /// For each matched point: how many other road edges were still plausible candidates (OSRM's `alternatives_count`).
    public var alternatives: [Int] = []
    /// Metres along the matched paths, and the sum of great-circle distances between the matched points.
    public var routeMetres = 0.0
    public var straightMetres = 0.0

    /// Confidence in 0...1: the shorter of the matched route and the straight line through the points over the longer
    /// (1 when the matched route is as long as the trace, lower when it loops or the trace zigzags).
    public var confidence: Double {
        let longer = max(routeMetres, straightMetres)
        return longer <= 0 ? 1 : min(routeMetres, straightMetres) / longer
    }
}

/// A trace's matchings, in trace order, and the metric they were routed under.
public struct MatchResult: Sendable {
    public var matchings: [Matching]
    public var metric: RoutingMetric
    /// For each input point: (matching, position in it), nil for a point left unmatched.
    public var placement: [(matching: Int, index: Int)?]
}
