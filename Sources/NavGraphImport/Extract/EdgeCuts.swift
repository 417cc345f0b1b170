import NavGraphCore
/// How the road-network build cuts an accepted way's located nodes into edges: an edge runs between two junctions
/// (nodes used more than once or ending a way), and a node missing from the file ends the edge before it. Each edge
/// is a run of consecutive positions in the way's node list, so the cuts are given as (first, last) positions.
package enum EdgeCuts {
    /// Calls `body(first, last)` for each edge of the way whose located nodes are `nodes[range]` (-1: missing), in order.
    @inline(__always)
    package static func forEach(_ nodes: ContiguousArray<Int32>, _ range: Range<Int>, useCount: ContiguousArray<UInt8>,
                        _ body: (_ first: Int, _ last: Int) -> Void) {
        var start = -1  // the position of the edge's first node; -1 while no edge is open
        for position in range {
            let index = nodes[position]
            if index < 0 {
                if start >= 0 && position - start >= 2 { body(start, position - 1) }
                start = -1
            } else if start < 0 {
                start = position
            } else if useCount[Int(index)] >= 2 {
                body(start, position)
                start = position
            }
        }
        if start >= 0 && range.upperBound - start >= 2 { body(start, range.upperBound - 1) }
    }

    /// The number of edges and shape points the cuts of all ways give (`wayNodeFirst`: where each way's nodes start).
    package static func counts(wayNodeIndex: ContiguousArray<Int32>, wayNodeFirst: ContiguousArray<Int>,
                       useCount: ContiguousArray<UInt8>) -> (edges: Int, shapePoints: Int) {
        var edges = 0, shapePoints = 0
        for way in 0..<(wayNodeFirst.count - 1) {
            forEach(wayNodeIndex, wayNodeFirst[way]..<wayNodeFirst[way + 1], useCount: useCount) { first, last in
                edges += 1
                shapePoints += last - first + 1
            }
        }
        return (edges, shapePoints)
    }
}

/// The arrays of a road network that follow from the ways' geometry and profile records alone (coordinates, lengths,
/// travel times, class, flags): filled by one pass over the edge cuts while another gives the node and string ids.
package struct EdgeGeometry {
    package var shapeLatE7 = ContiguousArray<Int32>()
    package var shapeLonE7 = ContiguousArray<Int32>()
    package var edgeShapeFirst: ContiguousArray<UInt32> = [0]
    package var edgeLength = ContiguousArray<Double>()
    package var edgeTimeForward = ContiguousArray<UInt32>()
    package var edgeTimeBackward = ContiguousArray<UInt32>()
    package var edgeClass = ContiguousArray<UInt8>()
    package var edgeFlags = ContiguousArray<UInt16>()
    package var edgeMaxspeed = ContiguousArray<UInt8>()
    package var edgeWay = ContiguousArray<Int64>()
    package var profileEdges: [ProfileEdges]

    /// Empty arrays with room for `edges` edges and `shapePoints` shape points, and per-profile arrays for `profileEdges`.
    package init(edges: Int, shapePoints: Int, profileEdges: [ProfileEdges]) {
        self.profileEdges = profileEdges
        shapeLatE7.reserveCapacity(shapePoints); shapeLonE7.reserveCapacity(shapePoints)
        edgeShapeFirst.reserveCapacity(edges + 1); edgeLength.reserveCapacity(edges)
        edgeTimeForward.reserveCapacity(edges); edgeTimeBackward.reserveCapacity(edges)
        edgeClass.reserveCapacity(edges); edgeFlags.reserveCapacity(edges); edgeMaxspeed.reserveCapacity(edges)
        edgeWay.reserveCapacity(edges)
        for index in self.profileEdges.indices {
            self.profileEdges[index].timeForward.reserveCapacity(edges)
            self.profileEdges[index].timeBackward.reserveCapacity(edges)
            self.profileEdges[index].flags.reserveCapacity(edges)
        }
    }

    /// Moves the arrays into `network` (whose own are empty).
    consuming func move(into network: inout RoadNetwork) {
        network.shapeLatE7 = shapeLatE7; network.shapeLonE7 = shapeLonE7
        network.edgeShapeFirst = edgeShapeFirst; network.edgeLength = edgeLength
        network.edgeTimeForward = edgeTimeForward; network.edgeTimeBackward = edgeTimeBackward
        network.edgeClass = edgeClass; network.edgeFlags = edgeFlags; network.edgeMaxspeed = edgeMaxspeed
        network.edgeWay = edgeWay; network.profileEdges = profileEdges
    }
}
