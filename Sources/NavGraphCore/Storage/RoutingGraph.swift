import Foundation

/// A loaded graph file: every array is a view into the memory-mapped file.
public final class RoutingGraph: @unchecked Sendable {
    public let file: MappedGraphFile
    public let metadata: GraphMetadata
    /// The profile whose times, flags, turn costs and metric this view holds.
    public let profile: ProfileID
    /// Truck limits: limited edges ascending, `VehicleLimits.count` values each (empty without truck data).
    public let limitEdge: UnsafeBufferPointer<UInt32>
    public let limitValues: UnsafeBufferPointer<UInt16>

    public let nodeOSMID: UnsafeBufferPointer<Int64>
    public let edgeFrom: UnsafeBufferPointer<UInt32>
    public let edgeTo: UnsafeBufferPointer<UInt32>
    public let edgeShapeFirst: UnsafeBufferPointer<UInt32>
    public let shapeLatE7: UnsafeBufferPointer<Int32>
    public let shapeLonE7: UnsafeBufferPointer<Int32>
    public let shapeOSMNode: UnsafeBufferPointer<Int64>
    public let edgeLength: UnsafeBufferPointer<Double>
    public let edgeTimeForward: UnsafeBufferPointer<UInt32>
    public let edgeTimeBackward: UnsafeBufferPointer<UInt32>
    public let edgeClass: UnsafeBufferPointer<UInt8>
    public let edgeFlags: UnsafeBufferPointer<UInt16>
    public let edgeMaxspeed: UnsafeBufferPointer<UInt8>
    public let edgeName: UnsafeBufferPointer<UInt32>
    public let edgeRef: UnsafeBufferPointer<UInt32>
    public let edgeWay: UnsafeBufferPointer<Int64>
    public let stringOffsets: UnsafeBufferPointer<UInt32>
    public let stringBytes: UnsafeBufferPointer<UInt8>
    /// Directed edge (2 * edge + direction) of each routing node; routing node ids are CCH ranks.
    public let routingEdge: UnsafeBufferPointer<UInt32>
    public let routingNodeOfEdge: UnsafeBufferPointer<Int32>
    public let routingComponent: UnsafeBufferPointer<UInt32>
    /// Sizes of the profile's own components, largest first, when the file stores them (`ProfileComponents`); then
    /// `routingComponent` holds them, else the road set's.
    public let profileComponentSizes: [Int]?
    public let cch: CCHView
    /// Free-flow turn cost in milliseconds per turn arc (parallel to `cch.turnHead`), paid on top of the entered edge's time.
    public let turnCost: UnsafeBufferPointer<UInt32>
    public let freeFlowMetric: CCHMetric
    public let gridFirst: UnsafeBufferPointer<UInt32>
    public let gridSegment: UnsafeBufferPointer<UInt32>
    public let restrictionCount: Int
    /// Guidance: `NodeControl` bits per junction and per shape point, exit number string id per junction.
    public let nodeControl: UnsafeBufferPointer<UInt8>
    public let shapeControl: UnsafeBufferPointer<UInt8>
    public let nodeExitRef: UnsafeBufferPointer<UInt32>
    /// Guidance: record id per edge into `guideFields` (`GuideRecord` layout).
    public let edgeGuide: UnsafeBufferPointer<UInt32>
    public let guideFields: UnsafeBufferPointer<UInt32>
    /// Directed edges leaving junction n: junctionOut[junctionFirstOut[n] ..< junctionFirstOut[n + 1]].
    public let junctionFirstOut: UnsafeBufferPointer<UInt32>
    public let junctionOut: UnsafeBufferPointer<UInt32>
    /// Guidance: the languages of the localized street names (column order), the OSM ways that have one
    /// (ascending), and a string id per way and language, 0 where none (`LocalizedNames`, `name(edge:in:)`).
    public let nameLanguages: [String]
    public let nameWay: UnsafeBufferPointer<Int64>
    public let nameLocal: UnsafeBufferPointer<UInt32>

    /// Loads a graph file for a profile (the car by default).
    public convenience init(path: String, verifyChecksums: Bool = true, profile: ProfileID = .car) throws {
        try self.init(file: try MappedGraphFile(path: path, verifyChecksums: verifyChecksums), profile: profile)
    }

