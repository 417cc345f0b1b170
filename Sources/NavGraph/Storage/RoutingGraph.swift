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
        routingComponent = try file.array(name(Section.routingComponent))
        cch = CCHView(firstUp: try file.array(name(Section.cchFirstUp)), upHead: try file.array(name(Section.cchUpHead)),
                      parent: try file.array(name(Section.cchParent)), inputArc: try file.array(name(Section.cchInputArc)),
                      turnFirstOut: try file.array(name(Section.turnFirstOut)), turnHead: try file.array(name(Section.turnHead)))
        turnCost = try file.array(profile.sectionName(.turnCost))
        freeFlowMetric = CCHMetric(forward: try file.array(profile.sectionName(.metricForward)), backward: try file.array(profile.sectionName(.metricBackward)),
                                   forwardVia: try file.array(profile.sectionName(.metricForwardVia)), backwardVia: try file.array(profile.sectionName(.metricBackwardVia)),
                                   owner: file)
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
        if file.sections[name(Section.limitEdge)] != nil {
            limitEdge = try file.array(name(Section.limitEdge))
            limitValues = try file.array(name(Section.limitValues))
        } else {
            limitEdge = UnsafeBufferPointer(start: nil, count: 0)
            limitValues = UnsafeBufferPointer(start: nil, count: 0)
        }
        try validate()
    }

    /// Cross-checks array sizes so that a consistent-checksum but inconsistent file cannot cause out-of-bounds reads.
    private func validate() throws {
        let edges = edgeFrom.count, routing = routingEdge.count
        let checks: [(String, Bool)] = [
            ("edge arrays", [edgeTo.count, edgeLength.count, edgeTimeForward.count, edgeTimeBackward.count, edgeClass.count,
                             edgeFlags.count, edgeMaxspeed.count, edgeName.count, edgeRef.count, edgeWay.count].allSatisfy { $0 == edges }),
            ("edge shape", edgeShapeFirst.count == edges + 1 && Int(edgeShapeFirst.last ?? 0) == shapeLatE7.count),
            ("shape arrays", shapeLonE7.count == shapeLatE7.count && shapeOSMNode.count == shapeLatE7.count),
            ("routing arrays", routingNodeOfEdge.count == 2 * edges && routingComponent.count == routing && cch.parent.count == routing),
            ("routing edges", routingEdge.allSatisfy { Int($0) < 2 * edges } && routingNodeOfEdge.allSatisfy { Int($0) < routing }),
            ("turn graph", cch.turnFirstOut.count == routing + 1 && Int(cch.turnFirstOut.last ?? 0) == cch.turnHead.count && cch.inputArc.count == cch.turnHead.count
                && turnCost.count == cch.turnHead.count),
            ("cch arrays", cch.firstUp.count == routing + 1 && Int(cch.firstUp.last ?? 0) == cch.upHead.count),
            ("metric", freeFlowMetric.forward.count == cch.upHead.count && freeFlowMetric.backward.count == cch.upHead.count
                && freeFlowMetric.forwardVia.count == cch.upHead.count && freeFlowMetric.backwardVia.count == cch.upHead.count),
            ("guidance", nodeControl.count == nodeOSMID.count && nodeExitRef.count == nodeOSMID.count && shapeControl.count == shapeLatE7.count
                && edgeGuide.count == edges && guideFields.count % GuideRecord.fieldCount == 0 && guideFields.count > 0
                && edgeGuide.allSatisfy { Int($0) < guideFields.count / GuideRecord.fieldCount }
                && guideFields.indices.allSatisfy { $0 % GuideRecord.fieldCount == GuideRecord.laneCounts || Int(guideFields[$0]) + 1 < stringOffsets.count }
                && nodeExitRef.allSatisfy { Int($0) + 1 < stringOffsets.count }),
            ("junctions", junctionFirstOut.count == nodeOSMID.count + 1 && Int(junctionFirstOut.last ?? 0) == junctionOut.count
                && junctionOut.allSatisfy { Int($0) < 2 * edges }),
            ("grid", gridFirst.count == metadata.grid.rows * metadata.grid.columns + 1 && Int(gridFirst.last ?? 0) == gridSegment.count),
            ("limits", limitValues.count == limitEdge.count * VehicleLimits.count && limitEdge.allSatisfy { Int($0) < edges }),
        ]
        for (name, ok) in checks where !ok { throw NavGraphError("\(file.path): inconsistent \(name) in graph file", code: .badFile) }
        // Offsets ascend and indices stay in range (found by fuzzing graph files: a descending grid offset trapped the snapper).
        func ascending(_ offsets: UnsafeBufferPointer<UInt32>) -> Bool {
            offsets.first == 0 && zip(offsets, offsets.dropFirst()).allSatisfy { $0 <= $1 }
        }
        func below(_ values: UnsafeBufferPointer<UInt32>, _ limit: Int) -> Bool { values.allSatisfy { Int($0) < limit } }
        let strings = stringOffsets.count - 1, arcs = cch.upHead.count
        let contents: [(String, () -> Bool)] = [
            ("edge shape offsets", { ascending(self.edgeShapeFirst) && zip(self.edgeShapeFirst, self.edgeShapeFirst.dropFirst()).allSatisfy { $1 - $0 >= 2 } }),
            ("edge nodes", { below(self.edgeFrom, self.nodeOSMID.count) && below(self.edgeTo, self.nodeOSMID.count) }),
            ("strings", { strings >= 1 && ascending(self.stringOffsets) && Int(self.stringOffsets.last ?? 0) <= self.stringBytes.count
                          && below(self.edgeName, strings) && below(self.edgeRef, strings) }),
            ("turn graph", { ascending(self.cch.turnFirstOut) && below(self.cch.turnHead, routing)
                             && self.cch.inputArc.allSatisfy { $0 == UInt32.max || Int($0 >> 1) < arcs } }),
            ("hierarchy", { ascending(self.cch.firstUp) && below(self.cch.upHead, routing)
                            && self.cch.parent.indices.allSatisfy { self.cch.parent[$0] == -1 || (Int(self.cch.parent[$0]) > $0 && Int(self.cch.parent[$0]) < routing) }
                            && (0..<routing).allSatisfy { node in
                                (Int(self.cch.firstUp[node])..<Int(self.cch.firstUp[node + 1])).allSatisfy { Int(self.cch.upHead[$0]) > node } } }),
            // A shortcut's middle node lies below its lower end, so unpacking always descends and ends. The scans run
            // in parallel, so this one checks the offsets it walks itself (fuzzing: a descending firstUp trapped here).
            ("metric", { ascending(self.cch.firstUp) && (0..<routing).allSatisfy { node in
                (Int(self.cch.firstUp[node])..<Int(self.cch.firstUp[node + 1])).allSatisfy {
                    Int(self.freeFlowMetric.forwardVia[$0]) < node && Int(self.freeFlowMetric.backwardVia[$0]) < node } } }),
            ("grid", { ascending(self.gridFirst) && self.gridSegment.allSatisfy { Int($0) + 1 < self.shapeLatE7.count } }),
        ]
        // The scans are independent: run them on all cores (they are a large part of loading a big file).
        var passed = [Bool](repeating: false, count: contents.count)
        passed.withUnsafeMutableBufferPointer { buffer in
            let out = SharedBuffer(buffer), workers = Parallel.workerCount
            Parallel.run(workers) { worker in
                for index in stride(from: worker, to: contents.count, by: workers) { out.pointer[index] = contents[index].1() }
            }
        }
        for (index, (name, _)) in contents.enumerated() where !passed[index] {
            throw NavGraphError("\(file.path): inconsistent \(name) in graph file", code: .badFile)
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

    /// A string field (`GuideRecord` index) of an edge's guidance record; 0 (the empty string) when untagged.
    @inline(__always) public func guideString(edge: Int, field: Int) -> UInt32 {
        guideFields[Int(edgeGuide[edge]) * GuideRecord.fieldCount + field]
    }
    public func roadClass(edge: Int) -> RoadClass { RoadClass(rawValue: edgeClass[edge]) ?? .service }

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
