import Foundation
import NavGraphCore

/// Turn costs of the cycling and walking profiles (after OSRM v26 bicycle.lua's and foot.lua's `process_turn`), one
/// cost in milliseconds per turn-graph arc of the active road set, each profile its own:
/// - bicycle and e-scooter: the turn's angle, `(angle / 90)² × turnPenaltySeconds`, divided by `turnBias` for right
///   turns and multiplied by it for left ones, where the junction joins more than two roads, or two roads of
///   different names (where OSRM keeps the junction), or for a U-turn; plus `uTurnPenaltySeconds` for a U-turn;
/// - foot: `footUTurnPenaltySeconds` for a U-turn only;
/// - every profile: `TurnCosts.trafficSignalSeconds` at a traffic signal at the junction or along the entered edge
///   (direction-aware), and no other control;
/// - bicycle only: a traffic signal where the road just goes on (inside an edge, or where two ways of one name meet)
///   costs `straightSignalSeconds` more, whichever way it faces. OSRM judges such a signal with the profile's turn
///   function at an angle of 180° (straight on in its internal convention), and bicycle.lua, unlike car.lua, applies
///   its angle penalty at every turn: a cyclist's signal on a road costs about 19 s in OSRM. navgraph matches it.
public enum ActiveTurnCosts {
    /// Cost of a right angle for a cyclist (bicycle.lua `turn_penalty`).
    public static let turnPenaltySeconds = 6.0
    /// Left turns cost this much more, right turns this much less (bicycle.lua `turn_bias`).
    public static let turnBias = 1.4
    /// Added to a cyclist's U-turn (bicycle.lua `u_turn_penalty`).
    public static let uTurnPenaltySeconds = 20.0
    /// Added to a pedestrian's U-turn (foot.lua `u_turn_penalty`).
    public static let footUTurnPenaltySeconds = 2.0
    /// What OSRM's bicycle adds at a traffic signal on a road that just goes on: its angle penalty at 180°.
    public static let straightSignalSeconds = anglePenalty(angle: 180)

    /// Seconds a cyclist's turn by `angle` degrees costs (positive to the right, ±180 a U-turn), before the U-turn penalty.
    public static func anglePenalty(angle: Double) -> Double {
        let share = angle / 90
        return angle >= 0 ? share * share * turnPenaltySeconds / turnBias : share * share * turnPenaltySeconds * turnBias
    }

    /// Milliseconds per arc of `turns` (same order as `turns.head`) for `profile`, one of the active road set's.
    /// With `junctions`, the profile's own roads decide: a junction's degree counts only the roads it may use, and a
    /// U-turn where the profile may not turn back (`ProfileJunctions.turnsBack`), or any other turn through one of its
    /// barriers (`ProfileJunctions.blocks`), costs `ProfileTurnCosts.forbiddenTurn`.
    package static func compute(network: RoadNetwork, turns: TurnGraph, profile: ProfileID, junctions: ProfileJunctions? = nil) -> ContiguousArray<UInt32> {
        let riding = profile != .foot
        let own = junctions.flatMap { $0.index(of: profile) }
        let degree = own == nil ? TurnCosts.junctionDegrees(network) : []
        var entryDelay = ContiguousArray<UInt32>(repeating: UInt32.max, count: 2 * network.edgeCount)
        var result = ContiguousArray<UInt32>(repeating: 0, count: turns.arcCount)
        for node in 0..<turns.nodeCount {
            let d = Int(turns.directedEdge[node])
            let junction = TurnCosts.junctionReached(network, by: d)
            let junctionDegree = own.flatMap { junctions?.degree(profile: $0, at: junction) } ?? degree[junction]
            let turnsBack = own.flatMap { junctions?.turnsBack(profile: $0, at: junction) } ?? true
            let blocked = own.flatMap { junctions?.blocks(profile: $0, at: junction) } ?? false
            let control = NodeControl(rawValue: junction < network.nodeControl.count ? network.nodeControl[junction] : 0)
            let signalled = control.contains(.trafficSignals)
            let atJunction = signalled ? TurnCosts.trafficSignalSeconds : 0
            let inBearing = riding ? TurnCosts.bearing(network, directedEdge: d, arriving: true) : 0
            for arc in Int(turns.firstOut[node])..<Int(turns.firstOut[node + 1]) {
                let n = Int(turns.directedEdge[Int(turns.head[arc])])
                var seconds = atJunction
                let isUTurn = n == d ^ 1
                if riding {
                    let kept = junctionDegree > 2 || isUTurn
                        || (network.edgeWay[n >> 1] != network.edgeWay[d >> 1] && network.edgeName[n >> 1] != network.edgeName[d >> 1])
                    if kept {
                        let angle = isUTurn ? 180 : TurnCosts.normalized(TurnCosts.bearing(network, directedEdge: n, arriving: false) - inBearing)
                        seconds += anglePenalty(angle: angle)
                    } else if signalled && profile == .bicycle {
                        seconds += straightSignalSeconds
                    }
                    if isUTurn { seconds += uTurnPenaltySeconds }
                } else if isUTurn {
                    seconds += footUTurnPenaltySeconds
                }
                if entryDelay[n] == UInt32.max {
                    entryDelay[n] = TurnCosts.milliseconds(innerSignalDelay(network, directedEdge: n, straight: profile == .bicycle ? straightSignalSeconds : 0))
                }
                let closed = isUTurn ? !turnsBack : blocked
                result[arc] = closed ? ProfileTurnCosts.forbiddenTurn : TurnCosts.milliseconds(seconds) + entryDelay[n]
            }
        }
        return result
    }

    /// Seconds of the traffic signals on directed edge d's inner shape points: `TurnCosts.trafficSignalSeconds` for
    /// each facing it, `straight` for each whichever way it faces.
    package static func innerSignalDelay(_ network: RoadNetwork, directedEdge d: Int, straight: Double) -> Double {
        let first = Int(network.edgeShapeFirst[d >> 1]), last = Int(network.edgeShapeFirst[(d >> 1) + 1]) - 1
        guard last - first >= 2, network.shapeControl.count > last else { return 0 }
        var seconds = 0.0
        for index in (first + 1)..<last {
            let control = NodeControl(rawValue: network.shapeControl[index]).intersection([.trafficSignals, .signalsForwardOnly, .signalsBackwardOnly])
            if !control.isEmpty { seconds += straight + TurnCosts.controlDelay(control, alongWay: d & 1 == 0) }
        }
        return seconds
    }
}
