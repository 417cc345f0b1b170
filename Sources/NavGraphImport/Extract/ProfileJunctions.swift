import NavGraphCore

/// What each profile of a road set finds at each junction, judged on that profile's own roads as OSRM judges
/// intersections on a profile's own graph: how many roads it may use there, and whether it may turn back.
///
/// A road set joins what any of its profiles may use, so a footpath closed to bicycles makes a junction where a
/// cyclist has one road only look like a crossing. OSRM (`intersection_analysis.cpp`, `isTurnAllowed`) lets a
/// profile turn back where it can leave by one exit only (the way back) or where at most one of its roads there
/// runs both ways; the no-U-turn rule of the turn graph asks this per profile, so a cyclist's dead end stays
/// routable in both directions (as in OSRM) and the U-turn stays closed to the profiles that can go on. A node
/// barrier of the profile (`RoadNetwork.nodeProfileBarrier`) lets it only turn back, as OSRM's barriers do.
package struct ProfileJunctions: Sendable {
    /// The profiles, in the network's order: its own times first, then `profileEdges`.
    package let profiles: [ProfileID]
    /// Per profile and junction, whether the profile may turn back there.
    private var turnBack: [ContiguousArray<Bool>]
    /// Per profile and junction, the roads (edges) the profile may use there in some direction.
    private var degrees: [ContiguousArray<Int32>]
    /// Per junction, the profiles it blocks (`RoadNetwork.nodeProfileBarrier`), empty without barriers.
    private let barrier: ContiguousArray<UInt8>

    package init(network: RoadNetwork, profiles first: ProfileID) {
        profiles = [first] + network.profileEdges.map(\.profile)
        turnBack = []
        degrees = []
        barrier = network.nodeProfileBarrier.count == network.nodeCount ? network.nodeProfileBarrier : []
        for index in profiles.indices {
            var degree = ContiguousArray<Int32>(repeating: 0, count: network.nodeCount)
            var exits = ContiguousArray<Int32>(repeating: 0, count: network.nodeCount)
            var bothWays = ContiguousArray<Int32>(repeating: 0, count: network.nodeCount)
            for edge in 0..<network.edgeCount {
                let forward = Self.drivable(network, profile: index, directedEdge: 2 * edge)
                let backward = Self.drivable(network, profile: index, directedEdge: 2 * edge + 1)
                guard forward || backward else { continue }
                let from = Int(network.edgeFrom[edge]), to = Int(network.edgeTo[edge])
                degree[from] += 1
                degree[to] += 1
                if forward { exits[from] += 1 }
                if backward { exits[to] += 1 }
                if forward && backward { bothWays[from] += 1; bothWays[to] += 1 }
            }
            let blocked = Self.bit(index)
            turnBack.append(ContiguousArray((0..<network.nodeCount).lazy.map { [barrier] junction in
                degree[junction] > 0 && (exits[junction] <= 1 || bothWays[junction] <= 1 || (barrier.isEmpty ? 0 : barrier[junction]) & blocked != 0)
            }))
            degrees.append(degree)
        }
    }

    /// Whether profile `index` (into `profiles`) may drive directed edge d.
    package static func drivable(_ network: RoadNetwork, profile index: Int, directedEdge d: Int) -> Bool {
        if index == 0 {
            let time = d & 1 == 0 ? network.edgeTimeForward[d >> 1] : network.edgeTimeBackward[d >> 1]
            return time != RoadNetwork.forbidden
        }
        return TurnGraphBuilder.isDrivable(network.profileEdges[index - 1], directedEdge: d)
    }

    /// The index of a profile in `profiles`, nil when the network has none for it.
    package func index(of profile: ProfileID) -> Int? { profiles.firstIndex(of: profile) }

    /// Whether profile `index` may turn back at `junction` (having arrived on a road it may ride both ways).
    package func turnsBack(profile index: Int, at junction: Int) -> Bool {
        turnBack[index][junction]
    }

    /// Whether some profile that may drive directed edge d and its reverse may turn back at `junction`, where d arrives.
    package func someProfileTurnsBack(_ network: RoadNetwork, arrivingBy d: Int, at junction: Int) -> Bool {
        profiles.indices.contains { index in
            turnsBack(profile: index, at: junction) && Self.drivable(network, profile: index, directedEdge: d)
                && Self.drivable(network, profile: index, directedEdge: d ^ 1)
        }
    }

    /// Whether `junction` is a barrier for profile `index`: it may only turn back there.
    package func blocks(profile index: Int, at junction: Int) -> Bool {
        !barrier.isEmpty && barrier[junction] & Self.bit(index) != 0
    }

    /// The bit of profile `index` in `RoadNetwork.nodeProfileBarrier` (none past the eighth).
    private static func bit(_ index: Int) -> UInt8 { index < 8 ? UInt8(1) << UInt8(index) : 0 }

    /// The roads profile `index` may use at `junction`.
    package func degree(profile index: Int, at junction: Int) -> Int32 { degrees[index][junction] }
}
