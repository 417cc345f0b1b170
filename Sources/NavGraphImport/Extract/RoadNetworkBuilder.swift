import Foundation
import NavGraphCore

/// Turns OSM ways into a RoadNetwork: splits ways at junctions and at missing nodes, applies the profiles (the car's
/// unless told otherwise); the network holds the union of the ways any of them may use.
public enum RoadNetworkBuilder {
    public static func build(from source: OSMSource, report: inout ImportReport) throws -> (RoadNetwork, [TurnRestriction]) {
        try build(from: source, profiles: [CarVehicleProfile()], report: &report)
    }

    public static func build(from source: OSMSource, profiles: [any VehicleProfile],
                             report: inout ImportReport) throws -> (RoadNetwork, [TurnRestriction]) {
        let totals = source.totals
        report.osmNodes = totals.nodes
        report.osmWays = totals.ways
        report.osmRelations = totals.relations
        report.missingNodeRefs = source.missingNodeRefs
        var network = RoadNetwork()

        // 1. Profile every candidate way; the first profile that takes it gives its class, flags and names.
        //    Ways are profiled in ranges on concurrent threads and joined in way order.
        let ranges = WayRanges(count: source.wayCount)
        let profiled = ranges.map { _ in ProfiledWays() }
        PhaseWorkers.run(ranges.count) { part in
            profiled[part].profile(source, ways: ranges[part], profiles: profiles)
        }
        // Per accepted way one small record, and one id per way and profile (`profileCount` in a row) of a distinct
        // ProfileWay record: only what the edges take from the profiles' attributes. Names and refs are ids of distinct
        // strings. Guidance, limits and localized names only for the ways that have them.
        let profileCount = profiles.count
        var accepted = ContiguousArray<AcceptedWay>()
        var perProfile = ContiguousArray<UInt32>()
        var wayStrings = WayStrings()
        var records = ProfileWayRecords()
        var wayGuidance: [(index: Int, guidance: WayGuidance)] = []
        var wayLimits: [(index: Int, limits: VehicleLimits)] = []  // in way order, as the guidance
        var wayNames: [(index: Int, names: [String])] = []
        let acceptedCount = profiled.reduce(0) { $0 + $1.accepted.count }
        accepted.reserveCapacity(acceptedCount)
        perProfile.reserveCapacity(acceptedCount * profileCount)
        for part in profiled {
            for (index, limits) in part.limits { wayLimits.append((accepted.count + index, limits)) }
            for (index, names) in part.names { wayNames.append((accepted.count + index, names)) }
            for (index, guidance) in part.guidance { wayGuidance.append((accepted.count + index, guidance)) }
            // The range's string and record ids become the whole build's.
            let stringID = part.strings.values.map { wayStrings.id($0) }
            let recordID = part.records.values.map { records.id($0) }
            for var way in part.accepted {
                way.name = stringID[Int(way.name)]
                way.ref = stringID[Int(way.ref)]
                accepted.append(way)
            }
            for id in part.perProfile { perProfile.append(recordID[Int(id)]) }
            part.release()
        }
        network.profileEdges = profiles.dropFirst().map { ProfileEdges(profile: $0.id) }
        report.routableWays = accepted.count

        // 2. Count how often each located node is used; junctions are used more than once or end a way.
        //    The node lookups run in ranges of ways on concurrent threads; the counts are added in way order.
        var useCount = ContiguousArray<UInt8>(repeating: 0, count: source.nodeCount)
        var wayNodeIndex = ContiguousArray<Int32>()
        var wayNodeFirst = ContiguousArray<Int>([0])
        let acceptedRanges = WayRanges(count: accepted.count)
        let located = acceptedRanges.map { _ in LocatedWayNodes() }
        PhaseWorkers.run(acceptedRanges.count) { part in
            located[part].locate(source, ways: acceptedRanges[part].map { Int(accepted[$0].way) })
        }
        wayNodeIndex.reserveCapacity(located.reduce(0) { $0 + $1.index.count })
        wayNodeFirst.reserveCapacity(accepted.count + 1)
        for part in located {
            for (index, uses) in zip(part.index, part.uses) where index >= 0 {
                useCount[Int(index)] = UInt8(min(200, Int(useCount[Int(index)]) + Int(uses)))
            }
            let base = wayNodeIndex.count
            wayNodeIndex.append(contentsOf: part.index)
            for end in part.wayEnd { wayNodeFirst.append(base + end) }
            part.release()
        }
        // Barriers end edges, so that turns through them can be closed or delayed (TurnGraphBuilder, TurnCosts,
        // ActiveTurnCosts): the car's (car.lua) in the motor set, each active profile's own in the active one (a
        // bollard stops a car, not a cyclist; a gate with access=no stops both).
        let barriers = profiles.contains(where: { $0.id == .car }) ? barrierNodes(source) : [:]
        for index in barriers.keys { useCount[index] = max(useCount[index], 2) }
        let profileBarriers = profiles.contains(where: { $0.id == .car }) ? [:] : activeBarrierNodes(source, profiles: profiles)
        for index in profileBarriers.keys { useCount[index] = max(useCount[index], 2) }

        // 3. Split into edges between junctions, cutting at missing nodes (EdgeCuts). The edges and shape points are
        //    counted first, so that the arrays are built at their exact sizes (no spare capacity from growth, no copy).
        //    Two passes over the same cuts run side by side: one appends the geometry and travel times, the other the
        //    node ids, shape nodes and strings (whose ids follow the order of first use, as one pass would give them).
        let (edgeTotal, shapeTotal) = EdgeCuts.counts(wayNodeIndex: wayNodeIndex, wayNodeFirst: wayNodeFirst, useCount: useCount)
        network.reserveTopology(edges: edgeTotal, shapePoints: shapeTotal)
        var geometry = EdgeGeometry(edges: edgeTotal, shapePoints: shapeTotal, profileEdges: network.profileEdges)
        network.profileEdges = []
        let marks = nodeMarks(source, strings: &network.strings)
        var graphNode = ContiguousArray<Int32>(repeating: -1, count: source.nodeCount)
        PhaseWorkers.run(2) { part in
            if part == 0 {
                appendGeometry(accepted: accepted, profiles: perProfile, records: records, profileCount: profileCount,
                               wayNodeIndex: wayNodeIndex, wayNodeFirst: wayNodeFirst, useCount: useCount, source: source, to: &geometry)
                return
            }
            func graphNodeID(_ index: Int32) -> UInt32 {
                if graphNode[Int(index)] < 0 {
                    graphNode[Int(index)] = Int32(network.nodeOSMID.count)
                    network.nodeOSMID.append(source.nodeID(Int(index)))
                    let mark = marks[Int(index)]
                    network.nodeControl.append(mark?.control.rawValue ?? 0)
                    network.nodeExitRef.append(mark?.exitRef ?? 0)
                    network.nodeBarrier.append(barriers[Int(index)]?.rawValue ?? 0)
                    if !profileBarriers.isEmpty { network.nodeProfileBarrier.append(profileBarriers[Int(index)] ?? 0) }
                }
                return UInt32(graphNode[Int(index)])
            }
            var nextGuidance = 0, nextLimits = 0, nextNames = 0  // the first entries not reached yet (they are in way order)
            for (acceptedIndex, attributes) in accepted.enumerated() {
                let way = Int(attributes.way)
                let range = wayNodeFirst[acceptedIndex]..<wayNodeFirst[acceptedIndex + 1]
                if wayNodeIndex[range].contains(-1) { report.waysCutAtMissingNodes += 1 }
                let nameID = network.strings.intern(wayStrings[attributes.name])
                let refID = network.strings.intern(wayStrings[attributes.ref])
                var guideID: UInt32 = 0
                if nextGuidance < wayGuidance.count && wayGuidance[nextGuidance].index == acceptedIndex {
                    guideID = appendGuideRecord(wayGuidance[nextGuidance].guidance, network: &network)
                    nextGuidance += 1
                }
                var limits: VehicleLimits?
                if nextLimits < wayLimits.count && wayLimits[nextLimits].index == acceptedIndex {
                    limits = wayLimits[nextLimits].limits
                    nextLimits += 1
                }
                var localized: [String]?
                if nextNames < wayNames.count && wayNames[nextNames].index == acceptedIndex {
                    localized = wayNames[nextNames].names
                    nextNames += 1
                }
                let edgesBefore = network.edgeCount
                EdgeCuts.forEach(wayNodeIndex, range, useCount: useCount) { first, last in
                    for position in first...last {
                        let index = Int(wayNodeIndex[position])
                        network.shapeOSMNode.append(source.nodeID(index))
                        network.shapeControl.append(marks[index]?.control.rawValue ?? 0)
                    }
                    // Taken before the appends: graphNodeID changes `network` too (no overlapping access).
                    let from = graphNodeID(wayNodeIndex[first]), to = graphNodeID(wayNodeIndex[last])
                    network.edgeFrom.append(from)
                    network.edgeTo.append(to)
                    network.edgeName.append(nameID)
                    network.edgeRef.append(refID)
                    network.edgeGuide.append(guideID)
                    if let limits {
                        network.limitEdge.append(UInt32(network.edgeCount - 1))
                        network.limitValues.append(contentsOf: limits.values)
                    }
                }
                if network.edgeCount > edgesBefore, let names = localized {
                    let ids = names.map { network.strings.intern($0) }
                    network.localizedNames.add(way: source.wayID(way), nameIDs: ids)
                }
            }
        }
        geometry.move(into: &network)
        network.localizedNames = network.localizedNames.sorted()
        guard network.edgeCount > 0 else {
            throw NavGraphError("\(source.path): no routable road for \(profiles.map(\.rules.name).joined(separator: ", ")) in this extract")
        }

        // The way records and located way nodes are done with: freed before the restrictions are read.
        accepted = []; perProfile = []; wayNodeIndex = []; wayNodeFirst = []; useCount = []
        let restrictions = TurnRestrictionReader.read(source: source, network: network, graphNode: graphNode, profiles: profiles, report: &report)
        return (network, restrictions)
    }

