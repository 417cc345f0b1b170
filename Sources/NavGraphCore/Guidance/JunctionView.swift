
/// One road at a junction as seen from its centre: the directed edge leaving along it, its bearing, and whether
/// the route's incoming edge may turn onto it.
struct JunctionRoad {
    /// Directed edge (2 * edge + direction) leaving the junction along this road.
    package var leaving: Int
    /// Bearing from the junction along the road, 0..<360.
    package var bearing: Double
    /// Whether a car arriving on the route's incoming edge may drive onto it.
    package var entry: Bool
    /// The road's class and flags (copies of the graph's, for the classifier).
    package var roadClass: RoadClass
    package var flags: EdgeFlags
    /// Routing node of the plain directed edge, -1 when no car may drive it.
    package var routing: Int32
    /// `bearing` as the Directions API writes it (`Bearing.wire`).
    var wire: UInt16
    package var edge: Int { leaving >> 1 }
}

/// All roads at one junction of a route, in bearing order, with the roads the route arrives on and leaves by.
/// `roads` points into the step builder's road pool: a view is valid while the builder works on one leg.
struct JunctionView {
    package var node: Int
    package var roads: UnsafeBufferPointer<JunctionRoad>
    /// Index in `roads` of the road the route arrives on (its leaving edge is the reverse of the incoming edge).
    package var inIndex: Int
    package var outIndex: Int
    /// Direction of travel when arriving, 0..<360.
    package var bearingBefore: Double
    /// `turn:lanes` string id of the road the route arrives on, in its direction (0 when untagged).
    var arrivingLanes: UInt32
    /// The junction's `junction:ref` string id and `NodeControl` bits.
    package var exitRef: UInt32
    package var control: UInt8
    /// Whether the route arrives on its incoming edge's plain routing node (no turn restriction's copy of it), so
    /// that which roads it may enter depends on the incoming edge alone.
    var plainApproach: Bool
    package var bearingAfter: Double { roads[outIndex].bearing }
    /// Signed turn of the route here, -180...180, positive to the right.
    package var deviation: Double { Bearing.deviation(from: bearingBefore, to: bearingAfter) }

    /// Deviation of any road from the direction of arrival.
    package func deviation(of road: JunctionRoad) -> Double { Bearing.deviation(from: bearingBefore, to: road.bearing) }
}

/// Builds junction views and road bearings from the graph's junction adjacency and edge shapes.
struct JunctionReader {
    package let graph: RoutingGraph
    /// Junction roads already read (shared by every view the reader builds).
    package let cache: JunctionSlotCache

    /// The head byte of every directed edge already looked at.
    package let heads: EdgeHeadCache

    package init(graph: RoutingGraph) {
        self.graph = graph
        cache = JunctionSlotCache(slotCount: graph.junctionOut.count)
        heads = EdgeHeadCache(directedEdgeCount: 2 * graph.edgeFrom.count)
    }

    /// Where junction slots of the head of directed edge d start, how many roads meet there, and whether the road
    /// plainly goes on there (`EdgeHeadCache.goesOn`).
    @inline(__always) func headInfo(of d: Int) -> (firstSlot: Int, degree: Int, goesOn: Bool) {
        let word = heads.head(d) { measureHead(of: $0) }
        let degree = Int((word >> 32) & UInt64(EdgeHeadCache.degreeLimit))
        if degree == EdgeHeadCache.degreeLimit || word & 0xffff_ffff == 0xffff_ffff {
            let node = head(of: d)
            let first = Int(graph.junctionFirstOut[node])
            return (first, Int(graph.junctionFirstOut[node + 1]) - first, false)
        }
        return (Int(word & 0xffff_ffff), degree, word & EdgeHeadCache.goesOn != 0)
    }

    /// The head word of directed edge d, from the graph.
    func measureHead(of d: Int) -> UInt64 {
        let node = head(of: d)
        let first = Int(graph.junctionFirstOut[node]), end = Int(graph.junctionFirstOut[node + 1])
        let word = UInt64(min(first, 0xffff_ffff)) | UInt64(min(end - first, EdgeHeadCache.degreeLimit)) << 32
        guard end - first == 2 else { return word }
        let other = Int(graph.junctionOut[first]) == d ^ 1 ? Int(graph.junctionOut[first + 1]) : Int(graph.junctionOut[first])
        guard Int(graph.junctionOut[first]) == d ^ 1 || Int(graph.junctionOut[first + 1]) == d ^ 1, other >> 1 != d >> 1 else { return word }
        let a = d >> 1, b = other >> 1
        let mask: UInt16 = EdgeFlags.roundabout.rawValue | EdgeFlags.ferry.rawValue | EdgeFlags.toll.rawValue
        let goesOn = graph.edgeFlags[a] & mask == graph.edgeFlags[b] & mask && graph.edgeClass[a] == graph.edgeClass[b]
            && graph.edgeName[a] == graph.edgeName[b] && graph.edgeRef[a] == graph.edgeRef[b]
            && graph.isPushed(directedEdge: d) == graph.isPushed(directedEdge: other)
        return goesOn ? word | EdgeHeadCache.goesOn : word
    }