    /// A profile's view of an already mapped graph file: its road set's arrays, with the profile's edge times, flags,
    /// turn costs and free-flow metric.
    public init(file: MappedGraphFile, profile: ProfileID) throws {
        self.file = file
        self.profile = profile
        let path = file.path
        let roadSet = profile.roadSet
        func name(_ base: String) -> String { roadSet.sectionName(base) }
        guard file.sections[name(Section.meta)] != nil else {
            throw NavGraphError("\(path): this graph has no \(roadSet.rawValue) road set for profile \(profile.rawValue) (the import found no \(roadSet.rawValue) ways); re-import the OSM file with navgraph import", code: .noRoute)
        }
        do {
            metadata = try JSONDecoder().decode(GraphMetadata.self, from: Data(try file.bytes(name(Section.meta))))
        } catch let error as NavGraphError {
            throw error
        } catch {
            throw NavGraphError("\(path): unreadable metadata section (\(error))")
        }
        if let profiles = metadata.profiles, !profiles.contains(profile.rawValue) {
            throw NavGraphError("\(path): this graph has no \(profile.rawValue) profile (it has \(profiles.joined(separator: ", "))); re-import the OSM file with navgraph import", code: .noRoute)
        }
        if metadata.profiles == nil && profile != .car {
            throw NavGraphError("\(path): this graph holds the car profile only, not \(profile.rawValue)", code: .noRoute)
        }
        nodeOSMID = try file.array(name(Section.nodeOSM))
        edgeFrom = try file.array(name(Section.edgeFrom))
        edgeTo = try file.array(name(Section.edgeTo))
        edgeShapeFirst = try file.array(name(Section.edgeShapeFirst))
        shapeLatE7 = try file.array(name(Section.shapeLat))
        shapeLonE7 = try file.array(name(Section.shapeLon))
        shapeOSMNode = try file.array(name(Section.shapeOSM))
        edgeLength = try file.array(name(Section.edgeLength))
        edgeTimeForward = try file.array(profile.sectionName(.timeForward))
        edgeTimeBackward = try file.array(profile.sectionName(.timeBackward))
        edgeClass = try file.array(name(Section.edgeClass))
        edgeFlags = try file.array(profile.sectionName(.flags))
        edgeMaxspeed = try file.array(name(Section.edgeMaxspeed))
        edgeName = try file.array(name(Section.edgeName))
        edgeRef = try file.array(name(Section.edgeRef))
        edgeWay = try file.array(name(Section.edgeWay))
        stringOffsets = try file.array(name(Section.stringOffsets))
        stringBytes = try file.array(name(Section.stringBytes))
        routingEdge = try file.array(name(Section.routingEdge))
        routingNodeOfEdge = try file.array(name(Section.routingNodeOfEdge))
        if file.sections[name(profile.componentSectionBase)] != nil {
            routingComponent = try file.array(name(profile.componentSectionBase))
            profileComponentSizes = ProfileComponents.sizes(routingComponent)
        } else {
            routingComponent = try file.array(name(Section.routingComponent))
            profileComponentSizes = nil
        }
        cch = CCHView(firstUp: try file.array(name(Section.cchFirstUp)), upHead: try file.array(name(Section.cchUpHead)),
                      parent: try file.array(name(Section.cchParent)), inputArc: try file.array(name(Section.cchInputArc)),
                      turnFirstOut: try file.array(name(Section.turnFirstOut)), turnHead: try file.array(name(Section.turnHead)),
                      firstDown: try file.array(name(Section.cchFirstDown)), downArcs: try file.array(name(Section.cchDownArcs)))
        turnCost = try file.array(profile.sectionName(.turnCost))
        freeFlowMetric = CCHMetric(forward: try file.array(profile.sectionName(.metricForward)), backward: try file.array(profile.sectionName(.metricBackward)),
                                   middleHint: try file.array(profile.sectionName(.metricHint)), owner: file)
        gridFirst = try file.array(name(Section.gridFirst))
        gridSegment = try file.array(name(Section.gridSegment))
        restrictionCount = try file.array(name(Section.restrictionRelation), of: Int64.self).count
        nodeControl = try file.array(name(Section.nodeControl))
        shapeControl = try file.array(name(Section.shapeControl))
        nodeExitRef = try file.array(name(Section.nodeExitRef))
        edgeGuide = try file.array(name(Section.edgeGuide))
        guideFields = try file.array(name(Section.guideFields))
        junctionFirstOut = try file.array(name(Section.junctionFirstOut))
        junctionOut = try file.array(name(Section.junctionOut))
        nameLanguages = String(decoding: try file.bytes(name(Section.nameLanguages)), as: UTF8.self)
            .split(separator: ",").map(String.init)
        nameWay = try file.array(name(Section.nameWay))
        nameLocal = try file.array(name(Section.nameLocal))
        if file.sections[name(Section.limitEdge)] != nil {
            limitEdge = try file.array(name(Section.limitEdge))
            limitValues = try file.array(name(Section.limitValues))
        } else {
            limitEdge = UnsafeBufferPointer(start: nil, count: 0)
            limitValues = UnsafeBufferPointer(start: nil, count: 0)
        }
        try validate()
    }