    private static func wayLengthMetres(_ nodes: ArraySlice<Int32>, _ source: OSMSource) -> Double {
        var total = 0.0
        var previous: Coordinate?
        for index in nodes {
            guard index >= 0 else { previous = nil; continue }
            let point = Coordinate(latE7: source.nodeLatE7(Int(index)), lonE7: source.nodeLonE7(Int(index)))
            if let previous { total += Geo.haversine(previous, point) }
            previous = point
        }
        return total
    }

    /// Milliseconds to cover `metres` at `kmh`, at least 1.
    package static func travelTime(metres: Double, kmh: Double) -> UInt32 {
        UInt32(max(1, (metres / (kmh / 3.6) * 1000).rounded()))
    }

    /// Car barriers (`CarProfile.barrier`) of located nodes by node index.
    private static func barrierNodes(_ source: OSMSource) -> [Int: NodeBarrier] {
        var barriers: [Int: NodeBarrier] = [:]
        for tagged in 0..<source.taggedNodeCount {
            let barrier = CarProfile.barrier(nodeTags: source.taggedNodeTags(tagged))
            guard barrier != .none, let index = source.nodeIndex(of: source.taggedNodeID(tagged)) else { continue }
            barriers[index] = barrier
        }
        return barriers
    }

    /// Active profiles' barriers (`ActiveNodeBarriers`) of located nodes by node index: bit i for `profiles[i]`.
    private static func activeBarrierNodes(_ source: OSMSource, profiles: [any VehicleProfile]) -> [Int: UInt8] {
        var barriers: [Int: UInt8] = [:]
        let judged = profiles.prefix(8).enumerated().map { (UInt8(1) << UInt8($0.offset), $0.element.id, $0.element.rules) }
        for tagged in 0..<source.taggedNodeCount {
            let tags = source.taggedNodeTags(tagged)
            var mask: UInt8 = 0
            for (bit, id, rules) in judged where ActiveNodeBarriers.blocks(id, rules: rules, nodeTags: tags) { mask |= bit }
            guard mask != 0, let index = source.nodeIndex(of: source.taggedNodeID(tagged)) else { continue }
            barriers[index] = mask
        }
        return barriers
    }

