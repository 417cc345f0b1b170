import CMemoryAccess

/// Cuts a leg into steps at the maneuvers found by `StepBuilder`, with names, lanes, intersections and exact totals.
extension StepBuilder {
    func assemble(_ marks: [Mark], leg: RouteLeg, side: DrivingSide) -> [GuidanceStep] {
        let last = leg.coordinates.count - 1
        let edges = leg.directedEdges
        // The junctions a step passes are found by a cursor over the edge changes (k), which move forward with the
        // steps (`JunctionCursor`).
        var cursor = JunctionCursor(firstSegments: leg.edgeFirstSegment, last: last)
        // Routing nodes the leg passes, to tell plain approaches (`approachIsPlain`).
        let routing = leg.routingNodes, plainNodes = graph.routingNodeOfEdge
        let plainNodesKnown = routing.count == edges.count
        prefetchStepEdges(marks, edges: edges)
        var steps: [GuidanceStep] = []
        steps.reserveCapacity(marks.count)
        var sums = (distance: 0.0, duration: 0.0, weight: 0.0)
        // The steps point at the leg's table from the start; it is filled once all of them are made.
        let legTable = IntersectionTable()
        for (index, mark) in marks.enumerated() {
            let isArrive = mark.type == .arrive
            let end = isArrive ? last : marks[index + 1].coordinate
            var distance = 0.0, duration = 0.0
            for segment in mark.coordinate..<end { distance += leg.annotations[segment].distance; duration += leg.annotations[segment].duration }
            var weight = leg.duration > 0 ? leg.weight * duration / leg.duration : (index == 0 ? leg.weight : 0)
            let isLastDriven = index == marks.count - 2
            if isLastDriven {
                distance = leg.distance - sums.distance
                duration = leg.duration - sums.duration
                weight = leg.weight - sums.weight
            } else if isArrive {
                distance = 0; duration = 0; weight = 0
            }
            sums.distance += distance; sums.duration += duration; sums.weight += weight

            let nameEdgeIndex: Int
            if (mark.type == .roundabout || mark.type == .rotary), index + 1 < marks.count, marks[index + 1].type != .arrive {
                nameEdgeIndex = marks[index + 1].edgeIndex
            } else if mark.type == .roundaboutTurn {
                // Named after the road it turns onto, the first one past the ring (as OSRM).
                var after = mark.edgeIndex
                while after + 1 < edges.count && graph.flags(edge: edges[after] >> 1).contains(.roundabout) { after += 1 }
                nameEdgeIndex = after
            } else {
                nameEdgeIndex = mark.edgeIndex
            }
            let d = edges[min(nameEdgeIndex, edges.count - 1)]
            let edge = d >> 1
            let forward = d & 1 == 0
            let flags = graph.flags(edge: edge)
            var exits = ""
            // The edge changes of the junctions the step passes, its maneuver's first where it has one.
            let passedStart = mark.type == .depart ? 1 : mark.coordinate
            let passedJunctions = isArrive ? 0..<0 : cursor.junctions(from: passedStart, to: end)
            if let node = mark.node {
                // The junction's exit number, from its view when built (its slots are in cache), else from the graph.
                let k = cursor.junction(at: mark.coordinate, in: passedJunctions)
                let built = k >= 0 && viewIndex[k] >= 0 ? madeViews[Int(viewIndex[k])] : nil
                let exitRef = built?.node == node ? built?.exitRef ?? 0 : graph.nodeExitRef[node]
                if exitRef != 0 { exits = text(exitRef) }
            }
            if exits.isEmpty && (mark.type == .offRamp || mark.type == .fork) {
                exits = text(graph.guideString(edge: edge, field: GuideRecord.junctionRef))
            }
            let maneuver = Maneuver(type: mark.type, modifier: mark.modifier, location: leg.coordinates[mark.coordinate],
                                    bearingBefore: Bearing.wire(mark.bearingBefore), bearingAfter: Bearing.wire(mark.bearingAfter),
                                    exit: mark.exit, notice: mark.notice)
            let firstIntersection = table.count
            if mark.type == .depart {
                table.append(location: leg.coordinates[0], geometryIndex: 0, inIndex: nil, outIndex: 0, lanes: nil, control: 0)
                table.appendRoad(bearing: Bearing.wire(mark.bearingAfter), entry: true)
            } else if isArrive {
                table.append(location: leg.coordinates[last], geometryIndex: last, inIndex: 0, outIndex: nil, lanes: nil, control: 0)
                table.appendRoad(bearing: Bearing.wire(mark.bearingBefore + 180), entry: true)
            }
            // The next maneuver's direction when it follows within `laneLookahead` metres (for preferred lanes).
            var nextSide: ManeuverModifier?
            if !isArrive, index + 2 < marks.count, distance < Self.laneLookahead { nextSide = marks[index + 1].modifier }
            if !isArrive {
                for k in passedJunctions {
                    let coordinate = leg.edgeFirstSegment[k]
                    // Where consecutive edge changes share a coordinate, the last one stands for it.
                    if k + 1 < edges.count && leg.edgeFirstSegment[k + 1] == coordinate { continue }
                    if coordinate != mark.coordinate && degrees[k] <= 2 { continue }
                    let atManeuver = coordinate == mark.coordinate
                    // Passed this way before on the plain approach, and the memo holds the whole intersection.
                    if viewIndex[k] < 0 && leg.edgeFirstSegment[k - 1] < coordinate && (!plainNodesKnown || routing[k - 1] == Int(plainNodes[edges[k - 1]])),
                       let hit = passed.packed(incoming: edges[k - 1], outgoing: edges[k]) {
                        let (inIndex, outIndex, control) = IntersectionMemo.indices(ofKey: hit.key)
                        table.appendPacked(hit.roads, location: leg.coordinates[coordinate], geometryIndex: coordinate, inIndex: inIndex,
                                           outIndex: outIndex, control: control)
                        continue
                    }
                    if viewIndex[k] < 0 && appendSlotIntersection(k, leg: leg, atManeuver: atManeuver,
                                                                  modifier: atManeuver ? mark.modifier : nil,
                                                                  nextSide: atManeuver ? nextSide : nil) { continue }
                    guard let junction = view(k, leg) else { continue }
                    guard atManeuver || junction.roads.count >= 3 else { continue }
                    appendIntersection(junction, k: k, leg: leg, modifier: atManeuver ? mark.modifier : nil,
                                       nextSide: atManeuver ? nextSide : nil)
                }
            }
            let name = text(graph.name(edge: edge, in: leg.nameLanguage))
            let rotaryName = (mark.type == .rotary || mark.type == .exitRotary) && mark.rotaryName != 0 ? text(mark.rotaryName) : ""
            steps.append(GuidanceStep(
                maneuver: maneuver, name: name, ref: text(graph.edgeRef[edge]),
                destinations: text(graph.guideString(edge: edge, field: forward ? GuideRecord.destinationsForward : GuideRecord.destinationsBackward)),
                exits: exits, rotaryName: rotaryName, mode: flags.contains(.ferry) ? .ferry : flags.isPushed(directedEdge: d) ? .pushingBike : mode, drivingSide: side.rawValue,
                distance: distance, duration: duration, weight: weight, geometryRange: mark.coordinate...end,
                intersections: StepIntersections(table: legTable, records: firstIntersection..<table.count), roadClass: graph.roadClass(edge: edge),
                speedLimitKmh: graph.edgeMaxspeed[edge] > 0 && graph.edgeMaxspeed[edge] < 255 ? Int(graph.edgeMaxspeed[edge]) : nil))
        }
        // The leg's intersections are one table; each step sees its own records.
        table.finish(into: legTable)
        return steps
    }

