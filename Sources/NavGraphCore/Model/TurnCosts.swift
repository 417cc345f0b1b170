import Foundation

/// Turn and junction costs of the car profile (after OSRM v26 car.lua): one cost in milliseconds per turn-graph arc,
/// paid on top of the entered edge's travel time.
///
/// The cost of turning from directed edge `d` into directed edge `n` at junction J is
/// - the controls at J (signals, stop, give way, level crossing), whatever the turn;
/// - where J joins more than two roads, or for a U-turn: the angle sigmoid (longer for turns across traffic),
///   the oncoming-traffic term for turns across it, and the U-turn penalty;
///   going straight on (|angle| < `straightAngle`) along the same way or name costs no angle penalty;
/// - the controls on `n`'s inner shape points (a signal mid-way along the entered edge, direction-aware);
/// - a gate at J (`gateSeconds`), and, in search cost only, `restrictedEntryMilliseconds` for entering a
///   destination-only road from another road.
public enum TurnCosts {
    /// Most a turn's angle can cost (OSRM `turn_penalty`).
    public static let turnPenaltySeconds = 7.5
    /// Skew of the angle sigmoid towards turns across traffic (OSRM `turn_bias`; its inverse where traffic keeps left).
    public static let turnBias = 1.075
    /// Added to turns across oncoming traffic at real junctions, tapered by sharpness (OSRM `oncoming_turn_penalty`).
    public static let oncomingTurnPenaltySeconds = 2.0
    /// Added to a U-turn (OSRM `u_turn_penalty`); U-turns exist at dead ends only.
    public static let uTurnPenaltySeconds = 20.0
    /// Delay at `highway=traffic_signals` (OSRM `traffic_signal_penalty`).
    public static let trafficSignalSeconds = 2.0
    /// Delay at `highway=stop` (OSRM obstacle duration).
    public static let stopSeconds = 2.0
    /// Delay at `highway=give_way` (OSRM obstacle duration).
    public static let giveWaySeconds = 1.0
    /// Delay at `railway=level_crossing` (OSRM charges none; a car slows down to cross).
    public static let levelCrossingSeconds = 1.0
    /// Delay at `barrier=gate|lift_gate` without access tags, on every turn through it (OSRM `barrier_penalties`).
    public static let gateSeconds = 60.0
    /// Search cost, not duration, added to entering a destination-only road (`access=destination|delivery|customers|
    /// permit|residents`) from a road without that restriction: such roads carry a route only to or from a place on them
    /// (OSRM gives that turn its `max_turn_weight`). 24 h, far above any real duration, so that `duration(ofArcCost:)`
    /// and `duration(ofSearchCost:)` can take it out again.
    public static let restrictedEntryMilliseconds: UInt32 = 86_400_000

    /// The time part of a stored or traffic-scaled turn-arc cost (without a restricted-entry penalty), in ms.
    @inline(__always)
    public static func duration(ofArcCost cost: UInt32) -> UInt32 {
        cost >= restrictedEntryMilliseconds ? cost - restrictedEntryMilliseconds : cost
    }

    /// The time part of a whole path's search cost in ms (every real duration is far below one penalty).
    @inline(__always)
    public static func duration(ofSearchCost cost: UInt32) -> UInt32 { cost % restrictedEntryMilliseconds }

    /// Below this angle in degrees, continuing along the same way or name is "straight on" and costs no angle penalty.
    public static let straightAngle = 20.0
    /// Metres along each road from the junction to the point whose bearing gives the turn angle.
    public static let bearingLookahead = 10.0
    /// A mid-edge stop sign closer than this to the edge start (and farther from its end) faces the other way (OSRM's heuristic).
    public static let stopSignReach = 20.0

    /// Seconds the angle of a turn costs: `angle` in degrees, positive to the right, ±180 a U-turn (OSRM's sigmoid).
    public static func anglePenalty(angle: Double, side: DrivingSide) -> Double {
        let bias = side == .left ? 1 / turnBias : turnBias
        if angle >= 0 {
            return turnPenaltySeconds / (1 + exp(-((13 / bias) * angle / 180 - 6.5 * bias)))
        }
        return turnPenaltySeconds / (1 + exp(-((13 * bias) * -angle / 180 - 6.5 / bias)))
    }