    /// Guidance marks of located nodes by node index: traffic controls and the exit number (string id).
    private static func nodeMarks(_ source: OSMSource, strings: inout StringTable) -> NodeMarks {
        var marks = NodeMarks(nodeCount: source.nodeCount)
        for tagged in 0..<source.taggedNodeCount {
            guard let index = source.nodeIndex(of: source.taggedNodeID(tagged)) else { continue }
            let tags = source.taggedNodeTags(tagged)
            let control = NodeControl(tags: tags)
            let exit = tags["junction:ref"] ?? (control.contains(.motorwayJunction) ? tags["ref"] ?? "" : "")
            marks[index] = (control, strings.intern(WayGuidance.list(exit)))
        }
        return marks
    }

    /// Appends a guidance record (its strings interned) and returns its id.
    private static func appendGuideRecord(_ guidance: WayGuidance, network: inout RoadNetwork) -> UInt32 {
        let id = UInt32(network.guideFields.count / GuideRecord.fieldCount)
        network.guideFields.append(network.strings.intern(guidance.turnLanesForward))
        network.guideFields.append(network.strings.intern(guidance.turnLanesBackward))
        network.guideFields.append(network.strings.intern(guidance.destinationsForward))
        network.guideFields.append(network.strings.intern(guidance.destinationsBackward))
        network.guideFields.append(network.strings.intern(guidance.junctionRef))
        network.guideFields.append(UInt32(guidance.laneCountForward) | UInt32(guidance.laneCountBackward) << 8)
        return id
    }

