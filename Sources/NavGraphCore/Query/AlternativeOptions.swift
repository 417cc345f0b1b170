/// What makes an alternative route acceptable ("admissible" in Abraham, Delling, Goldberg, Werneck,
/// "Alternative routes in road networks", JEA 2013), and how many candidates each leg may try.
///
/// Costs are the request metric's weights in milliseconds (travel time, with traffic; plus penalties in
/// `prefer` avoid mode), so sharing, stretch and local optimality are all measured by weight, not by length.
public struct AlternativeOptions: Sendable {
    /// γ, limited sharing: the directed edges an alternative has in common with the primary route, and with each
    /// earlier alternative, may weigh at most γ × the primary's cost. Shared edges count with their full weight,
    /// including the partly driven first and last edges, so the measure errs on the side of more sharing.
    public var maximumSharing = 0.75
    /// α, local optimality: every subpath of an alternative costing at most α × the primary's cost is a shortest path.
    public var localOptimality = 0.25
    /// ε, bounded stretch: an alternative costs at most (1 + ε × `stretchScale`) × the primary's cost.
    public var maximumStretch = 0.25
    /// Via-node candidates whose paths are unpacked and screened (sharing, no repeated road) per leg,
    /// for each alternative asked for; at least 12 in all.
    public var unpackedPerAlternative = 8
    /// Screened candidates given the local-optimality test (one point-to-point query each) per leg,
    /// for each alternative asked for; at least 8 in all.
    public var testedPerAlternative = 6

    public init() {}

    /// Multiplier of ε for a primary route of `seconds`: like OSRM's MLD alternatives, short trips may stretch
    /// more (a 10-minute trip may take 13 minutes) and long ones less, but here as a continuous function:
    /// 1.2 up to 10 min, falling linearly to 1.0 at 30 min, 1.0 up to 1 h, then falling linearly to 0.5 at 10 h.
    public static func stretchScale(seconds: Double) -> Double {
        let minute = 60.0, hour = 3600.0
        if seconds <= 10 * minute { return 1.2 }
        if seconds <= 30 * minute { return 1.2 - 0.2 * (seconds - 10 * minute) / (20 * minute) }
        if seconds <= hour { return 1.0 }
        return max(0.5, 1.0 - 0.5 * (seconds - hour) / (9 * hour))
    }

    /// Candidates unpacked per leg when `count` alternatives are asked for.
    public func maximumUnpacked(count: Int) -> Int { max(12, unpackedPerAlternative * count) }

    /// Local-optimality tests per leg when `count` alternatives are asked for.
    public func maximumTested(count: Int) -> Int { max(8, testedPerAlternative * count) }

    /// The highest cost an alternative may have, in ms, for a primary costing `shortest` ms.
    public func maximumCost(shortest: Int) -> Int {
        let epsilon = maximumStretch * AlternativeOptions.stretchScale(seconds: Double(shortest) / 1000)
        return Int((Double(shortest) * (1 + epsilon)).rounded(.down))
    }
}
