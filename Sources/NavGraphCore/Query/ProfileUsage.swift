/// Kilometres of road each profile of a graph file may use.
public enum ProfileUsage {
    /// Kilometres of edges the graph's profile may use in at least one direction.
    public static func kilometres(_ graph: RoutingGraph) -> Double {
        var metres = 0.0
        for edge in 0..<graph.edgeCount {
            if graph.edgeTimeForward[edge] < CCHMetric.infinity || graph.edgeTimeBackward[edge] < CCHMetric.infinity { metres += graph.edgeLength[edge] }
        }
        return metres / 1000
    }

    /// Usable kilometres of every profile the file holds, by profile name.
    public static func all(file: MappedGraphFile, loaded: RoutingGraph) -> [String: Double] {
        var result: [String: Double] = [:]
        for profile in ProfileID.allCases {
            let graph = profile == loaded.profile ? loaded : try? RoutingGraph(file: file, profile: profile)
            if let graph { result[profile.rawValue] = kilometres(graph) }
        }
        return result
    }
}