    /// The geometry pass of step 3: for every edge of the accepted ways, its shape coordinates, length, travel times
    /// (the first profile's, then each other's with its flags), class, flags, maxspeed and way id.
    private static func appendGeometry(accepted: ContiguousArray<AcceptedWay>, profiles: ContiguousArray<UInt32>, records: ProfileWayRecords,
                                       profileCount: Int, wayNodeIndex: ContiguousArray<Int32>, wayNodeFirst: ContiguousArray<Int>,
                                       useCount: ContiguousArray<UInt8>, source: OSMSource, to geometry: inout EdgeGeometry) {
        for (acceptedIndex, attributes) in accepted.enumerated() {
            let range = wayNodeFirst[acceptedIndex]..<wayNodeFirst[acceptedIndex + 1]
            let wayLength = attributes.hasFerryDuration ? wayLengthMetres(wayNodeIndex[range], source) : 0
            let wayID = source.wayID(Int(attributes.way))
            let first = acceptedIndex * profileCount
            let maxspeed = UInt8(min(254, attributes.maxspeedKmh.rounded())) | (attributes.maxspeedKmh == Maxspeed.unlimited ? 255 : 0)
            EdgeCuts.forEach(wayNodeIndex, range, useCount: useCount) { firstNode, lastNode in
                var length = 0.0
                var previous: Coordinate?
                for position in firstNode...lastNode {
                    let index = Int(wayNodeIndex[position])
                    let lat = source.nodeLatE7(index), lon = source.nodeLonE7(index)
                    let point = Coordinate(latE7: lat, lonE7: lon)
                    if let previous { length += Geo.haversine(previous, point) }
                    previous = point
                    geometry.shapeLatE7.append(lat)
                    geometry.shapeLonE7.append(lon)
                }
                geometry.edgeShapeFirst.append(UInt32(geometry.shapeLatE7.count))
                geometry.edgeLength.append(length)
                func times(_ attributes: ProfileWay) -> (UInt32, UInt32) {
                    guard attributes.accepts else { return (RoadNetwork.forbidden, RoadNetwork.forbidden) }
                    var forwardTime = RoadNetworkBuilder.travelTime(metres: length, kmh: attributes.speedKmhForward)
                    var backwardTime = RoadNetworkBuilder.travelTime(metres: length, kmh: attributes.speedKmhBackward)
                    if attributes.hasFerryDuration, wayLength > 0 {
                        let share = UInt32(max(1, (attributes.ferryDurationSeconds * 1000 * length / wayLength).rounded()))
                        forwardTime = share
                        backwardTime = share
                    }
                    return (attributes.forward ? forwardTime : RoadNetwork.forbidden, attributes.backward ? backwardTime : RoadNetwork.forbidden)
                }
                let firstProfile = records[profiles[first]]
                let (forwardTime, backwardTime) = times(firstProfile)
                geometry.edgeTimeForward.append(forwardTime)
                geometry.edgeTimeBackward.append(backwardTime)
                for index in geometry.profileEdges.indices {
                    let profile = records[profiles[first + index + 1]]
                    let (forward, backward) = times(profile)
                    geometry.profileEdges[index].timeForward.append(forward)
                    geometry.profileEdges[index].timeBackward.append(backward)
                    geometry.profileEdges[index].flags.append((profile.accepts ? profile.flags : attributes.flags).rawValue)
                }
                geometry.edgeClass.append(attributes.roadClass.rawValue)
                geometry.edgeFlags.append((firstProfile.accepts ? firstProfile.flags : attributes.flags).rawValue)
                geometry.edgeMaxspeed.append(maxspeed)
                geometry.edgeWay.append(wayID)
            }
        }
    }
}

/// Guidance marks (traffic control, exit number string id) of the few located nodes that have one, by node index,
/// with one bit per node so that the many without one are answered at once.
private struct NodeMarks {
    private var marks: [Int: (control: NodeControl, exitRef: UInt32)] = [:]
    private var present: ContiguousArray<UInt64>

    package init(nodeCount: Int) { present = ContiguousArray(repeating: 0, count: (nodeCount + 63) / 64) }

    package subscript(index: Int) -> (control: NodeControl, exitRef: UInt32)? {
        get {
            guard present[index >> 6] & (1 << UInt64(index & 63)) != 0 else { return nil }
            return marks[index]
        }
        set {
            marks[index] = newValue
            if newValue != nil { present[index >> 6] |= 1 << UInt64(index & 63) }
        }
    }
}