    /// Seconds a turn across oncoming traffic waits for a gap (left in right-hand traffic, right in left-hand), else 0.
    public static func oncomingPenalty(angle: Double, side: DrivingSide) -> Double {
        let crosses = side == .left ? angle > 0 : angle < 0
        guard crosses else { return 0 }
        return oncomingTurnPenaltySeconds / (1 + exp(-(13 * abs(angle) / 180 - 3.25)))
    }

    /// Seconds of the controls at one OSM node passed in the given direction along the way (`alongWay`), nil = any.
    public static func controlDelay(_ control: NodeControl, alongWay: Bool?) -> Double {
        var seconds = 0.0
        if control.contains(.trafficSignals) {
            let facing: Bool
            switch alongWay {
            case .some(true): facing = !control.contains(.signalsBackwardOnly)
            case .some(false): facing = !control.contains(.signalsForwardOnly)
            case .none: facing = true
            }
            if facing { seconds += trafficSignalSeconds }
        }
        if control.contains(.stop) { seconds += stopSeconds }
        if control.contains(.giveWay) { seconds += giveWaySeconds }
        if control.contains(.levelCrossing) { seconds += levelCrossingSeconds }
        return seconds
    }

    /// Milliseconds per arc of `turns` (same order as `turns.head`).
    public static func compute(network: RoadNetwork, turns: TurnGraph) -> ContiguousArray<UInt32> {
        let degree = junctionDegrees(network)
        var entryDelay = ContiguousArray<UInt32>(repeating: UInt32.max, count: 2 * network.edgeCount)
        var result = ContiguousArray<UInt32>(repeating: 0, count: turns.arcCount)
        for node in 0..<turns.nodeCount {
            let d = Int(turns.directedEdge[node])
            let junction = junctionReached(network, by: d)
            let junctionPoint = shapeIndex(network, d, fromEnd: true, step: 0)
            let drivingSide = DrivingSide(at: Coordinate(latE7: network.shapeLatE7[junctionPoint], lonE7: network.shapeLonE7[junctionPoint]))
            var atJunction = controlDelay(NodeControl(rawValue: junction < network.nodeControl.count ? network.nodeControl[junction] : 0), alongWay: nil)
            if junction < network.nodeBarrier.count && network.nodeBarrier[junction] == NodeBarrier.gate.rawValue { atJunction += gateSeconds }
            let inBearing = bearing(network, directedEdge: d, arriving: true)
            for arc in Int(turns.firstOut[node])..<Int(turns.firstOut[node + 1]) {
                let n = Int(turns.directedEdge[Int(turns.head[arc])])
                var seconds = atJunction
                let isUTurn = n == d ^ 1
                if degree[junction] > 2 || isUTurn {
                    let angle = isUTurn ? 180 : normalized(bearing(network, directedEdge: n, arriving: false) - inBearing)
                    let sameRoad = network.edgeWay[n >> 1] == network.edgeWay[d >> 1]
                        || (network.edgeName[n >> 1] != 0 && network.edgeName[n >> 1] == network.edgeName[d >> 1])
                    if !(sameRoad && abs(angle) < straightAngle) {
                        seconds += anglePenalty(angle: angle, side: drivingSide)
                        let roundabout = EdgeFlags(rawValue: network.edgeFlags[n >> 1] | network.edgeFlags[d >> 1]).contains(.roundabout)
                        if !isUTurn && !roundabout { seconds += oncomingPenalty(angle: angle, side: drivingSide) }
                    }
                    if isUTurn { seconds += uTurnPenaltySeconds }
                }
                if entryDelay[n] == UInt32.max { entryDelay[n] = milliseconds(innerControlDelay(network, directedEdge: n)) }
                result[arc] = milliseconds(seconds) + entryDelay[n]
                let fromFlags = EdgeFlags(rawValue: network.edgeFlags[d >> 1]), intoFlags = EdgeFlags(rawValue: network.edgeFlags[n >> 1])
                if intoFlags.contains(.destinationOnly) && !fromFlags.contains(.destinationOnly) { result[arc] += restrictedEntryMilliseconds }
            }
        }
        return result
    }

