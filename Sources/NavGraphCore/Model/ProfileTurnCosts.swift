/// Per-profile weights of a road set shared by several profiles: each profile's routing-node weights, and its own
/// turn restrictions as turn penalties on the shared turn graph.
///
/// Restrictions for every profile of the set shape the turn graph itself (missing arcs, via-way copies). A via-node
/// restriction for only some profiles (`restriction:hgv`, `except=`) instead gives the arcs it forbids a cost of
/// `forbiddenTurn` in those profiles' metrics; a path that pays it counts as no path. A via-way restriction for some
/// profiles only is applied to all of them when it binds the set's first profile (the car), and dropped otherwise.
public enum ProfileTurnCosts {
    /// Cost in milliseconds of a turn a profile's restriction forbids (about 28 hours): far above any real route.
    public static let forbiddenTurn: UInt32 = 100_000_000

    /// Splits restrictions into those that shape the turn graph and the profile-specific via-node ones.
    package static func split(_ restrictions: [TurnRestriction], firstProfile: ProfileID) -> (topology: [TurnRestriction], perProfile: [TurnRestriction]) {
        var topology: [TurnRestriction] = [], perProfile: [TurnRestriction] = []
        for restriction in restrictions {
            guard let profiles = restriction.profiles else { topology.append(restriction); continue }
            if restriction.viaDirectedEdges.isEmpty {
                perProfile.append(restriction)
            } else if profiles.contains(firstProfile) {
                topology.append(restriction)
            }
        }
        return (topology, perProfile)
    }

    /// The turn costs of one profile: `base`, with `forbiddenTurn` on the arcs its own restrictions forbid.
    package static func apply(_ restrictions: [TurnRestriction], profile: ProfileID, to base: ContiguousArray<UInt32>,
                      turns: TurnGraph) -> ContiguousArray<UInt32> {
        let mine = restrictions.filter { $0.profiles?.contains(profile) ?? true }
        guard !mine.isEmpty else { return base }
        var byFrom: [UInt32: [Int]] = [:]
        for (index, restriction) in mine.enumerated() {
            for from in restriction.fromDirectedEdges { byFrom[from, default: []].append(index) }
        }
        var costs = base
        for node in 0..<turns.nodeCount {
            guard let indices = byFrom[turns.directedEdge[node]] else { continue }
            for arc in Int(turns.firstOut[node])..<Int(turns.firstOut[node + 1]) {
                let next = turns.directedEdge[Int(turns.head[arc])]
                for index in indices {
                    let restriction = mine[index]
                    if restriction.toDirectedEdges.contains(next) != restriction.isMandatory {
                        costs[arc] = max(costs[arc], forbiddenTurn)
                    }
                }
            }
        }
        return costs
    }

    /// Milliseconds to drive each routing node's directed edge for one profile (`profile` nil: the network's own
    /// times), CCHMetric.infinity where the profile may not drive it.
    package static func nodeWeights(network: RoadNetwork, profile: ProfileEdges?, turns: TurnGraph) -> ContiguousArray<UInt32> {
        var weights = ContiguousArray<UInt32>(repeating: CCHMetric.infinity, count: turns.nodeCount)
        for node in 0..<turns.nodeCount {
            let d = Int(turns.directedEdge[node]), edge = d >> 1
            let time: UInt32, flags: UInt16
            if let profile {
                time = d & 1 == 0 ? profile.timeForward[edge] : profile.timeBackward[edge]
                flags = profile.flags[edge]
            } else {
                time = d & 1 == 0 ? network.edgeTimeForward[edge] : network.edgeTimeBackward[edge]
                flags = network.edgeFlags[edge]
            }
            weights[node] = time != RoadNetwork.forbidden ? min(time, CCHMetric.infinity - 1) : CCHMetric.infinity
        }
        return weights
    }
}