    /// The roads leaving the head junction of directed edge d, in bearing order, from the cache.
    @inline(__always) func headSlots(of d: Int) -> UnsafeBufferPointer<JunctionSlot> {
        let head = headInfo(of: d)
        return cache.junction(head.firstSlot..<head.firstSlot + head.degree) { fill(node: self.head(of: d), into: $0) }
    }

    /// The roads leaving junction `node` in bearing order, from the cache.
    @inline(__always) package func slots(of node: Int) -> UnsafeBufferPointer<JunctionSlot> {
        cache.junction(Int(graph.junctionFirstOut[node])..<Int(graph.junctionFirstOut[node + 1])) { fill(node: node, into: $0) }
    }

    /// Reads junction `node`'s roads from the graph: bearings, class, flags, lanes, sorted by bearing (equal
    /// bearings keep the adjacency order), and which of them a car arriving along each may turn onto.
    package func fill(node: Int, into out: UnsafeMutableBufferPointer<JunctionSlot>) {
        let first = Int(graph.junctionFirstOut[node])
        let exitRef = graph.nodeExitRef[node], control = graph.nodeControl[node]
        for index in 0..<out.count {
            let leaving = Int(graph.junctionOut[first + index])
            let lanes = graph.guideString(edge: leaving >> 1, field: leaving & 1 == 1 ? GuideRecord.turnLanesForward : GuideRecord.turnLanesBackward)
            let bearing = measureBearing(directedEdge: leaving)
            let slot = JunctionSlot(leaving: Int32(leaving), routing: graph.routingNodeOfEdge[leaving], bearing: bearing,
                                    plainEntry: 0, arrivingRouting: graph.routingNodeOfEdge[leaving ^ 1], arrivingLanes: lanes,
                                    exitRef: exitRef, flags: graph.edgeFlags[leaving >> 1],
                                    roadClass: graph.edgeClass[leaving >> 1], control: control, ready: 1,
                                    wire: UInt16(truncatingIfNeeded: Bearing.wire(bearing)))
            var at = index
            while at > 0 && out[at - 1].bearing > slot.bearing {
                out[at] = out[at - 1]
                at -= 1
            }
            out[at] = slot
        }
        guard out.count <= JunctionSlot.maskedDegree else { return }
        for index in 0..<out.count {
            let from = Int(out[index].arrivingRouting)
            guard from >= 0 else { continue }
            out[index].plainEntry = entryMask(from: from, slots: UnsafeBufferPointer(out))
        }
    }

    /// Bit j set when routing node `from` has a turn arc onto slot j's road (a restriction's copy of a node is
    /// matched by its directed edge).
    func entryMask(from: Int, slots: UnsafeBufferPointer<JunctionSlot>) -> UInt32 {
        var mask: UInt32 = 0
        for arc in Int(graph.cch.turnFirstOut[from])..<Int(graph.cch.turnFirstOut[from + 1]) {
            let target = Int32(bitPattern: graph.cch.turnHead[arc])
            var found = false
            for index in slots.indices where slots[index].routing == target {
                mask |= 1 << UInt32(index)
                found = true
            }
            if found { continue }
            let leaving = Int32(graph.routingEdge[Int(target)])
            for index in slots.indices where slots[index].leaving == leaving { mask |= 1 << UInt32(index) }
        }
        return mask
    }

    /// Metres along a road at which its bearing is measured (OSRM looks a similar distance ahead); shorter on a
    /// roundabout's ring, which curves away at once.
    static let lookahead = 12.0
    static let ringLookahead = 4.0

    /// Bearing of directed edge d measured from its start, at `lookahead` metres or its end (cached).
    func bearingFromStart(directedEdge d: Int) -> Double {
        for slot in headSlots(of: d ^ 1) where Int(slot.leaving) == d { return slot.bearing }
        return measureBearing(directedEdge: d)
    }

    /// Bearing of directed edge d measured from its start, at `lookahead` metres or its end.
    func measureBearing(directedEdge d: Int) -> Double {
        let edge = d >> 1
        let first = Int(graph.edgeShapeFirst[edge]), last = Int(graph.edgeShapeFirst[edge + 1]) - 1
        let forward = d & 1 == 0
        let lookahead = graph.flags(edge: edge).contains(.roundabout) ? Self.ringLookahead : Self.lookahead
        let origin = graph.coordinate(shapePoint: forward ? first : last)
        var travelled = 0.0
        var previous = origin
        var index = forward ? first + 1 : last - 1
        while forward ? index <= last : index >= first {
            let point = graph.coordinate(shapePoint: index)
            let step = Bearing.planarMetres(previous, point)
            if travelled + step >= lookahead && step > 0 {
                let t = (lookahead - travelled) / step
                let target = Coordinate(lat: previous.lat + (point.lat - previous.lat) * t, lon: previous.lon + (point.lon - previous.lon) * t)
                return Bearing.planar(origin, target)
            }
            travelled += step
            previous = point
            index += forward ? 1 : -1
        }
        return Bearing.planar(origin, previous)
    }

