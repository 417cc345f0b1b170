import CHeapTrim
import Foundation
import NavGraphCore
import NavGraphOrder

/// The `navgraph import` pipeline: read OSM, build the road network and turn graph, order, contract,
/// customize the free-flow metric, index segments, and write one graph file.
public enum Importer {
    @discardableResult
    /// `roadSets`: the motor road set (car, truck, motorcycle) and, by default, the cycling/walking one. `profiles`: the
    /// profiles to import of those sets (nil: all); each set's first profile (car, bicycle) is imported with it anyway.
    public static func run(input: String, output: String, honourTurnRestrictions: Bool = true,
                           log: ProgressLog = ProgressLog(), roadSets: [RoadSet] = RoadSet.allCases,
                           profiles: Set<ProfileID>? = nil) throws -> GraphMetadata {
        try run(input: input, output: output, honourTurnRestrictions: honourTurnRestrictions, log: log, roadSets: roadSets,
                profiles: profiles, metricBudget: metricBudget, schedule: RoadSetSchedule.configured)
    }

    /// Bytes of CCH metrics (8 per arc and profile) that a road set may hold at once while its profiles are customized
    /// side by side; above it they are customized one after the other. NAVGRAPH_METRIC_BUDGET_MB overrides it (benchmarks).
    /// At milan-5x5 the active set's two metrics (870 MB) side by side raised the import's peak by 180 MB for no time.
    package static let metricBudget: Int = {
        guard let text = ProcessInfo.processInfo.environment["NAVGRAPH_METRIC_BUDGET_MB"] else { return 512 << 20 }
        guard let megabytes = Int(text), megabytes >= 0 else {
            FileHandle.standardError.write(Data("navgraph: NAVGRAPH_METRIC_BUDGET_MB: expected a whole number of MB, got '\(text)'; using 512\n".utf8))
            return 512 << 20
        }
        return megabytes << 20
    }()

    /// `run` with a metric budget and a road-set schedule of its own (tests: one profile at a time on small graphs,
    /// both schedules).
    @discardableResult
    package static func run(input: String, output: String, honourTurnRestrictions: Bool = true, log: ProgressLog = ProgressLog(),
                    roadSets: [RoadSet] = RoadSet.allCases, profiles: Set<ProfileID>? = nil, metricBudget: Int,
                    schedule: RoadSetSchedule = .motorFirst) throws -> GraphMetadata {
        navgraph_map_large_allocations(UInt(largeAllocation))
        if input.hasSuffix(".gr") || input.hasSuffix(".gr.gz") {
            let network = try log.phase("read DIMACS") {
                let network = try DimacsReader.read(path: input)
                return (network, "\(network.nodeCount) nodes, \(network.edgeCount) arcs")
            }
            return try write(network: network, restrictions: [], report: ImportReport(), input: input, output: output,
                             profile: DimacsReader.profileName, log: log)
        }
        // Opened first, so that an unwritable output fails before the work; each section is written as soon as it is final.
        let stream = try GraphFileStream(path: output, tableCapacity: roadSets.count * sectionsPerRoadSet)
        do {
            return try run(input: input, to: stream, honourTurnRestrictions: honourTurnRestrictions, log: log, roadSets: roadSets,
                           profiles: profiles, metricBudget: metricBudget, schedule: schedule)
        } catch {
            stream.abandon()
            throw error
        }
    }

    /// Arrays of at least this many bytes are mapped on their own, so that freeing one returns it to the system
    /// (navgraph_map_large_allocations); otherwise glibc keeps blocks of up to 32 MB in its arenas, where what the
    /// import frees stayed resident (150–300 MB at milan-5x5, more than the import's whole margin).
    package static let largeAllocation = 4 << 20

    /// Room in the section table per road set (the motor set has 68 sections, the active set 60).
    package static let sectionsPerRoadSet = 128