    /// Cross-checks array sizes and contents so that a consistent-checksum but inconsistent file cannot cause
    /// out-of-bounds reads.
    private func validate() throws {
        let edges = edgeFrom.count, routing = routingEdge.count, nodes = nodeOSMID.count
        let checks: [(String, Bool)] = [
            ("edge arrays", [edgeTo.count, edgeLength.count, edgeTimeForward.count, edgeTimeBackward.count, edgeClass.count,
                             edgeFlags.count, edgeMaxspeed.count, edgeName.count, edgeRef.count, edgeWay.count].allSatisfy { $0 == edges }),
            ("edge shape", edgeShapeFirst.count == edges + 1 && Int(edgeShapeFirst.last ?? 0) == shapeLatE7.count),
            ("shape arrays", shapeLonE7.count == shapeLatE7.count && shapeOSMNode.count == shapeLatE7.count),
            ("routing arrays", routingNodeOfEdge.count == 2 * edges && routingComponent.count == routing && cch.parent.count == routing),
            ("turn graph", cch.turnFirstOut.count == routing + 1 && Int(cch.turnFirstOut.last ?? 0) == cch.turnHead.count && cch.inputArc.count == cch.turnHead.count
                && turnCost.count == cch.turnHead.count),
            ("cch arrays", cch.firstUp.count == routing + 1 && Int(cch.firstUp.last ?? 0) == cch.upHead.count
                && cch.firstDown.count == routing + 1 && Int(cch.firstDown.last ?? 0) == cch.upHead.count && cch.downArcs.count == 2 * cch.upHead.count),
            ("metric", freeFlowMetric.forward.count == cch.upHead.count && freeFlowMetric.backward.count == cch.upHead.count
                && freeFlowMetric.middleHint.count == CCHMetric.hintsPerArc * cch.upHead.count),
            ("guidance", nodeControl.count == nodes && nodeExitRef.count == nodes && shapeControl.count == shapeLatE7.count
                && edgeGuide.count == edges && guideFields.count % GuideRecord.fieldCount == 0 && guideFields.count > 0),
            ("junctions", junctionFirstOut.count == nodes + 1 && Int(junctionFirstOut.last ?? 0) == junctionOut.count),
            ("grid", gridFirst.count == metadata.grid.rows * metadata.grid.columns + 1 && Int(gridFirst.last ?? 0) == gridSegment.count),
            ("limits", limitValues.count == limitEdge.count * VehicleLimits.count),
            ("localized names", nameLocal.count == nameWay.count * nameLanguages.count),
            ("offsets", edgeShapeFirst.first == 0 && stringOffsets.first == 0 && cch.turnFirstOut.first == 0 && cch.firstUp.first == 0
                && gridFirst.first == 0),
            ("strings", stringOffsets.count >= 2 && Int(stringOffsets.last ?? 0) <= stringBytes.count),
        ]
        for (name, ok) in checks where !ok { throw NavGraphError("\(file.path): inconsistent \(name) in graph file", code: .badFile) }
        // Contents: offsets ascend and indices stay in range (found by fuzzing graph files: a descending grid offset
        // trapped the snapper). Every scan checks a piece of its array and reads nothing another scan must check first
        // (fuzzing: a descending firstUp trapped a parallel scan that walked it), so the pieces run on all cores.
        let strings = stringOffsets.count - 1, arcs = cch.upHead.count, records = guideFields.count / GuideRecord.fieldCount
        let shapes = shapeLatE7.count
        typealias Scan = (name: String, count: Int, check: (Range<Int>) -> Bool)
        let scans: [Scan] = [
            ("routing edges", routing, { ArrayScan.below(self.routingEdge, $0, 2 * edges) }),
            ("routing edges", 2 * edges, { ArrayScan.below(self.routingNodeOfEdge, $0, routing) }),
            ("guidance", edges, { ArrayScan.below(self.edgeGuide, $0, records) }),
            ("guidance", nodes, { ArrayScan.below(self.nodeExitRef, $0, strings) }),
            ("guidance", guideFields.count, { range in
                range.allSatisfy { $0 % GuideRecord.fieldCount == GuideRecord.laneCounts || Int(self.guideFields[$0]) < strings } }),
            ("junctions", junctionOut.count, { ArrayScan.below(self.junctionOut, $0, 2 * edges) }),
            ("junctions", ArrayScan.pairCount(junctionFirstOut), { ArrayScan.ascending(self.junctionFirstOut, $0) }),
            ("limits", limitEdge.count, { ArrayScan.below(self.limitEdge, $0, edges) }),
            ("edge shape offsets", ArrayScan.pairCount(edgeShapeFirst), { ArrayScan.ascending(self.edgeShapeFirst, $0, gap: 2) }),
            ("edge nodes", edges, { ArrayScan.below(self.edgeFrom, $0, nodes) && ArrayScan.below(self.edgeTo, $0, nodes) }),
            ("strings", ArrayScan.pairCount(stringOffsets), { ArrayScan.ascending(self.stringOffsets, $0) }),
            ("strings", edges, { ArrayScan.below(self.edgeName, $0, strings) && ArrayScan.below(self.edgeRef, $0, strings) }),
            ("localized names", nameLocal.count, { ArrayScan.below(self.nameLocal, $0, strings) }),
            ("localized names", max(0, nameWay.count - 1), { range in range.allSatisfy { self.nameWay[$0] < self.nameWay[$0 + 1] } }),
            ("turn graph", ArrayScan.pairCount(cch.turnFirstOut), { ArrayScan.ascending(self.cch.turnFirstOut, $0) }),
            ("turn graph", cch.turnHead.count, { range in
                ArrayScan.below(self.cch.turnHead, range, routing)
                    && range.allSatisfy { self.cch.inputArc[$0] == UInt32.max || Int(self.cch.inputArc[$0] >> 1) < arcs } }),
            ("hierarchy", routing, { range in
                range.allSatisfy { self.cch.parent[$0] == -1 || (Int(self.cch.parent[$0]) > $0 && Int(self.cch.parent[$0]) < routing) } }),
            // Per node: its arcs' range is in order and in bounds (checked here, not by another scan), and their heads
            // lie above it.
            ("hierarchy", routing, { range in
                let firstUp = self.cch.firstUp, upHead = self.cch.upHead
                for node in range {
                    let begin = Int(firstUp[node]), end = Int(firstUp[node + 1])
                    guard begin <= end, end <= arcs else { return false }
                    var violations: UInt32 = 0
                    for arc in begin..<end { violations |= Int(upHead[arc]) <= node || Int(upHead[arc]) >= routing ? 1 : 0 }
                    if violations != 0 { return false }
                }
                return true
            }),
            // Per node y: its downward arcs' range is in order and in bounds, and each listed arc x -> y starts at x (in
            // x's row, x below y) and ends at y, so a shortcut's middle node lies below both its ends and unpacking
            // always descends and ends. It uses firstUp's and upHead's values only in comparisons, never as indices.
            ("hierarchy", routing, { range in
                let firstUp = self.cch.firstUp, upHead = self.cch.upHead, firstDown = self.cch.firstDown, downArcs = self.cch.downArcs
                for node in range {
                    let begin = Int(firstDown[node]), end = Int(firstDown[node + 1])
                    guard begin <= end, end <= arcs else { return false }
                    for slot in begin..<end {
                        let x = Int(downArcs[2 * slot]), arc = Int(downArcs[2 * slot + 1])
                        guard x < node, arc < arcs, Int(upHead[arc]) == node,
                              Int(firstUp[x]) <= arc, arc < Int(firstUp[x + 1]) else { return false }
                    }
                }
                return true
            }),
            ("grid", ArrayScan.pairCount(gridFirst), { ArrayScan.ascending(self.gridFirst, $0) }),
            ("grid", gridSegment.count, { ArrayScan.below(self.gridSegment, $0, shapes - 1) }),
        ]
        var jobs: [(scan: Int, range: Range<Int>)] = []
        for (index, scan) in scans.enumerated() { jobs += ArrayScan.pieces(scan.count).map { (index, $0) } }
        var passed = [Bool](repeating: false, count: jobs.count)
        passed.withUnsafeMutableBufferPointer { buffer in
            let out = SharedBuffer(buffer), workers = Parallel.workerCount
            Parallel.run(workers) { worker in
                for job in stride(from: worker, to: jobs.count, by: workers) { out.pointer[job] = scans[jobs[job].scan].check(jobs[job].range) }
            }
        }
        for (job, ok) in zip(jobs, passed) where !ok {
            throw NavGraphError("\(file.path): inconsistent \(scans[job.scan].name) in graph file", code: .badFile)
        }
    }