    /// Head junction of a directed edge.
    package func head(of d: Int) -> Int { Int(d & 1 == 0 ? graph.edgeTo[d >> 1] : graph.edgeFrom[d >> 1]) }

    /// The junction between `incoming` and `outgoing` (consecutive directed edges of a route); `routingNode` is the
    /// routing node the route drove `incoming` on (for turn restrictions), or nil to use the plain edge's node.
    /// The roads are written at `pool` (room for the junction's degree, see `RoadPool`), sorted by bearing.
    package func view(incoming: Int, outgoing: Int, routingNode: Int?, pool: UnsafeMutablePointer<JunctionRoad>) -> JunctionView {
        let node = head(of: incoming)
        let reverseIn = incoming ^ 1
        let slots = headSlots(of: incoming)
        // The slot of the road the route arrives on: its routing node, turn mask and lanes.
        var arriving = -1
        for index in slots.indices where Int(slots[index].leaving) == reverseIn { arriving = index }
        let plain = arriving >= 0 ? Int(slots[arriving].arrivingRouting) : Int(graph.routingNodeOfEdge[incoming])
        let from = routingNode ?? plain
        // The turns allowed from the plain routing node are cached; a restriction's copy of the node scans its arcs.
        let masked = arriving >= 0 && from == plain && slots.count <= JunctionSlot.maskedDegree
        let mask: UInt32 = masked ? slots[arriving].plainEntry : 0
        let lanes: UInt32 = arriving >= 0 ? slots[arriving].arrivingLanes : 0
        let canEnter = masked && from >= 0
        var count = 0
        var inIndex = -1, outIndex = 0
        for position in slots.indices {
            let slot = slots[position]
            let leaving = Int(slot.leaving)
            let isOut = leaving == outgoing, isIn = leaving == reverseIn
            if !slot.isListed(routeUses: isOut || isIn) { continue }
            let allowed = isOut || (canEnter && mask & (1 << UInt32(position)) != 0)
            pool[count] = JunctionRoad(leaving: leaving, bearing: slot.bearing, entry: allowed,
                                       roadClass: RoadClass(rawValue: slot.roadClass) ?? .service, flags: EdgeFlags(rawValue: slot.flags),
                                       routing: slot.routing, wire: slot.wire)
            if isIn { inIndex = count }
            if isOut { outIndex = count }
            count += 1
        }
        if !masked && from >= 0 {
            // Which roads the incoming routing node may turn onto: one pass over its turn arcs.
            for arc in Int(graph.cch.turnFirstOut[from])..<Int(graph.cch.turnFirstOut[from + 1]) {
                let target = Int32(bitPattern: graph.cch.turnHead[arc])
                var found = false
                for index in 0..<count where pool[index].routing == target {
                    pool[index].entry = true
                    found = true
                }
                if found { continue }
                let leaving = Int(graph.routingEdge[Int(target)])
                for index in 0..<count where pool[index].leaving == leaving { pool[index].entry = true }
            }
        }
        let inBearing = inIndex >= 0 ? pool[inIndex].bearing : bearingFromStart(directedEdge: reverseIn)
        return JunctionView(node: node, roads: UnsafeBufferPointer(start: pool, count: count), inIndex: max(inIndex, 0),
                            outIndex: outIndex, bearingBefore: Bearing.normalized(inBearing + 180), arrivingLanes: lanes,
                            exitRef: slots.first?.exitRef ?? 0, control: slots.first?.control ?? 0,
                            plainApproach: from == plain)
    }
}

/// Room for the roads of every junction view of one leg, allocated once per step builder and grown when a leg
/// needs more: views point into it instead of owning arrays.
final class RoadPool {
    private(set) var base: UnsafeMutablePointer<JunctionRoad>
    private(set) var capacity: Int
    /// Roads handed out since the last `reset`.
    private(set) var used = 0

    package init(capacity: Int = 1024) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// Forgets every view handed out and makes room for at least `needed` roads (views from before become invalid).
    func reset(needed: Int) {
        used = 0
        guard needed > capacity else { return }
        base.deallocate()
        capacity = max(needed, 2 * capacity)
        base = .allocate(capacity: capacity)
    }

    /// Space for `count` more roads; the caller sets `used` forward with `commit`.
    package func next(_ count: Int) -> UnsafeMutablePointer<JunctionRoad>? {
        used + count <= capacity ? base + used : nil
    }

    package func commit(_ count: Int) { used += count }
}