    /// The edge changes (k, between edges k-1 and k) of a leg whose coordinates lie strictly inside the leg, found
    /// step by step: the steps come in leg order, so a cursor that moves forward visits each edge change about once.
    struct JunctionCursor {
        let firstSegments: [Int]
        package let last: Int
        /// The first edge change not yet passed by an earlier step.
        package var next = 1

        package init(firstSegments: [Int], last: Int) {
            self.firstSegments = firstSegments; self.last = last
        }

        /// The edge changes at coordinates `from..<to` (inside the leg), in order.
        package mutating func junctions(from: Int, to: Int) -> Range<Int> {
            let count = firstSegments.count
            // Back up for a step that starts before the last one ended (not expected; kept exact all the same).
            while next > 1 && firstSegments[next - 1] >= from { next -= 1 }
            var start = next
            while start < count && (firstSegments[start] < from || firstSegments[start] <= 0) { start += 1 }
            var end = start
            let limit = min(to, last)
            while end < count && firstSegments[end] < limit { end += 1 }
            next = end
            return start..<end
        }

        /// The edge change standing for `coordinate` among `range` (the last there), -1 when none.
        package func junction(at coordinate: Int, in range: Range<Int>) -> Int {
            var found = -1
            for k in range {
                let at = firstSegments[k]
                if at == coordinate { found = k } else if at > coordinate { break }
            }
            return found
        }
    }

