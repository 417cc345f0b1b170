/// OSRM's last word on `end of road` (in its step post-processing): an end of road helps only where the driver has
/// passed other junctions since the last maneuver, so that "the end of the road" tells which junction is meant.
/// Right after a maneuver (or the start) it is a plain `turn`, or a `continue` when the road keeps its name.
extension StepBuilder {
    /// Rewords every `end of road` in `marks` (collapsed, depart first) that follows its previous maneuver without
    /// a junction of three or more roads in between.
    func wordEndsOfRoad(_ marks: inout [Mark], leg: RouteLeg) {
        for index in marks.indices.dropFirst() where marks[index].type == .endOfRoad {
            let previous = marks[index - 1], mark = marks[index]
            if passesJunction(after: previous.edgeIndex, before: mark.edgeIndex, leg: leg) { continue }
            let edges = leg.directedEdges
            let from = edges[previous.edgeIndex] >> 1, to = edges[mark.edgeIndex] >> 1
            let named = graph.edgeName[to] != 0 || graph.edgeRef[to] != 0
            marks[index].type = named && !classifier.needsNameAnnounced(from: from, to: to) ? .continue : .turn
        }
    }

    /// Whether the leg passes a junction of three or more roads (as its steps list them) strictly between the edge
    /// changes `first` and `last`.
    func passesJunction(after first: Int, before last: Int, leg: RouteLeg) -> Bool {
        guard first + 1 < last else { return false }
        for k in first + 1 ..< last where degrees[k] >= 3 {
            if let junction = view(k, leg), junction.roads.count >= 3 { return true }
        }
        return false
    }
}