/// Ranges of way indices for concurrent work: a few per core, so that uneven ranges even out.
private struct WayRanges: RandomAccessCollection {
    package let count: Int
    private let size: Int
    package init(count wayCount: Int) {
        let parts = wayCount < 20_000 ? 1 : 4 * Parallel.workerCount
        size = Swift.max(1, (wayCount + parts - 1) / parts)
        count = wayCount == 0 ? 0 : (wayCount + size - 1) / size
        total = wayCount
    }
    private let total: Int
    package var startIndex: Int { 0 }
    package var endIndex: Int { count }
    package subscript(part: Int) -> Range<Int> { (part * size)..<Swift.min(total, (part + 1) * size) }
}

/// The ways of one range that some profile takes: their records (AcceptedWay, and the id of a distinct ProfileWay
/// per profile in a row; names and refs as ids of the range's distinct strings), and the guidance, vehicle limits and
/// localized names of those that have any (keyed by the index among the range's accepted ways, in way order).
private final class ProfiledWays: @unchecked Sendable {
    package var accepted = ContiguousArray<AcceptedWay>()
    package var perProfile = ContiguousArray<UInt32>()
    package var strings = WayStrings()
    package var records = ProfileWayRecords()
    package var guidance: [(Int, WayGuidance)] = []
    package var limits: [(Int, VehicleLimits)] = []
    package var names: [(Int, [String])] = []

    package func profile(_ source: OSMSource, ways: Range<Int>, profiles: [any VehicleProfile]) {
        let carDerived = profiles.map { $0 as? any CarDerivedProfile }
        var all: [WayAttributes?] = []
        for way in ways {
            let tags = source.wayTags(way)
            // CarProfile's judgement without the car's access tags, made once for every car-derived profile; it is
            // the car's own when the way has no such tag.
            var stripped: WayAttributes??
            let carAccessTagged = CarDerivedKeys.anyPresent(in: tags)
            all.removeAll(keepingCapacity: true)
            for (profile, derived) in zip(profiles, carDerived) {
                if let derived {
                    if stripped == nil { stripped = .some(strippedCarAttributes(tags: tags, hasCarAccessKey: carAccessTagged)) }
                    all.append(derived.attributes(tags: tags, strippedCar: stripped ?? nil))
                } else if profile.id == .car && !carAccessTagged {
                    if stripped == nil { stripped = .some(strippedCarAttributes(tags: tags, hasCarAccessKey: carAccessTagged)) }
                    all.append(stripped ?? nil)
                } else {
                    all.append(profile.attributes(tags: tags))
                }
            }
            if let attributes = all.lazy.compactMap({ $0 }).first {
                let guidance = WayGuidance(tags: tags, isOneway: !(attributes.forward && attributes.backward),
                                           onewayReversed: !attributes.forward && attributes.backward)
                if let limits = profiles.lazy.compactMap({ $0.limits(tags: tags) }).first { self.limits.append((accepted.count, limits)) }
                if let localized = LocalizedNames.read(tags: tags) { names.append((accepted.count, localized)) }
                if !guidance.isEmpty { self.guidance.append((accepted.count, guidance)) }
                accepted.append(AcceptedWay(way: way, attributes: attributes, name: strings.id(attributes.name), ref: strings.id(attributes.ref)))
                for profile in all { perProfile.append(records.id(ProfileWay(profile))) }
            }
        }
    }

    package func release() { accepted = []; perProfile = []; strings = WayStrings(); records = ProfileWayRecords(); guidance = []; limits = []; names = [] }
}

/// The located nodes of a range of ways (consecutive repeats dropped; -1 where the file lacks the node), how much
/// each adds to its node's use count (2 at a way's end, else 1), and where each way's nodes end.
private final class LocatedWayNodes: @unchecked Sendable {
    package var index = ContiguousArray<Int32>()
    package var uses = ContiguousArray<UInt8>()
    package var wayEnd: [Int] = []

    package func locate(_ source: OSMSource, ways: [Int]) {
        wayEnd.reserveCapacity(ways.count)
        for way in ways {
            let refs = source.wayNodeRefs(way)
            var previous: Int64 = Int64.min
            for (position, ref) in refs.enumerated() {
                if ref == previous { continue }
                previous = ref
                guard let found = source.nodeIndex(of: ref) else { index.append(-1); uses.append(0); continue }
                index.append(Int32(found))
                uses.append(position == 0 || position == refs.count - 1 ? 2 : 1)
            }
            wayEnd.append(index.count)
        }
    }

    package func release() { index = []; uses = []; wayEnd = [] }
}