    /// Starts loading what each step reads about the road it takes (ref, speed limit, class, guidance record), so
    /// that the steps' cache misses overlap instead of coming one after another.
    func prefetchStepEdges(_ marks: [Mark], edges: [Int]) {
        guard let refs = graph.edgeRef.baseAddress, let guides = graph.edgeGuide.baseAddress,
              let speeds = graph.edgeMaxspeed.baseAddress, let classes = graph.edgeClass.baseAddress,
              let fields = graph.guideFields.baseAddress, !edges.isEmpty else { return }
        for mark in marks {
            let edge = edges[min(mark.edgeIndex, edges.count - 1)] >> 1
            navgraph_prefetch(refs + edge)
            navgraph_prefetch(guides + edge)
            navgraph_prefetch(speeds + edge)
            navgraph_prefetch(classes + edge)
        }
        let exitRefs = graph.nodeExitRef
        decoded.withUnsafeBufferPointer { strings in
            for mark in marks {
                let edge = edges[min(mark.edgeIndex, edges.count - 1)] >> 1
                let record = Int(graph.edgeGuide[edge]) * GuideRecord.fieldCount
                if record < graph.guideFields.count { navgraph_prefetch(fields + record) }
                if let node = mark.node, node >= 0, node < exitRefs.count, let base = exitRefs.baseAddress { navgraph_prefetch(base + node) }
                // The decoded name and ref the step will read (`text`).
                if let base = strings.baseAddress {
                    let name = Int(graph.edgeName[edge]), ref = Int(graph.edgeRef[edge])
                    if name < strings.count { navgraph_prefetch(base + name) }
                    if ref != 0 && ref < strings.count { navgraph_prefetch(base + ref) }
                }
            }
        }
    }

    /// A maneuver closer than this after the previous one narrows the previous one's active lanes to its side.
    static let laneLookahead = 150.0

    /// Appends the Directions API intersection of a junction view to the leg's table; lanes from the approach's
    /// `turn:lanes`, with only those towards `nextSide` active when a next maneuver follows closely.
    func appendIntersection(_ junction: JunctionView, k: Int, leg: RouteLeg, modifier: ManeuverModifier?,
                            nextSide: ManeuverModifier? = nil) {
        let lanesId = junction.arrivingLanes
        var lanes: [Lane]?
        // Lanes guide drivers only: a cyclist or walker is given none.
        if lanesId != 0 && mode == .driving {
            let direction = modifier ?? TurnClassifier.modifier(deviation: junction.deviation)
            lanes = LaneGuidance.lanes(parsed: parsedLanes(lanesId), direction: direction, nextSide: nextSide)
        }
        let at = leg.edgeFirstSegment[k]
        table.append(location: leg.coordinates[at], geometryIndex: at, inIndex: junction.inIndex, outIndex: junction.outIndex,
                     lanes: lanes, control: junction.control)
        table.appendRoads(junction.roads)
    }