    private static func run(input: String, to stream: GraphFileStream, honourTurnRestrictions: Bool, log: ProgressLog,
                            roadSets: [RoadSet], profiles: Set<ProfileID>?, metricBudget: Int, schedule: RoadSetSchedule) throws -> GraphMetadata {
        // Held only by `shared` (below), so that it can be freed in the middle of the import.
        let shared = SharedOSMSource(try log.phase("read OSM") {
            let source = try OSMSource(path: input)
            let totals = source.totals
            return (source, "\(totals.nodes) nodes, \(totals.ways) ways, \(totals.relations) relations; \(source.wayCount) highway/ferry ways, \(source.missingNodeRefs) missing node refs")
        }, users: roadSets.count)
        // The road sets are independent once the OSM file is read: each is built, ordered, contracted and customized
        // on its own thread, into its own sections. Both write their sections to the file as they finish them (in an
        // order that depends on the threads' timing); the section table lists them in the road sets' order (the same
        // table as one after the other). The OSM arrays go as soon as the last road network is built. With the
        // motor-first schedule the other road sets order their turn graphs only once the motor set's order is done, and
        // customize only once the motor set is done (RoadSetSchedule).
        let outcomes = roadSets.map { _ in RoadSetOutcome() }
        // (Only with motor first in the list: its thread then always starts, whatever the number of threads.)
        let motorFirst = schedule.motorOrdersFirst && roadSets.count > 1 && roadSets.first == .motor
        let motorOrdered = motorFirst ? RoadSetGate() : nil, motorDone = motorFirst ? RoadSetGate() : nil
        let networkTurns = schedule == .networksInTurn ? RoadNetworkTurns(roadSetCount: roadSets.count, threadCount: Parallel.workerCount) : nil
        PhaseWorkers.run(roadSets.count) { index in
            let roadSet = roadSets[index]
            defer { if roadSet == .motor { motorOrdered?.open(); motorDone?.open() } }
            var waits = RoadSetWaits()
            if roadSet == .motor {
                waits.afterOrder = { motorOrdered?.open() }
            } else if let motorOrdered, let motorDone {
                waits.beforeOrder = {
                    let waited = motorOrdered.wait()
                    log.say(String(format: "%@ road set: waited %.2fs for the motor road set's order before its own", roadSet.rawValue, waited))
                }
                waits.beforeCustomize = {
                    let waited = motorDone.wait()
                    log.say(String(format: "%@ road set: waited %.2fs for the motor road set before its customizations", roadSet.rawValue, waited))
                }
            }
            outcomes[index].result = Result {
                try importRoadSet(roadSet, profiles: roadSet.profiles(selecting: profiles), index: index, from: shared, input: input,
                                  honourTurnRestrictions: honourTurnRestrictions,
                                  log: log, networkTurns: networkTurns, metricBudget: metricBudget, waits: waits, to: stream)
            }
        }
        // A failed write ends the import, whichever road set it stopped.
        if let error = stream.error { throw error }
        var table: [GraphFileSection] = []
        var motorMetadata: GraphMetadata?
        for (roadSet, outcome) in zip(roadSets, outcomes) {
            switch outcome.result {
            case .success(let (sections, metadata))?:
                table += sections.entries
                if roadSet == .motor { motorMetadata = metadata }
            case .failure(let error as NavGraphError)? where roadSet != .motor:
                log.say("\(roadSet.rawValue) road set skipped: \(error.message)")
            case .failure(let error)?:
                throw error
            case nil:
                throw NavGraphError("\(input): the \(roadSet.rawValue) road set was not imported", code: .ioFailure)
            }
        }
        try finish(stream, table: table, log: log)
        guard let motorMetadata else { throw NavGraphError("\(input): no drivable road for a car in this extract") }
        return motorMetadata
    }

    /// One road set of an OSM import (the `index`-th): its road network (at its turn, with `networkTurns`), then
    /// everything `addRoadSet` adds, in its own sections.
    private static func importRoadSet(_ roadSet: RoadSet, profiles: [ProfileID], index: Int, from shared: SharedOSMSource, input: String,
                                      honourTurnRestrictions: Bool, log: ProgressLog, networkTurns: RoadNetworkTurns?,
                                      metricBudget: Int, waits: RoadSetWaits,
                                      to stream: GraphFileStream) throws -> (StreamedSections, GraphMetadata) {
        var report = ImportReport()
        let tag = roadSet == .motor ? "" : "\(roadSet.rawValue) "
        var network = RoadNetwork(), restrictions: [TurnRestriction] = []
        if let networkTurns {
            let waited = networkTurns.waitForTurn(index)
            if index > 0 { log.say(String(format: "%@ road set: waited %.2fs for the road network before it", roadSet.rawValue, waited)) }
        }
        do {
            defer { networkTurns?.done(index) }
            defer { shared.release() }
            (network, restrictions) = try log.phase(tag + "road network") {
                guard let osm = shared.source else { throw NavGraphError("\(input): OSM data released before the \(roadSet.rawValue) road set", code: .ioFailure) }
                var built = try RoadNetworkBuilder.build(from: osm, profiles: profiles.map(\.profile), report: &report)
                built.0.compact()
                navgraph_release_free_memory()  // what the build's threads freed (its per-range records) stays in their arenas otherwise
                return (built, "\(profiles.map(\.rawValue).joined(separator: ", ")): \(built.0.nodeCount) junctions, \(built.0.edgeCount) edges, \(built.0.shapeLatE7.count) shape points, \(report.waysCutAtMissingNodes) ways cut at missing nodes")
            }
        }
        var writer = StreamedSections(stream: stream)
        writer.rename = roadSet.sectionName
        // The sections no later phase reads are written and freed before waiting for the other road networks, so that
        // they are not resident while another network is built.
        var padded = withGuidanceArrays(consume network)
        try writeAhead(&padded, withTurnCosts: true, to: &writer)
        if let networkTurns, index < networkTurns.lastIndex {
            let waited = networkTurns.waitForAll()
            log.say(String(format: "%@ road set: waited %.2fs for the other road networks", roadSet.rawValue, waited))
        }
        // Consumed, so that addRoadSet holds the only copy and can free the arrays it writes ahead.
        let metadata = try addRoadSet(network: consume padded, restrictions: honourTurnRestrictions ? restrictions : [], report: report, input: input,
                                      roadSet: roadSet, profiles: profiles, log: log, metricBudget: metricBudget, waits: waits, writtenAhead: true,
                                      to: &writer)
        return (writer, metadata)
    }

    /// Everything after the road network is built, for one road set written alone; shared by the OSM and DIMACS importers.
    public static func write(network: RoadNetwork, restrictions: [TurnRestriction], report: ImportReport,
                             input: String, output: String, profile: String = CarProfile.name, log: ProgressLog) throws -> GraphMetadata {
        let stream = try GraphFileStream(path: output, tableCapacity: sectionsPerRoadSet)
        do {
            var writer = StreamedSections(stream: stream)
            let metadata = try addRoadSet(network: network, restrictions: restrictions, report: report, input: input, roadSet: .motor,
                                          profile: profile, log: log, to: &writer)
            try finish(stream, table: writer.entries, log: log)
            return metadata
        } catch {
            stream.abandon()
            throw error
        }
    }