    /// How many edge ends meet at each junction.
    package static func junctionDegrees(_ network: RoadNetwork) -> ContiguousArray<Int32> {
        var degree = ContiguousArray<Int32>(repeating: 0, count: network.nodeCount)
        for edge in 0..<network.edgeCount {
            degree[Int(network.edgeFrom[edge])] += 1
            degree[Int(network.edgeTo[edge])] += 1
        }
        return degree
    }

    /// The junction directed edge d arrives at.
    @inline(__always) package static func junctionReached(_ network: RoadNetwork, by d: Int) -> Int {
        Int(d & 1 == 0 ? network.edgeTo[d >> 1] : network.edgeFrom[d >> 1])
    }

    package static func milliseconds(_ seconds: Double) -> UInt32 { UInt32(max(0, (seconds * 1000).rounded())) }

    /// Degrees in (-180, 180].
    package static func normalized(_ degrees: Double) -> Double {
        var value = degrees.truncatingRemainder(dividingBy: 360)
        if value > 180 { value -= 360 }
        if value <= -180 { value += 360 }
        return value
    }

    /// Shape point index `step` points from the start (or the end) of directed edge d in driving order.
    package static func shapeIndex(_ network: RoadNetwork, _ d: Int, fromEnd: Bool, step: Int) -> Int {
        let first = Int(network.edgeShapeFirst[d >> 1]), last = Int(network.edgeShapeFirst[(d >> 1) + 1]) - 1
        let forward = d & 1 == 0
        return forward != fromEnd ? first + step : last - step
    }

    /// Compass bearing in degrees of directed edge d where it meets the junction: arriving (towards its end) or
    /// leaving (from its start), measured over about `bearingLookahead` metres.
    package static func bearing(_ network: RoadNetwork, directedEdge d: Int, arriving: Bool) -> Double {
        let count = Int(network.edgeShapeFirst[(d >> 1) + 1]) - Int(network.edgeShapeFirst[d >> 1])
        let junctionIndex = shapeIndex(network, d, fromEnd: arriving, step: 0)
        let junction = Coordinate(latE7: network.shapeLatE7[junctionIndex], lonE7: network.shapeLonE7[junctionIndex])
        var other = junction
        for step in 1..<max(2, count) {
            let index = shapeIndex(network, d, fromEnd: arriving, step: step)
            other = Coordinate(latE7: network.shapeLatE7[index], lonE7: network.shapeLonE7[index])
            if Geo.haversine(junction, other) >= bearingLookahead { break }
        }
        let (from, to) = arriving ? (other, junction) : (junction, other)
        let dx = (to.lon - from.lon) * cos(from.lat * .pi / 180), dy = to.lat - from.lat
        return atan2(dx, dy) * 180 / .pi
    }

    /// Seconds of the controls on directed edge d's inner shape points (not its end junctions), in driving order.
    static func innerControlDelay(_ network: RoadNetwork, directedEdge d: Int) -> Double {
        let first = Int(network.edgeShapeFirst[d >> 1]), last = Int(network.edgeShapeFirst[(d >> 1) + 1]) - 1
        guard last - first >= 2, network.shapeControl.count > last else { return 0 }
        let forward = d & 1 == 0
        let length = network.edgeLength[d >> 1]
        var seconds = 0.0
        var travelled = 0.0
        var previous = shapeIndex(network, d, fromEnd: false, step: 0)
        for step in 1..<(last - first) {
            let index = shapeIndex(network, d, fromEnd: false, step: step)
            travelled += Geo.haversine(Coordinate(latE7: network.shapeLatE7[previous], lonE7: network.shapeLonE7[previous]),
                                       Coordinate(latE7: network.shapeLatE7[index], lonE7: network.shapeLonE7[index]))
            previous = index
            var control = NodeControl(rawValue: network.shapeControl[index])
            if control.isEmpty { continue }
            // A stop sign just after the start of the edge belongs to the junction behind (OSRM's 20 m heuristic).
            if control.contains(.stop) && travelled < stopSignReach && length - travelled > stopSignReach { control.remove(.stop) }
            seconds += controlDelay(control, alongWay: forward)
        }
        return seconds
    }
}