    /// Appends the intersection between edges k-1 and k straight from the junction's cached slots, as
    /// `appendIntersection` would from its view, when the leg arrives on the plain routing node of a junction with
    /// entry masks; false when it does not (the caller builds the view). Writes nothing, and says true, where there is
    /// no view, or where a junction passed without a maneuver (`atManeuver` false) would list fewer than three roads.
    /// `modifier` and `nextSide` choose the active lanes, as in `appendIntersection`.
    /// The way passed before (`IntersectionMemo`) is written here; the rest by `appendScannedIntersection`.
    @inline(__always) func appendSlotIntersection(_ k: Int, leg: RouteLeg, atManeuver: Bool, modifier: ManeuverModifier?,
                                                  nextSide: ManeuverModifier?) -> Bool {
        guard hasView(k, leg) else { return true }
        guard approachIsPlain(k, leg) else { return false }
        let incoming = leg.directedEdges[k - 1], outgoing = leg.directedEdges[k]
        let known = passed.passage(incoming: incoming, outgoing: outgoing)
        switch known {
        case .fewerThanThree where !atManeuver:
            return true
        case let .packed(roads, inIndex, outIndex, control):
            // Been this way before, and the memo holds the whole intersection.
            let at = leg.edgeFirstSegment[k]
            table.appendPacked(roads, location: leg.coordinates[at], geometryIndex: at, inIndex: inIndex, outIndex: outIndex,
                               control: control)
            return true
        case let .listed(listedSlots, entryBits, inIndex, outIndex, control):
            // Been this way before: the listed roads' bearings from the slots, the rest from the memo (which holds
            // approaches without lanes only, so the lanes are none whatever the maneuver).
            let slots = reader.headSlots(of: incoming)
            guard slots.count <= JunctionSlot.maskedDegree, let base = slots.baseAddress else { return false }
            if listedSlots >> slots.count == 0 {
                let at = leg.edgeFirstSegment[k]
                table.appendListed(slots: base, listed: listedSlots, entryBits: entryBits, location: leg.coordinates[at],
                                   geometryIndex: at, inIndex: inIndex, outIndex: outIndex, control: control)
                return true
            }
        default:
            break
        }
        return appendScannedIntersection(k, leg: leg, atManeuver: atManeuver, modifier: modifier, nextSide: nextSide)
    }

