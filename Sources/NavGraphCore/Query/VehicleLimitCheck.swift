/// Checks a vehicle's dimensions against the graph's per-edge limits (the sparse `limit.*` table of the truck data).
public struct VehicleLimitCheck {
    public let graph: RoutingGraph

    public init(graph: RoutingGraph) { self.graph = graph }

    /// Edges whose limits the vehicle exceeds.
    public func violatingEdges(_ vehicle: VehicleDimensions) -> [Int] {
        let wanted = vehicle.storedValues
        var edges: [Int] = []
        for index in 0..<graph.limitEdge.count where vehicle.violation(graph.limitValues, at: index * VehicleLimits.count, vehicle: wanted) != nil {
            edges.append(Int(graph.limitEdge[index]))
        }
        return edges
    }

    /// "maxheight 3.5 m < vehicle 4.0 m on way 123" for the first edge of `edges` the vehicle may not use; nil if none.
    public func firstViolation(_ vehicle: VehicleDimensions, edges: [Int]) -> String? {
        let wanted = vehicle.storedValues
        for edge in edges {
            guard let index = limitIndex(edge: edge) else { continue }
            let offset = index * VehicleLimits.count
            if let kind = vehicle.violation(graph.limitValues, at: offset, vehicle: wanted) {
                return vehicle.describe(kind: kind, limit: graph.limitValues[offset + kind]) + " on way \(graph.edgeWay[edge])"
            }
        }
        return nil
    }

    /// The limits of an edge as `VehicleLimits`, nil when it has none.
    public func limits(edge: Int) -> VehicleLimits? {
        guard let index = limitIndex(edge: edge) else { return nil }
        let offset = index * VehicleLimits.count
        return VehicleLimits(values: Array(graph.limitValues[offset..<(offset + VehicleLimits.count)]))
    }

    /// Position of an edge in the ascending `limitEdge` table.
    private func limitIndex(edge: Int) -> Int? {
        var low = 0, high = graph.limitEdge.count
        while low < high {
            let middle = (low + high) >> 1
            if Int(graph.limitEdge[middle]) < edge { low = middle + 1 } else { high = middle }
        }
        return low < graph.limitEdge.count && Int(graph.limitEdge[low]) == edge ? low : nil
    }
}