    /// Writes the section table and gives the file its name (the sections are in it already).
    private static func finish(_ stream: GraphFileStream, table: [GraphFileSection], log: ProgressLog) throws {
        try log.phase("write") {
            try stream.commit(table)
            let size = (try? FileManager.default.attributesOfItem(atPath: stream.path)[.size] as? Int) ?? 0
            return ((), "\(stream.path), \(size) bytes, \(table.count) sections")
        }
    }

    /// Turn graph, order, contraction, per-profile customization and spatial index of one road set, written through
    /// `writer` under the road set's section names. The network's sections (and the spatial index) are written as soon
    /// as nothing reads the network any more, and it is freed: before the order, or after the turn costs when the car's
    /// read it. Each metric is written right after its customization, the rest at the end; the table lists them all in
    /// one fixed order. `waits` run just before the order, just after it and just before the customizations (a road set waiting for another, RoadSetSchedule).
    /// `profiles`: the set's profiles to customize (nil: all of them; `profile` names the DIMACS graph's one).
    package static func addRoadSet(network unpadded: consuming RoadNetwork, restrictions allRestrictions: [TurnRestriction], report: ImportReport,
                           input: String, roadSet: RoadSet, profiles selected: [ProfileID]? = nil, profile: String? = nil, log: ProgressLog,
                           metricBudget: Int = Importer.metricBudget, waits: RoadSetWaits = RoadSetWaits(), writtenAhead: Bool = false,
                           to writer: inout StreamedSections) throws -> GraphMetadata {
        let tag = roadSet == .motor ? "" : "\(roadSet.rawValue) "
        let profile = profile ?? roadSet.profiles[0].rawValue
        // The car's turn costs (shared by the motor set), or each active profile's own (ActiveTurnCosts); none for DIMACS.
        let withTurnCosts = profile == CarProfile.name || (roadSet == .active && profile == roadSet.profiles[0].rawValue)
        writer.rename = roadSet.sectionName
        var padded = consume unpadded
        if !writtenAhead {
            padded = withGuidanceArrays(consume padded)
            try writeAhead(&padded, withTurnCosts: withTurnCosts, to: &writer)
        }
        let network = consume padded
        let (restrictions, profileRestrictions) = ProfileTurnCosts.split(allRestrictions, firstProfile: roadSet.profiles[0])
        // The active profiles differ most in what they may use: each turns back and counts a junction's roads on its own.
        let junctions = roadSet == .active ? ProfileJunctions(network: network, profiles: (selected ?? roadSet.profiles).first ?? roadSet.profiles[0]) : nil
        var unordered = log.phase(tag + "turn graph") {
            var graph = TurnGraphBuilder.build(network: network, restrictions: restrictions, junctions: junctions)
            graph.compact()
            return (graph, "\(graph.nodeCount) routing nodes (\(graph.viaPathCopyCount) on via-way copies), \(graph.arcCount) turns, \(restrictions.count) restrictions kept")
        }
        guard unordered.nodeCount > 0 else { throw NavGraphError("\(input): no drivable road for a car in this extract") }
        let profileIDs = profile == DimacsReader.profileName ? [ProfileID.car] : selected ?? roadSet.profiles
        let withLimits = profileIDs.count > 1 && roadSet == .motor
        let edgeCount = network.edgeCount
        // The order cuts the junction graph by inertial flow down to parts of NAVGRAPH_ORDER_LEAF routing nodes
        // (benchmarks only). METIS nested dissection alone orders graphs without junction positions (DIMACS) and,
        // with NAVGRAPH_ORDER=metis (benchmarks only), any graph, as before. Read here: the network moves on below.
        let junctionPlane = JunctionDissectionOrder.junctionPlane(network)
        let orderLeafSize = ProcessInfo.processInfo.environment["NAVGRAPH_ORDER"] == "metis" || !JunctionDissectionOrder.hasPositions(junctionPlane) ? nil
            : ProcessInfo.processInfo.environment["NAVGRAPH_ORDER_LEAF"].flatMap { Int($0) } ?? JunctionDissectionOrder.defaultLeafSize
        let junctionEnds = (from: network.edgeFrom, to: network.edgeTo, count: network.nodeCount)
        // Written at once when no turn cost reads it; else the turn costs are computed on the unordered turn graph
        // and the network written on another thread while the order runs (the costs follow their arcs through the
        // renumbering). The network's one copy moves into that thread.
        let held = NetworkHandOver(consume network)
        var written: WrittenNetwork?
        func writeNetwork(_ network: consuming RoadNetwork) throws -> WrittenNetwork {
            var routable = ContiguousArray<Bool>(repeating: false, count: edgeCount)
            for node in 0..<unordered.originalNodeCount { routable[Int(unordered.directedEdge[node] >> 1)] = true }
            return try WrittenNetwork.write(consume network, turns: unordered, profiles: profileIDs, withLimits: withLimits,
                                            isRoutable: { routable[$0] }, tag: tag, log: log, to: &writer)
        }
        if !withTurnCosts, let network = held.take() { written = try writeNetwork(consume network) }
        waits.beforeOrder()
        // NAVGRAPH_ORDER_SPLIT_LEVELS (benchmarks only): 0 = one METIS_NodeND call, as before parallel ordering.
        let splitLevels = ProcessInfo.processInfo.environment["NAVGRAPH_ORDER_SPLIT_LEVELS"].flatMap { Int($0) } ?? 2
        // NAVGRAPH_ORDER_REDUCTION, _SPLIT_TRIES, _ND_TRIES, _SEED (benchmarks only): none|trees|treesAndChains, METIS effort.
        let environment = ProcessInfo.processInfo.environment
        let reduction = environment["NAVGRAPH_ORDER_REDUCTION"].flatMap { CoreReduction.Mode(rawValue: $0) } ?? .treesAndChains
        var effort = NestedDissectionOrder.Effort()
        if let tries = environment["NAVGRAPH_ORDER_SPLIT_TRIES"].flatMap({ Int32($0) }) { effort.splitSeparatorTries = tries }
        if let tries = environment["NAVGRAPH_ORDER_ND_TRIES"].flatMap({ Int32($0) }) { effort.nodeNDSeparatorTries = tries }
        effort.seed = environment["NAVGRAPH_ORDER_SEED"].flatMap { Int32($0) }
        let ordered = PhaseResult<ContiguousArray<UInt32>>(), costed = PhaseResult<[ContiguousArray<UInt32>]>()
        PhaseWorkers.run(withTurnCosts ? 2 : 1) { part in
            if part == 0 {
                ordered.value = Result {
                    try log.phase(tag + "order") {
                        if let leafSize = orderLeafSize {
                            return (try JunctionDissectionOrder.compute(turns: unordered, edgeFrom: junctionEnds.from, edgeTo: junctionEnds.to,
                                                                        junctionCount: junctionEnds.count, plane: junctionPlane, leafSize: leafSize,
                                                                        effort: effort),
                                    "inertial flow cuts of the junction graph down to parts of \(leafSize) routing nodes, then METIS nested dissection")
                        }
                        return (try NestedDissectionOrder.compute(nodeCount: unordered.nodeCount, firstOut: unordered.firstOut, head: unordered.head,
                                                                  splitLevels: splitLevels, reduction: reduction, effort: effort),
                                "METIS nested dissection (core reduction \(reduction.rawValue)), \(splitLevels) separator levels split over threads")
                    }
                }
                return
            }
            costed.value = Result {
                guard let network = held.take() else { throw NavGraphError("\(input): the road network was released early", code: .ioFailure) }
                let costs = log.phase(tag + "turn costs") {
                    let costs = roadSet == .active ? profileIDs.map { ActiveTurnCosts.compute(network: network, turns: unordered, profile: $0, junctions: junctions) }
                        : [TurnCosts.compute(network: network, turns: unordered)]
                    let total = costs[0].reduce(0) { $0 + Int($1) }
                    return (costs, String(format: "mean %.2f s per turn (%@)", Double(total) / 1000 / Double(max(1, costs[0].count)),
                                          roadSet == .active ? profileIDs[0].rawValue : "car"))
                }
                written = try writeNetwork(consume network)
                return costs
            }
        }
        var rank = try ordered.take()
        waits.afterOrder()
        let earlyCosts = withTurnCosts ? try costed.take() : nil
        var (turns, carriedCosts) = renumber(unordered, rank: rank, arcValues: earlyCosts ?? [])
        var routingNodeOfEdge = ContiguousArray<Int32>(repeating: -1, count: edgeCount * 2)
        for node in 0..<unordered.originalNodeCount { routingNodeOfEdge[Int(unordered.directedEdge[node])] = Int32(rank[node]) }
        unordered = TurnGraph()  // the renumbered copy replaces it
        guard var written else { throw NavGraphError("\(input): the \(roadSet.rawValue) road network was not written", code: .ioFailure) }
        let hasOwnEdges = written.hasOwnEdges
        // The contraction, and the components and the turn arrays the customizations read back, each only read the
        // renumbered turn graph: they run side by side (the turn arrays are written ahead on the components' thread).
        // Without turn costs (DIMACS), every turn is free.
        let routingNodeCount = turns.nodeCount, turnCount = turns.arcCount
        let contracted = PhaseResult<CCHTopology>()
        let connected = PhaseResult<(component: ContiguousArray<UInt32>, sizes: [Int])>()
        let turnsAhead = PhaseResult<TurnArraysAhead>()
        var profileComponents: [ContiguousArray<UInt32>] = []
        do {
            let renumbered = turns  // dropped before the turn graph is changed again (no copy on write)
            turns = TurnGraph()
            let turnCosts = carriedCosts.isEmpty ? [ContiguousArray<UInt32>(repeating: 0, count: turnCount)] : carriedCosts
            carriedCosts = []
            let aheadWriter = writer  // only its `write` is used, from the components' thread
            PhaseWorkers.run(2) { part in
                if part == 0 {
                    contracted.value = Result {
                        try log.phase(tag + "contract") {
                            let topology = try ChordalContraction.contract(nodeCount: renumbered.nodeCount, firstOut: renumbered.firstOut, head: renumbered.head)
                            return (topology, "\(topology.arcCount) CCH arcs (\(String(format: "%.2f", Double(topology.arcCount) / Double(max(1, renumbered.arcCount))))x the turns)")
                        }
                    }
                } else {
                    connected.value = .success(log.phase(tag + "components") {
                        let result = StronglyConnectedComponents.compute(nodeCount: renumbered.nodeCount, firstOut: renumbered.firstOut, head: renumbered.head)
                        return (result, "\(result.sizes.count) strongly connected, largest \(result.sizes.first ?? 0)")
                    })
                    turnsAhead.value = Result {
                        try writeTurnsAhead(renumbered, turnCosts: turnCosts, profiles: profileIDs, hasOwnEdges: hasOwnEdges,
                                            restrictions: profileRestrictions, with: aheadWriter)
                    }
                }
            }
            // The active profiles differ most in what they may use (footpaths closed to bicycles): each gets its own
            // components for snapping (ProfileComponents).
            if roadSet == .active {
                let weights = written.nodeWeights
                profileComponents = log.phase(tag + "profile components") {
                    let found = profileIDs.indices.map {
                        ProfileComponents.compute(turns: renumbered, weights: weights[$0], rank: rank, turnCosts: turnCosts.count == profileIDs.count ? turnCosts[$0] : nil)
                    }
                    return (found.map(\.component), zip(profileIDs, found).map { "\($0.rawValue) largest \($1.sizes.first ?? 0)" }.joined(separator: ", "))
                }
            }
        }
        var topology = try contracted.take()
        var (component, componentSizes) = try connected.take()
        let ahead = try turnsAhead.take()
        for (name, section) in ahead.sections { writer.noteAhead(name, section) }
        try writer.addAhead(Section.routingComponent, component)
        component = []
        for (id, own) in zip(profileIDs, profileComponents) { try writer.addAhead(id.componentSectionBase, own) }
        profileComponents = []
        written.renumber(rank: rank)
        try writer.addAhead(Section.routingNodeOfEdge, routingNodeOfEdge)
        routingNodeOfEdge = []
        rank = []
        // The customizations read the turn graph, the turn costs and the input arcs only once each, in turn-arc order:
        // they are written ahead and read back in pieces, so that only the hierarchy and one metric are resident.
        let code = try writer.addAhead(Section.cchInputArc, topology.inputArc)
        topology.inputArc = []
        // The downward arcs, for unpacking shortcuts at query time (the metrics hold no middle nodes): written and freed
        // before the metrics are customized.
        try log.phase(tag + "downward arcs") {
            let (firstDown, downArcs) = topology.firstUp.withUnsafeBufferPointer { firstUp in
                topology.upHead.withUnsafeBufferPointer { DownwardArcs.build(firstUp: firstUp, upHead: $0) }
            }
            try writer.addAhead(Section.cchFirstDown, firstDown)
            try writer.addAhead(Section.cchDownArcs, downArcs)
            return ((), "\(downArcs.count / 2) arcs indexed by their upper end, written")
        }
        let inputArcs = ahead.costs.map {
            InputArcSource(count: turnCount, head: .written(ahead.head), code: .written(code), cost: $0, stream: writer.stream)
        }
        // One customization per profile of the shared hierarchy: its edge times, and its own restrictions as turn penalties.
        // Each metric (`CCHMetric.bytesPerArc`: weights and middle hints) is written to the file as soon as it is
        // customized and freed; its table entries go in their place below. Small metrics are customized side by side
        // on concurrent threads; when the metrics that would be resident at once exceed the budget, one after the
        // other, each on two threads.
        waits.beforeCustomize()
        let customized = written.takeNodeWeights().map { CustomizedProfile(nodeWeight: $0) }
        let metricWriter = writer  // only its `write` is used, from the customization threads
        let metricBytes = CCHMetric.bytesPerArc * topology.arcCount
        let oneAtATime = metricBytes * min(profileIDs.count, Parallel.workerCount) > metricBudget
        let hierarchy = topology  // what the customization threads read (the same arrays)
        // Side by side in groups of one per core; a profile left over (the third of three on two cores) then runs alone
        // on the cores, as each does when they run one at a time.
        let sideBySide = oneAtATime ? 0 : profileIDs.count / Parallel.workerCount * Parallel.workerCount
        let split = sideBySide < profileIDs.count ? CCHView.with(hierarchy: hierarchy) { CustomizationSplit.find($0) } : nil
        navgraph_release_free_memory()  // what the order, the contraction and the other road set freed in their threads' arenas
        let customize = { (index: Int, split: CustomizationSplit?) in
            let id = profileIDs[index]
            customized[index].value = Result {
                try log.phase(tag + (index == 0 ? "customize" : "customize \(id.rawValue)")) {
                    // Taken from `customized`, so that the customization holds the only copy.
                    let nodeWeight = customized[index].nodeWeight
                    customized[index].nodeWeight = []
                    // A later profile without its own edge arrays has no sections: nothing to customize for it.
                    guard hasOwnEdges[index] else { return ((id, []), "\(id.rawValue): no edges of its own, nothing to customize") }
                    let sections: [GraphFileSection]
                    if oneAtATime {
                        // In memory, then written straight to the disk (AtomicFileOutput's direct appends).
                        let metric = try CCHView.with(hierarchy: hierarchy) { view in
                            try nodeWeight.withUnsafeBufferPointer { weights in
                                try Customization.customize(hierarchy: view, nodeWeight: weights, split: split, inputArcs: inputArcs[index].forEachPiece)
                            }
                        }
                        sections = [try metricWriter.write(id.baseSectionName(.metricForward), metric.forward),
                                    try metricWriter.write(id.baseSectionName(.metricBackward), metric.backward),
                                    try metricWriter.write(id.baseSectionName(.metricHint), metric.middleHint)]
                    } else {
                        // Written in place in the file: no copy of the metric into it.
                        let count = hierarchy.arcCount
                        let forward = try metricWriter.reserve(id.baseSectionName(.metricForward), count: count, of: UInt32.self)
                        let backward = try metricWriter.reserve(id.baseSectionName(.metricBackward), count: count, of: UInt32.self)
                        let hints = try metricWriter.reserve(id.baseSectionName(.metricHint), count: CCHMetric.hintsPerArc * count, of: UInt8.self)
                        try CCHView.with(hierarchy: hierarchy) { view in
                            try nodeWeight.withUnsafeBufferPointer { weights in
                                try Customization.customize(hierarchy: view, nodeWeight: weights, split: split, inputArcs: inputArcs[index].forEachPiece,
                                                            into: forward.elements, backward.elements, hints: hints.elements)
                            }
                        }
                        sections = [metricWriter.stream.finish(forward), metricWriter.stream.finish(backward), metricWriter.stream.finish(hints)]
                    }
                    return ((id, sections), "\(id.rawValue): free-flow travel time and turn costs, written\(oneAtATime ? " (one at a time)" : "")")
                }
            }
        }
        if sideBySide > 0 { PhaseWorkers.run(sideBySide) { customize($0, nil) } }
        for index in sideBySide..<profileIDs.count { customize(index, split) }
        var profileMetrics: [(profile: ProfileID, metricSections: [GraphFileSection])] = []
        for entry in customized {
            guard let result = entry.value else { throw NavGraphError("\(input): a profile's customization is missing", code: .ioFailure) }
            profileMetrics.append(try result.get())
        }

        let attributes = (try? FileManager.default.attributesOfItem(atPath: input)) ?? [:]
        let modified = (attributes[.modificationDate] as? Date) ?? Date(timeIntervalSince1970: 0)
        let iso = ISO8601DateFormatter()
        let metadata = GraphMetadata(
            formatVersion: GraphFileFormat.version, profile: profile,
            source: .init(name: (input as NSString).lastPathComponent, bytes: (attributes[.size] as? Int) ?? 0, modified: iso.string(from: modified)),
            createdAt: iso.string(from: Date()), nodeCount: written.nodeCount, edgeCount: written.edgeCount,
            shapePointCount: written.shapePointCount, routingNodeCount: routingNodeCount, turnCount: turnCount,
            cchArcCount: topology.arcCount, bbox: written.bbox, grid: written.grid, componentSizes: Array(componentSizes.prefix(20)),
            componentCount: componentSizes.count, report: report, phaseSeconds: log.phaseSeconds,
            phaseMemory: log.phaseMemory, phaseCPUSeconds: log.phaseCPUSeconds,
            profiles: profile == DimacsReader.profileName ? nil : profileIDs.map(\.rawValue))

        // The table, in its fixed order; most sections are in the file already and only placed here.
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try writer.addData(Section.meta, try encoder.encode(metadata))
            for name in [Section.nodeOSM, Section.edgeFrom, Section.edgeTo, Section.edgeShapeFirst, Section.shapeLat, Section.shapeLon,
                         Section.shapeOSM, Section.edgeLength, Section.edgeTimeForward, Section.edgeTimeBackward, Section.edgeClass,
                         Section.edgeFlags, Section.edgeMaxspeed, Section.edgeName, Section.edgeRef, Section.edgeWay,
                         Section.stringOffsets, Section.stringBytes, Section.nodeControl, Section.nodeExitRef, Section.shapeControl,
                         Section.edgeGuide, Section.guideFields, Section.junctionFirstOut, Section.junctionOut] {
                try writer.place(name)
            }
            try writer.addData(Section.nameLanguages, Data(LocalizedNames.languages.joined(separator: ",").utf8))
            try writer.place(Section.nameWay)
            try writer.place(Section.nameLocal)
            try writer.place(Section.routingEdge)
            try writer.place(Section.routingNodeOfEdge)
            try writer.place(Section.routingComponent)
            try writer.place(Section.turnFirstOut)
            try writer.place(Section.turnHead)
            try writer.place(Section.turnCost)
            try addRestrictions(restrictions, to: &writer)
            try writer.add(Section.cchFirstUp, topology.firstUp)
            try writer.add(Section.cchUpHead, topology.upHead)
            try writer.add(Section.cchParent, topology.parent)
            try writer.place(Section.cchInputArc)
            try writer.place(Section.cchFirstDown)
            try writer.place(Section.cchDownArcs)
            writer.record(profileMetrics[0].metricSections)
            try writer.place(Section.gridFirst)
            try writer.place(Section.gridSegment)
            for id in profileIDs where roadSet == .active { try writer.place(id.componentSectionBase) }
            for (index, entry) in profileMetrics.enumerated() where index > 0 && written.hasOwnEdges[index] {
                try writer.place(entry.profile.baseSectionName(.timeForward))
                try writer.place(entry.profile.baseSectionName(.timeBackward))
                try writer.place(entry.profile.baseSectionName(.flags))
                try writer.place(entry.profile.baseSectionName(.turnCost))
                writer.record(entry.metricSections)
            }
            if withLimits {
                try writer.place(Section.limitEdge)
                try writer.place(Section.limitValues)
            }
        }
        guard writer.ahead.isEmpty else {
            throw NavGraphError("\(input): sections written ahead but not placed: \(writer.ahead.keys.sorted())", code: .ioFailure)
        }
        return metadata
    }

    /// Writes the sections of `network` that no later phase of the import reads, and empties their arrays (their table
    /// entries go in their places at the end): OSM ids of shape points, refs, classes, speed limits, the string table,
    /// guidance records and localized names; without car turn costs (which read them) also names, way ids and lengths.
    private static func writeAhead(_ network: inout RoadNetwork, withTurnCosts: Bool, to writer: inout StreamedSections) throws {
        func ahead<Element: BitwiseCopyable>(_ name: String, _ array: WritableKeyPath<RoadNetwork, ContiguousArray<Element>>) throws {
            try writer.addAhead(name, network[keyPath: array])
            network[keyPath: array] = []
        }
        try ahead(Section.shapeOSM, \.shapeOSMNode)
        try ahead(Section.edgeClass, \.edgeClass)
        try ahead(Section.edgeMaxspeed, \.edgeMaxspeed)
        try ahead(Section.edgeRef, \.edgeRef)
        if !withTurnCosts {
            try ahead(Section.edgeLength, \.edgeLength)
            try ahead(Section.edgeName, \.edgeName)
            try ahead(Section.edgeWay, \.edgeWay)
        }
        try writer.addAhead(Section.stringOffsets, network.strings.offsets)
        try writer.addAhead(Section.stringBytes, network.strings.bytes)
        network.strings = StringTable()
        try ahead(Section.nodeExitRef, \.nodeExitRef)
        try ahead(Section.edgeGuide, \.edgeGuide)
        try ahead(Section.guideFields, \.guideFields)
        try writer.addAhead(Section.nameWay, network.localizedNames.ways)
        try writer.addAhead(Section.nameLocal, network.localizedNames.names)
        network.localizedNames = LocalizedNames()
    }

    /// What `writeTurnsAhead` wrote: each profile's turn costs (written, or kept in memory for a profile without
    /// edges of its own), the turn heads' section, and every section with the name its `StreamedSections.noteAhead` takes.
    package struct TurnArraysAhead {
        package var costs: [InputArcSource.Column] = []
        package var head: GraphFileSection
        package var sections: [(String, GraphFileSection)] = []
    }

    /// Writes ahead the renumbered turn graph's arrays and every profile's turn costs with its own restrictions (what
    /// the customizations read back, turn arc by turn arc; the input arcs follow once contracted), through `writer`'s
    /// `write` only, so from any thread. A later profile without edge arrays of its own has no turn-cost section: its
    /// costs stay in memory.
    private static func writeTurnsAhead(_ turns: TurnGraph, turnCosts: [ContiguousArray<UInt32>], profiles: [ProfileID], hasOwnEdges: [Bool],
                                        restrictions: [TurnRestriction], with writer: StreamedSections) throws -> TurnArraysAhead {
        var sections: [(String, GraphFileSection)] = []
        func write<Element: BitwiseCopyable>(_ name: String, _ values: ContiguousArray<Element>) throws -> GraphFileSection {
            let section = try writer.write(name, values)
            sections.append((name, section))
            return section
        }
        var costs: [InputArcSource.Column] = []
        for (index, id) in profiles.enumerated() {
            let profileCosts = ProfileTurnCosts.apply(restrictions, profile: id, to: turnCosts[turnCosts.count > index ? index : 0], turns: turns)
            if index == 0 || hasOwnEdges[index] {
                costs.append(.written(try write(index == 0 ? Section.turnCost : id.baseSectionName(.turnCost), profileCosts)))
            } else {
                costs.append(.memory(profileCosts))
            }
        }
        _ = try write(Section.routingEdge, turns.directedEdge)
        _ = try write(Section.turnFirstOut, turns.firstOut)
        let head = try write(Section.turnHead, turns.head)
        return TurnArraysAhead(costs: costs, head: head, sections: sections)
    }

    /// A network whose guidance arrays have their full size (readers without guidance data leave them empty).
    package static func withGuidanceArrays(_ network: RoadNetwork) -> RoadNetwork {
        var padded = network
        if padded.nodeControl.count != padded.nodeCount { padded.nodeControl = ContiguousArray(repeating: 0, count: padded.nodeCount) }
        if padded.nodeExitRef.count != padded.nodeCount { padded.nodeExitRef = ContiguousArray(repeating: 0, count: padded.nodeCount) }
        if padded.shapeControl.count != padded.shapeLatE7.count { padded.shapeControl = ContiguousArray(repeating: 0, count: padded.shapeLatE7.count) }
        if padded.edgeGuide.count != padded.edgeCount { padded.edgeGuide = ContiguousArray(repeating: 0, count: padded.edgeCount) }
        return padded
    }

    private static func addRestrictions(_ restrictions: [TurnRestriction], to writer: inout StreamedSections) throws {
        var fromFirst: ContiguousArray<UInt32> = [0], toFirst: ContiguousArray<UInt32> = [0]
        var viaPathFirst: ContiguousArray<UInt32> = [0]
        var from = ContiguousArray<UInt32>(), to = ContiguousArray<UInt32>(), viaPath = ContiguousArray<UInt32>()
        for restriction in restrictions {
            from.append(contentsOf: restriction.fromDirectedEdges); fromFirst.append(UInt32(from.count))
            to.append(contentsOf: restriction.toDirectedEdges); toFirst.append(UInt32(to.count))
            viaPath.append(contentsOf: restriction.viaDirectedEdges); viaPathFirst.append(UInt32(viaPath.count))
        }
        try writer.add(Section.restrictionRelation, ContiguousArray(restrictions.map(\.relationID)))
        try writer.add(Section.restrictionVia, ContiguousArray(restrictions.map(\.via)))
        try writer.add(Section.restrictionMandatory, ContiguousArray(restrictions.map { UInt8($0.isMandatory ? 1 : 0) }))
        try writer.add(Section.restrictionFromFirst, fromFirst)
        try writer.add(Section.restrictionFrom, from)
        try writer.add(Section.restrictionToFirst, toFirst)
        try writer.add(Section.restrictionTo, to)
        try writer.add(Section.restrictionViaPathFirst, viaPathFirst)
        try writer.add(Section.restrictionViaPath, viaPath)
    }

    /// Renumbers routing nodes so that node id equals rank.
    /// The turn graph with node v renamed rank[v], each node's arcs sorted by head (then by the first column's value);
    /// each column of `arcValues` (one value per arc) follows its arcs.
    package static func renumber(_ graph: TurnGraph, rank: ContiguousArray<UInt32>,
                         arcValues columns: [ContiguousArray<UInt32>] = []) -> (TurnGraph, [ContiguousArray<UInt32>]) {
        var order = ContiguousArray<UInt32>(repeating: 0, count: graph.nodeCount)
        for node in 0..<graph.nodeCount { order[Int(rank[node])] = UInt32(node) }
        var result = TurnGraph()
        result.firstOut.reserveCapacity(graph.nodeCount + 1)
        result.firstOut.append(0)
        result.head.reserveCapacity(graph.arcCount)
        result.directedEdge.reserveCapacity(graph.nodeCount)
        var values = columns.map { _ in ContiguousArray<UInt32>() }
        for index in values.indices { values[index].reserveCapacity(graph.arcCount) }
        var arcs: [(head: UInt32, value: UInt32, arc: Int)] = []  // one node's arcs, reused
        for newID in 0..<graph.nodeCount {
            let old = Int(order[newID])
            result.directedEdge.append(graph.directedEdge[old])
            arcs.removeAll(keepingCapacity: true)
            for arc in Int(graph.firstOut[old])..<Int(graph.firstOut[old + 1]) {
                arcs.append((rank[Int(graph.head[arc])], columns.first?[arc] ?? 0, arc))
            }
            arcs.sort { ($0.head, $0.value, $0.arc) < ($1.head, $1.value, $1.arc) }
            for arc in arcs {
                result.head.append(arc.head)
                for index in columns.indices { values[index].append(columns[index][arc.arc]) }
            }
            result.firstOut.append(UInt32(result.head.count))
        }
        return (result, values)
    }

    package static func boundingBox(_ network: RoadNetwork) -> BoundingBox {
        var box = BoundingBox(minLat: 90, minLon: 180, maxLat: -90, maxLon: -180)
        for index in 0..<network.shapeLatE7.count {
            let point = Coordinate(latE7: network.shapeLatE7[index], lonE7: network.shapeLonE7[index])
            box.minLat = min(box.minLat, point.lat); box.maxLat = max(box.maxLat, point.lat)
            box.minLon = min(box.minLon, point.lon); box.maxLon = max(box.maxLon, point.lon)
        }
        return box
    }
}