    /// `appendSlotIntersection` for a way the memo does not know: one pass over the junction's slots, remembered
    /// for next time where the approach has no lanes.
    func appendScannedIntersection(_ k: Int, leg: RouteLeg, atManeuver: Bool, modifier: ManeuverModifier?,
                                   nextSide: ManeuverModifier?) -> Bool {
        let edges = leg.directedEdges
        let at = leg.edgeFirstSegment[k]
        let incoming = edges[k - 1], outgoing = edges[k], reverseIn = incoming ^ 1
        let slots = reader.headSlots(of: incoming)
        guard slots.count <= JunctionSlot.maskedDegree, let base = slots.baseAddress else { return false }
        // One pass: the wire bearings of the roads the view would list are staged in the table, with which slots
        // they are and where the two roads of the route lie among them.
        let room = table.stageRoads(slots.count)
        var listed = 0, listedSlots: UInt32 = 0, arriving = -1, inIndex = -1, outIndex = 0, outSlot = -1
        for position in 0..<slots.count {
            let slot = base + position
            let leaving = Int(slot.pointee.leaving)
            let isOut = leaving == outgoing, isIn = leaving == reverseIn
            if isIn { arriving = position; inIndex = listed }
            if !slot.pointee.isListed(routeUses: isOut || isIn) { continue }
            if isOut { outIndex = listed; outSlot = position }
            room.bearings[listed] = slot.pointee.wire
            listedSlots |= 1 << UInt32(position)
            listed += 1
        }
        guard arriving >= 0 else { return false }
        if listed < 3 {
            passed.rememberFewerThanThree(incoming: incoming, outgoing: outgoing)
            if !atManeuver { return true }
        }
        let arrivingSlot = base + arriving
        let lanesId = arrivingSlot.pointee.arrivingLanes
        var lanes: [Lane]?
        if lanesId != 0 && mode == .driving {
            let bearingBefore = Bearing.normalized(arrivingSlot.pointee.bearing + 180)
            let afterSlot = outSlot >= 0 ? outSlot : listedSlots.trailingZeroBitCount
            let direction = modifier ?? TurnClassifier.modifier(deviation: Bearing.deviation(from: bearingBefore, to: slots[afterSlot].bearing))
            lanes = LaneGuidance.lanes(parsed: parsedLanes(lanesId), direction: direction, nextSide: nextSide)
        }
        table.append(location: leg.coordinates[at], geometryIndex: at, inIndex: inIndex, outIndex: outIndex, lanes: lanes,
                     control: base.pointee.control)
        // Entries: the road out, and those the arriving road's plain routing node may turn onto.
        let mask = arrivingSlot.pointee.arrivingRouting >= 0 ? arrivingSlot.pointee.plainEntry : 0
        var remaining = listedSlots, index = 0, entryBits: UInt32 = 0
        while remaining != 0 {
            let position = remaining.trailingZeroBitCount
            remaining &= remaining - 1
            let entry = position == outSlot || mask & (1 << UInt32(position)) != 0
            room.entries[index] = entry
            if entry { entryBits |= 1 << UInt32(index) }
            index += 1
        }
        table.commitStaged(listed)
        if lanesId == 0 && listed >= 3, let roads = IntersectionMemo.PackedRoads(bearings: room.bearings, count: listed, entries: entryBits) {
            passed.remember(incoming: incoming, outgoing: outgoing, roads: roads, inIndex: inIndex, outIndex: outIndex,
                            control: base.pointee.control)
        } else if lanesId == 0 && listed >= 3 {
            passed.remember(incoming: incoming, outgoing: outgoing, slots: listedSlots, entries: entryBits, inIndex: inIndex,
                            outIndex: outIndex, control: base.pointee.control)
        }
        return true
    }

    /// Depart and arrive only, for legs without per-edge segment starts.
    func fallbackSteps(_ leg: RouteLeg, side: DrivingSide) -> [GuidanceStep] {
        let last = max(0, leg.coordinates.count - 1)
        guard !leg.coordinates.isEmpty else { return [] }
        let start = leg.coordinates[0], end = leg.coordinates[last]
        let bearing = last > 0 ? Bearing.between(start, leg.coordinates[1]) : 0
        let edge = leg.directedEdges.first.map { $0 >> 1 }
        let name = edge.map { text(graph.name(edge: $0, in: leg.nameLanguage)) } ?? ""
        let roadClass = edge.map { graph.roadClass(edge: $0) } ?? .service
        func step(_ type: ManeuverType, _ at: Coordinate, _ range: ClosedRange<Int>, _ distance: Double, _ duration: Double, _ weight: Double) -> GuidanceStep {
            GuidanceStep(maneuver: Maneuver(type: type, modifier: nil, location: at, bearingBefore: type == .arrive ? Bearing.wire(bearing) : 0,
                                            bearingAfter: type == .depart ? Bearing.wire(bearing) : 0),
                         name: name, ref: "", destinations: "", exits: "", rotaryName: "", mode: mode, drivingSide: side.rawValue,
                         distance: distance, duration: duration, weight: weight, geometryRange: range,
                         intersections: [Intersection(location: at, bearings: [Bearing.wire(bearing)], entry: [true],
                                                      inIndex: type == .arrive ? 0 : nil, outIndex: type == .depart ? 0 : nil,
                                                      geometryIndex: range.lowerBound)],
                         roadClass: roadClass, speedLimitKmh: nil)
        }
        return [step(.depart, start, 0...last, leg.distance, leg.duration, leg.weight), step(.arrive, end, last...last, 0, 0, 0)]
    }
}