    public var edgeCount: Int { edgeFrom.count }
    public var routingNodeCount: Int { routingEdge.count }

    @inline(__always) public func coordinate(shapePoint index: Int) -> Coordinate {
        Coordinate(latE7: shapeLatE7[index], lonE7: shapeLonE7[index])
    }

    public func string(_ id: UInt32) -> String {
        let start = Int(stringOffsets[Int(id)]), end = Int(stringOffsets[Int(id) + 1])
        return String(decoding: UnsafeBufferPointer(rebasing: stringBytes[start..<end]), as: UTF8.self)
    }

    public func flags(edge: Int) -> EdgeFlags { EdgeFlags(rawValue: edgeFlags[edge]) }

    /// Whether the profile's cyclist pushes the bicycle along directed edge d (`EdgeFlags.pushedForward|Backward`).
    @inline(__always) public func isPushed(directedEdge d: Int) -> Bool { flags(edge: d >> 1).isPushed(directedEdge: d) }

    /// A field (`GuideRecord` index) of an edge's guidance record; 0 when untagged.
    @inline(__always) public func guideField(edge: Int, field: Int) -> UInt32 {
        guideFields[Int(edgeGuide[edge]) * GuideRecord.fieldCount + field]
    }
    /// A string field of an edge's guidance record; 0 (the empty string) when untagged.
    @inline(__always) public func guideString(edge: Int, field: Int) -> UInt32 { guideField(edge: edge, field: field) }
    public func roadClass(edge: Int) -> RoadClass { RoadClass(rawValue: edgeClass[edge]) ?? .service }
    /// Whether a trip may start or end on the edge while another road is near: not on a ferry, nor on a private
    /// service road (OSRM car.lua's `is_startpoint` with its `service_access_tag_blacklist`).
    public func isPreferredStart(edge: Int) -> Bool {
        let flags = flags(edge: edge)
        return !flags.contains(.ferry) && !(flags.contains(.privateAccess) && edgeClass[edge] == RoadClass.service.rawValue)
    }

