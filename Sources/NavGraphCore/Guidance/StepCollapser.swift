/// Removes or merges maneuvers a driver would not want announced separately: two quick turns through a divided
/// road's median (one turn, or a U-turn), a name change right before another maneuver, and turns that cancel out.
struct StepCollapser {
    package let graph: RoutingGraph
    package let leg: RouteLeg
    /// Metres from the leg's start to each coordinate.
    package let along: ContiguousArray<Double>
    /// Roads at the junction before each edge of the leg (index k as `StepBuilder.degrees`).
    package let degrees: ContiguousArray<UInt32>
    /// Two maneuvers closer than this merge into one (OSRM collapses within a similar distance).
    static let collapseDistance = 30.0

    /// `along` holds the metres from the leg's start to each of its coordinates.
    package init(graph: RoutingGraph, leg: RouteLeg, along: ContiguousArray<Double>, degrees: ContiguousArray<UInt32>) {
        self.graph = graph
        self.leg = leg
        self.along = along
        self.degrees = degrees
    }

    /// A name change said on its own (OSRM's: `new name`, or a straight turn or continue).
    static func isNameChange(_ mark: StepBuilder.Mark) -> Bool {
        mark.type == .newName || ((mark.type == .turn || mark.type == .continue) && mark.modifier == .straight)
    }

    /// Whether no junction of three or more roads lies between two maneuvers.
    func undisturbed(_ first: StepBuilder.Mark, _ second: StepBuilder.Mark) -> Bool {
        guard first.edgeIndex + 1 < second.edgeIndex else { return true }
        return !(first.edgeIndex + 1 ..< second.edgeIndex).contains { $0 < degrees.count && degrees[$0] >= 3 }
    }

    static func isTurnLike(_ type: ManeuverType) -> Bool {
        type == .turn || type == .continue || type == .endOfRoad || type == .newName
    }

    func nameKey(edgeIndex: Int) -> UInt32 {
        let edge = leg.directedEdges[edgeIndex] >> 1
        return graph.edgeName[edge] != 0 ? graph.edgeName[edge] : graph.edgeRef[edge]
    }

    /// The marks of `input` that are kept, merged where they collapse, appended to `marks` (empty on entry).
    package func collapse(_ input: [StepBuilder.Mark], into marks: inout [StepBuilder.Mark]) {
        marks.reserveCapacity(input.count)
        for mark in input {
            guard let previous = marks.last, previous.type != .depart,
                  Self.isTurnLike(previous.type), Self.isTurnLike(mark.type),
                  along[mark.coordinate] - along[previous.coordinate] < Self.collapseDistance else {
                marks.append(mark)
                continue
            }
            let total = Bearing.deviation(from: previous.bearingBefore, to: mark.bearingAfter)
            let nameBefore = previous.edgeIndex > 0 ? nameKey(edgeIndex: previous.edgeIndex - 1) : 0
            let nameAfter = nameKey(edgeIndex: mark.edgeIndex)
            var merged = mark
            merged.coordinate = previous.coordinate
            merged.bearingBefore = previous.bearingBefore
            merged.node = previous.node
            let sameSide = (previous.modifier.map(Self.isRight) ?? false) == (mark.modifier.map(Self.isRight) ?? false)
            let gap = along[mark.coordinate] - along[previous.coordinate]
            if abs(total) > 150 && sameSide && previous.type != .newName && mark.type != .newName {
                // Two quick turns through a median: one U-turn.
                merged.type = nameAfter == nameBefore ? .continue : .turn
                merged.modifier = .uturn
            } else if Self.isNameChange(previous) && !Self.isNameChange(mark) && undisturbed(previous, mark) {
                // A name change just before another maneuver is part of it (OSRM): said where the name changes, with
                // the direction of both together.
                merged.modifier = TurnClassifier.modifier(deviation: total)
            } else if abs(total) <= 20 && !sameSide && gap < 15 {
                // A staggered crossing: left then right (or right then left) onto a road going on straight.
                if nameAfter == nameBefore {
                    marks.removeLast()
                    continue
                }
                merged.type = .newName
                merged.modifier = .straight
            } else {
                marks.append(mark)
                continue
            }
            marks[marks.count - 1] = merged
        }
    }

    static func isRight(_ modifier: ManeuverModifier) -> Bool {
        modifier == .right || modifier == .slightRight || modifier == .sharpRight
    }
}