/// The OSM file's arrays, shared by the road sets being built and released when the last of them is done with them.
private final class SharedOSMSource: @unchecked Sendable {
    private let lock = NSLock()
    private var held: OSMSource?
    private var users: Int

    package init(_ source: OSMSource, users: Int) { held = source; self.users = users }

    package var source: OSMSource? { lock.withLock { held } }

    /// One user is done; the last one frees the arrays (the largest thing resident while a road network is built).
    package func release() {
        let last: OSMSource? = lock.withLock {
            users -= 1
            guard users <= 0 else { return nil }
            defer { held = nil }
            return held
        }
        _ = last  // freed here, outside the lock
    }
}

/// What one road set's import gave (written by its thread, read after all finished).
private final class RoadSetOutcome: @unchecked Sendable {
    package var result: Result<(StreamedSections, GraphMetadata), any Error>?
}

/// One profile's customization: its routing-node weights until it starts, then its metric's sections, already in the
/// file (written by its customization thread, read after all finished).
/// A road network handed from the thread that built it to the one that writes it: `take` moves out the only copy.
private final class NetworkHandOver: @unchecked Sendable {
    private let lock = NSLock()
    private var network: RoadNetwork?

    package init(_ network: consuming RoadNetwork) { self.network = network }

    package func take() -> RoadNetwork? { lock.withLock { network.take() } }
}

/// The outcome of one of several import phases run side by side, set by the thread that ran it.
private final class PhaseResult<Value>: @unchecked Sendable {
    package var value: Result<Value, any Error>?

    /// The value, or the phase's error; nil only if the phase never ran.
    package func take() throws -> Value {
        guard let value else { throw NavGraphError("an import phase did not run", code: .ioFailure) }
        self.value = nil
        return try value.get()
    }
}

private final class CustomizedProfile: @unchecked Sendable {
    package var nodeWeight: ContiguousArray<UInt32>
    package var value: Result<(profile: ProfileID, metricSections: [GraphFileSection]), any Error>?

    package init(nodeWeight: ContiguousArray<UInt32>) { self.nodeWeight = nodeWeight }
}
