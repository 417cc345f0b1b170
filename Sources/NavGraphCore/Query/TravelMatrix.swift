/// A sources × destinations table of fastest-path costs, with the distance and duration of each chosen path.
public struct TravelMatrix: Sendable {
    public let sourceCount: Int
    public let destinationCount: Int
    /// Cost of the fastest path in ms (the metric's weight), row-major; `unreachable` where there is none.
    public var cost: ContiguousArray<UInt32>
    /// Metres along each chosen path, row-major, when distances were asked for.
    public var distance: ContiguousArray<Double>?
    /// Exact seconds along each chosen path (unrounded segment times, without avoid penalties) when they differ
    /// from the cost (traffic or prefer-mode avoidance); otherwise nil and durations are `cost / 1000`.
    public var exactDuration: ContiguousArray<Double>?
    /// How the table was computed, for progress output.
    public var algorithm: String

    /// Marks a cell without a path.
    public static let unreachable = UInt32.max

    /// Seconds from source `row` to destination `column`, or nil if unreachable.
    public func duration(_ row: Int, _ column: Int) -> Double? {
        let index = row * destinationCount + column
        guard cost[index] != Self.unreachable else { return nil }
        return exactDuration.map { $0[index] } ?? Double(TurnCosts.duration(ofSearchCost: cost[index])) / 1000
    }

    /// Metres from source `row` to destination `column`, or nil if unreachable or not computed.
    public func metres(_ row: Int, _ column: Int) -> Double? {
        let index = row * destinationCount + column
        guard cost[index] != Self.unreachable else { return nil }
        return distance?[index]
    }
}