    /// Edge owning the segment that starts at shape point `index`.
    public func edge(ofShapePoint index: Int) -> Int {
        var low = 0, high = edgeCount
        while low < high {
            let middle = (low + high) >> 1
            if Int(edgeShapeFirst[middle + 1]) <= index { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Free-flow time of directed edge d in milliseconds.
    @inline(__always) public func freeFlowTime(directedEdge d: Int) -> UInt32 {
        d & 1 == 0 ? edgeTimeForward[d >> 1] : edgeTimeBackward[d >> 1]
    }
}

extension RoutingGraph {
    /// The turn restrictions stored in the graph file, as the importer resolved them.
    public func storedRestrictions() throws -> [TurnRestriction] {
        let relation = try file.array(profile.roadSet.sectionName(Section.restrictionRelation), of: Int64.self)
        let via = try file.array(profile.roadSet.sectionName(Section.restrictionVia), of: UInt32.self)
        let only = try file.array(profile.roadSet.sectionName(Section.restrictionMandatory), of: UInt8.self)
        let fromFirst = try file.array(profile.roadSet.sectionName(Section.restrictionFromFirst), of: UInt32.self)
        let from = try file.array(profile.roadSet.sectionName(Section.restrictionFrom), of: UInt32.self)
        let toFirst = try file.array(profile.roadSet.sectionName(Section.restrictionToFirst), of: UInt32.self)
        let to = try file.array(profile.roadSet.sectionName(Section.restrictionTo), of: UInt32.self)
        let viaPathFirst = try file.array(profile.roadSet.sectionName(Section.restrictionViaPathFirst), of: UInt32.self)
        let viaPath = try file.array(profile.roadSet.sectionName(Section.restrictionViaPath), of: UInt32.self)
        let count = relation.count
        func isOffsetArray(_ first: UnsafeBufferPointer<UInt32>, of values: UnsafeBufferPointer<UInt32>) -> Bool {
            first.count == count + 1 && first[0] == 0 && Int(first[count]) == values.count && zip(first, first.dropFirst()).allSatisfy { $0 <= $1 }
        }
        guard via.count == count, only.count == count, isOffsetArray(fromFirst, of: from), isOffsetArray(toFirst, of: to),
              isOffsetArray(viaPathFirst, of: viaPath) else {
            throw NavGraphError("\(file.path): inconsistent restriction sections in graph file")
        }
        func slice(_ values: UnsafeBufferPointer<UInt32>, _ first: UnsafeBufferPointer<UInt32>, _ index: Int) -> [UInt32] {
            Array(values[Int(first[index])..<Int(first[index + 1])])
        }
        return (0..<count).map { index in
            TurnRestriction(fromDirectedEdges: slice(from, fromFirst, index), via: via[index],
                            toDirectedEdges: slice(to, toFirst, index), isMandatory: only[index] != 0,
                            relationID: relation[index], viaDirectedEdges: slice(viaPath, viaPathFirst, index))
        }
    }
}
