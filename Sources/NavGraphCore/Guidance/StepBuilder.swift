import CMemoryAccess

/// Turns a route leg into guidance steps: finds the junctions the leg passes, decides what to announce at each
/// (`TurnClassifier`, roundabouts here), collapses what a driver would not want to hear, and cuts the leg's
/// geometry, distance, duration and weight into steps that add up exactly to the leg's.
/// Keeps reusable per-leg buffers (junction roads, views, distances) and, for the graph's lifetime, caches and memos of
/// the junctions and turns it has seen (`JunctionSlotCache`, `EdgeHeadCache`, `TurnMemo`, `IntersectionMemo`): one
/// builder serves one thread (its Router).
public final class StepBuilder {
    public let graph: RoutingGraph
    let reader: JunctionReader
    let classifier: TurnClassifier
    /// The classifier's answers at turns already seen.
    let turns: TurnMemo
    /// The intersections already written where routes passed without a maneuver.
    let passed: IntersectionMemo
    /// The arrival and departure bearings of edges announced turns have used.
    let edgeBearings: EdgeBearingMemo
    // The builder's mutable state below belongs to its one thread, so it skips the dynamic exclusivity checks, which
    // otherwise cost every step-building query measurably (Benchmarks/IMPORT.md, "Checked builds").
    /// Roads of the junction views of the leg being built.
    let pool = RoadPool()
    /// Junction views built for the leg, and per edge change (index k: between edges k-1 and k) the index of its
    /// view among them, -1 while none is built.
    @exclusivity(unchecked) var madeViews = ContiguousArray<JunctionView>()
    @exclusivity(unchecked) var viewIndex = ContiguousArray<Int32>()
    /// Roads at the junction between edges k-1 and k of the leg (index k; 0 at k = 0).
    @exclusivity(unchecked) package var degrees = ContiguousArray<UInt32>()
    /// Whether the road plainly goes on at that junction (`EdgeHeadCache.goesOn`), index k as `degrees`.
    @exclusivity(unchecked) var goesOn = ContiguousArray<Bool>()
    /// Metres from the leg's start to each of its coordinates.
    @exclusivity(unchecked) package var along = ContiguousArray<Double>()
    /// The intersections of the leg being assembled.
    let table = IntersectionTable.Builder()

    /// The profile's travel mode (read once: the profile's rules are a large value).
    package let mode: TravelMode
    /// Strings already decoded, by string id, filled on first use (steps repeat the same few names).
    @exclusivity(unchecked) package var decoded = ContiguousArray<String?>()
    /// `turn:lanes` tags already split, by string id.
    @exclusivity(unchecked) var lanesById: [UInt32: [[String]]] = [:]

    public init(graph: RoutingGraph) {
        self.graph = graph
        reader = JunctionReader(graph: graph)
        classifier = TurnClassifier(graph: graph)
        let memoLines = MemoLines(directedEdgeCount: 2 * graph.edgeFrom.count)
        turns = TurnMemo(lines: memoLines)
        passed = IntersectionMemo(lines: memoLines)
        edgeBearings = EdgeBearingMemo(lines: memoLines)
        mode = graph.profile.mode
    }

    /// String `id` of the graph's string table, decoded once per builder.
    @inline(__always) package func text(_ id: UInt32) -> String {
        id == 0 ? "" : decodedText(id)
    }

    /// `text` of a string id other than 0 (the empty string).
    func decodedText(_ id: UInt32) -> String {
        if decoded.isEmpty { decoded = ContiguousArray(repeating: nil, count: max(graph.stringOffsets.count - 1, 1)) }
        let index = Int(id)
        guard index < decoded.count else { return graph.string(id) }
        if let known = decoded[index] { return known }
        let made = graph.string(id)
        decoded[index] = made
        return made
    }

    /// `turn:lanes` string `id` split into lanes (`LaneGuidance.parse`), once per builder.
    func parsedLanes(_ id: UInt32) -> [[String]] {
        if let known = lanesById[id] { return known }
        let made = text(id).isEmpty ? [] : LaneGuidance.parse(text(id))
        lanesById[id] = made
        return made
    }

    /// The junction view between edges k-1 and k of the leg being built, made on first use; nil at the leg's ends
    /// and where consecutive edges share their first segment.
    func view(_ k: Int, _ leg: RouteLeg) -> JunctionView? {
        if viewIndex[k] >= 0 { return madeViews[Int(viewIndex[k])] }
        guard hasView(k, leg) else { return nil }
        let edges = leg.directedEdges
        guard let room = pool.next(Int(degrees[k])) else { return nil }
        let routing = leg.routingNodes.count == edges.count ? leg.routingNodes[k - 1] : nil
        let made = reader.view(incoming: edges[k - 1], outgoing: edges[k], routingNode: routing, pool: room)
        pool.commit(made.roads.count)
        viewIndex[k] = Int32(madeViews.count)
        madeViews.append(made)
        return made
    }

    /// Whether the junction between edges k-1 and k has a view: not at the leg's ends, nor where the two edges share
    /// their first segment.
    @inline(__always) func hasView(_ k: Int, _ leg: RouteLeg) -> Bool {
        let at = leg.edgeFirstSegment[k]
        return at > 0 && at < leg.coordinates.count - 1 && leg.edgeFirstSegment[k - 1] < at
    }

    /// The junction between edges k-1 and k as its view would give it, from the junction's slots: the bearings of
    /// arrival and departure and the junction; `viewable` false where there is no view (consecutive edges sharing
    /// their first segment, or the leg's ends). Nil when the slots do not hold the arriving road (the caller builds
    /// the view).
    func slotBearings(_ k: Int, _ leg: RouteLeg) -> (viewable: Bool, before: Double, after: Double, node: Int)? {
        guard hasView(k, leg) else { return (false, 0, 0, 0) }
        let incoming = leg.directedEdges[k - 1], outgoing = leg.directedEdges[k], reverseIn = incoming ^ 1
        let slots = reader.headSlots(of: incoming)
        var arriving = -1, out = -1, firstListed = -1
        for position in slots.indices {
            let leaving = Int(slots[position].leaving)
            if leaving == reverseIn { arriving = position }
            if leaving == outgoing { out = position }
            if firstListed < 0 && slots[position].isListed(routeUses: leaving == outgoing || leaving == reverseIn) {
                firstListed = position
            }
        }
        guard arriving >= 0 else { return nil }
        let after = slots[out >= 0 ? out : firstListed].bearing
        let before = Bearing.normalized(slots[arriving].bearing + 180)
        edgeBearings.remember(arrival: before, of: incoming)
        if out >= 0 { edgeBearings.remember(departure: after, of: outgoing) }
        return (true, before, after, reader.head(of: incoming))
    }

    /// `slotBearings` from the edges' remembered bearings (`EdgeBearingMemo`) where both are known, without reading
    /// the junction's slots; from the slots otherwise.
    @inline(__always) func turnBearings(_ k: Int, _ leg: RouteLeg) -> (viewable: Bool, before: Double, after: Double, node: Int)? {
        guard hasView(k, leg) else { return (false, 0, 0, 0) }
        let incoming = leg.directedEdges[k - 1], outgoing = leg.directedEdges[k]
        if let before = edgeBearings.arrival(incoming), let after = edgeBearings.departure(outgoing) {
            return (true, before, after, reader.head(of: incoming))
        }
        return slotBearings(k, leg)
    }

    /// Whether the leg arrives at the junction between edges k-1 and k on the incoming edge's plain routing node
    /// (`JunctionView.plainApproach`, without building the view).
    @inline(__always) func approachIsPlain(_ k: Int, _ leg: RouteLeg) -> Bool {
        guard leg.routingNodes.count == leg.directedEdges.count else { return true }
        return leg.routingNodes[k - 1] == Int(graph.routingNodeOfEdge[leg.directedEdges[k - 1]])
    }

    /// Clears the per-leg buffers for a leg with `edges` directed edges and `coordinates` points.
    func prepare(_ leg: RouteLeg) {
        let edges = leg.directedEdges
        var roads = 0
        // Every edge's head word is read below: start loading them all first, so their cache misses overlap.
        for d in edges { reader.heads.prefetch(d) }
        degrees.refill(0, count: edges.count)
        goesOn.refill(false, count: edges.count)
        let reader = reader, turns = turns, plainNodes = graph.routingNodeOfEdge.baseAddress
        // The ends of the edges (for the junction of each head), read as in `JunctionReader.head(of:)`.
        let toBase = graph.edgeTo.baseAddress, fromBase = graph.edgeFrom.baseAddress
        let endCount = min(graph.edgeTo.count, graph.edgeFrom.count)
        edges.withUnsafeBufferPointer { route in
            degrees.withUnsafeMutableBufferPointer { degreeOut in
                goesOn.withUnsafeMutableBufferPointer { goesOnOut in
                    for k in 1..<route.count {
                        let head = reader.headInfo(of: route[k - 1])
                        degreeOut[k] = UInt32(head.degree)
                        goesOnOut[k] = head.goesOn
                        roads += head.degree
                        // The walk below reads the junctions of three or more roads: start loading them all now,
                        // so their cache misses overlap instead of coming one at a time. (Edge flags and classes are
                        // not prefetched: consecutive edges of a route mostly share their lines, and the prefetches
                        // cost more than they saved.)
                        if !head.goesOn && head.degree != 2 {
                            // The junction's slots are not prefetched: where the memos know the junction (the
                            // common case in a warm router) the walk and the assembly do not read them.
                            let arriving = route[k - 1]
                            if let toBase, let fromBase, arriving >> 1 < endCount {
                                navgraph_prefetch((arriving & 1 == 0 ? toBase : fromBase) + (arriving >> 1))
                            }
                            turns.prefetch(route[k - 1])
                            if let plainNodes { navgraph_prefetch(plainNodes + route[k - 1]) }
                        }
                    }
                }
            }
        }
        pool.reset(needed: roads)
        madeViews.removeAll(keepingCapacity: true)
        viewIndex.refill(-1, count: edges.count)
        along.refill(0, count: max(leg.coordinates.count, leg.annotations.count + 1))
        along.withUnsafeMutableBufferPointer { out in
            leg.annotations.withUnsafeBufferPointer { annotations in
                var total = 0.0
                for index in annotations.indices {
                    total += annotations[index].distance
                    out[index + 1] = total
                }
                for index in annotations.count + 1 ..< out.count { out[index] = total }
            }
        }
    }

    /// A maneuver found on the leg, before it becomes a step.
    struct Mark {
        package var type: ManeuverType
        package var modifier: ManeuverModifier?
        /// Index in the leg's coordinates.
        package var coordinate: Int
        /// Index in the leg's directed edges of the edge taken after the maneuver.
        var edgeIndex: Int
        package var bearingBefore: Double
        package var bearingAfter: Double
        package var exit: Int?
        package var notice: GuidanceNotice?
        package var node: Int?
        /// String id of the ring's name on rotary steps, 0 otherwise.
        package var rotaryName: UInt32 = 0
    }

    /// Storage of the marks found on a leg and of those kept after collapsing, reused from leg to leg.
    @exclusivity(unchecked) var foundMarks: [Mark] = []
    @exclusivity(unchecked) var keptMarks: [Mark] = []

    /// A toll road entered within this many metres of the last toll piece is not announced again.
    static let tollQuietDistance = 5000.0

    /// The steps of a leg, depart first and arrive last.
    public func steps(for leg: RouteLeg) -> [GuidanceStep] {
        let coordinates = leg.coordinates
        let edges = leg.directedEdges
        let last = coordinates.count - 1
        let side = DrivingSide(at: coordinates.first ?? Coordinate(lat: 0, lon: 0))
        guard last >= 1, !edges.isEmpty, leg.edgeFirstSegment.count == edges.count else {
            return fallbackSteps(leg, side: side)
        }
        prepare(leg)
        func view(_ k: Int) -> JunctionView? { self.view(k, leg) }
        let departBearing = segmentBearing(coordinates, from: 0)
        // The marks found and the marks kept after collapsing use the builder's buffers (their storage is kept
        // from leg to leg, so a leg's marks are not regrown from one).
        var marks = foundMarks
        foundMarks = []
        marks.removeAll(keepingCapacity: true)
        defer { foundMarks = marks }
        marks.append(Mark(type: .depart, modifier: nil, coordinate: 0, edgeIndex: 0, bearingBefore: 0,
                          bearingAfter: departBearing))
        var announcedEdge = edges[0] >> 1
        var lastToll = -Double.infinity
        var startRingExits = 0
        // namesDiffer(announced, edge) for the last edge passed by a plain joint.
        var carried = (edge: -1, announced: -1, renamed: false)
        var k = 1
        while k < edges.count {
            defer { k += 1 }
            let at = leg.edgeFirstSegment[k]
            if graph.flags(edge: edges[k - 1] >> 1).contains(.toll) { lastToll = along[min(at, along.count - 1)] }
            let marksBefore = marks.count
            // The name a new mark announces: the road it takes, or for a small roundabout announced as a turn the road
            // past the ring (where the walk has moved k by then), as its step is named.
            defer {
                if marks.count > marksBefore, let last = marks.last {
                    announcedEdge = last.type == .roundaboutTurn && k < edges.count ? edges[k] >> 1 : edges[last.edgeIndex] >> 1
                }
            }
            // Fast path: where only the two roads of the route meet and nothing changes, there is nothing to say.
            // Where the road goes on with the same name, the answer carries over from the previous edge unread.
            if goesOn[k] && edges[k] != edges[k - 1] ^ 1 {
                let incoming = edges[k - 1] >> 1
                let renamed = carried.edge == incoming && carried.announced == announcedEdge
                    ? carried.renamed : classifier.namesDiffer(announcedEdge, incoming)
                carried = (edges[k] >> 1, announcedEdge, renamed)
                if !renamed { continue }
            }
            if degrees[k] == 2 && isPlainJoint(edges[k - 1], edges[k], announcedEdge: announcedEdge) { continue }
            let incoming = edges[k - 1], outgoing = edges[k]
            let inFlags = graph.flags(edge: incoming >> 1), outFlags = graph.flags(edge: outgoing >> 1)
            let entersToll = !inFlags.contains(.toll) && outFlags.contains(.toll) && along[at] - lastToll > Self.tollQuietDistance
            // A turn the memo knows needs no view here: a quiet one is skipped, an announced one is marked with its
            // bearings from the junction's slots (its intersection is written from them when the step is assembled).
            // Rings, ferries and toll entries are decided below.
            let inPushed = graph.isPushed(directedEdge: incoming), outPushed = graph.isPushed(directedEdge: outgoing)
            let plainTurn = !inFlags.contains(.roundabout) && !outFlags.contains(.roundabout)
                && inFlags.contains(.ferry) == outFlags.contains(.ferry) && inPushed == outPushed
            // Whether the road taken changes the announced name (asked only where the classifier may be).
            let renamed = plainTurn && classifier.namesDiffer(announcedEdge, outgoing >> 1)
            if plainTurn && approachIsPlain(k, leg) {
                let memo = turns.lookUp(incoming: incoming, outgoing: outgoing, renamed: renamed)
                if memo.known && memo.answer == nil && !entersToll { continue }
                if let (type, modifier) = memo.answer, let ends = turnBearings(k, leg) {
                    guard ends.viewable else { continue }
                    marks.append(Mark(type: type, modifier: modifier, coordinate: at, edgeIndex: k, bearingBefore: ends.before,
                                      bearingAfter: ends.after, node: ends.node))
                    continue
                }
            }
            // A ring passed this way before (same way in, same number of ring edges, same way out) needs no views.
            let entersRing = !inFlags.contains(.roundabout) && outFlags.contains(.roundabout)
            let ringKey = entersRing ? ringPassageKey(k, leg) : nil
            if let ringKey, let known = ringPassages.marks(ringKey) {
                for place in 0..<known.count {
                    guard var mark = place == 0 ? known.first : known.second else { continue }
                    mark.edgeIndex += k
                    mark.coordinate = leg.edgeFirstSegment[mark.edgeIndex]
                    marks.append(mark)
                }
                k += ringKey.ringEdges
                continue
            }
            guard let junction = view(k) else { continue }
            var mark = Mark(type: .turn, modifier: nil, coordinate: at, edgeIndex: k, bearingBefore: junction.bearingBefore,
                            bearingAfter: junction.bearingAfter, node: junction.node)
            if entersRing {
                // Enter: count the exits passed until the route leaves the ring.
                let kind = roundaboutKind(entering: outgoing)
                mark.type = kind.type
                mark.rotaryName = kind.type == .rotary ? kind.name : 0
                var exits = exitsAtEntry(junction, leftHand: side == .left), j = k + 1
                while j < edges.count, graph.flags(edge: edges[j] >> 1).contains(.roundabout) {
                    if let inside = view(j) { exits += exitCount(inside) }
                    j += 1
                }
                if j < edges.count, let exitView = view(j) {
                    // As OSRM: the roundabout step's modifier is the turn onto the ring; a small roundabout announced as
                    // a turn takes the overall direction.
                    let total = Bearing.deviation(from: junction.bearingBefore, to: exitView.bearingAfter)
                    mark.modifier = TurnClassifier.modifier(deviation: kind.type == .roundaboutTurn ? total : junction.deviation)
                    mark.exit = exits + 1
                    if kind.type == .roundaboutTurn {
                        marks.append(mark)
                        rememberRingPassage(ringKey, marks: [mark], from: k)
                        k = j
                        continue
                    }
                    marks.append(mark)
                    var exitMark = Mark(type: kind.type == .rotary ? .exitRotary : .exitRoundabout,
                                        modifier: TurnClassifier.modifier(deviation: exitView.deviation),
                                        coordinate: leg.edgeFirstSegment[j], edgeIndex: j, bearingBefore: exitView.bearingBefore,
                                        bearingAfter: exitView.bearingAfter, exit: exits + 1, node: exitView.node)
                    exitMark.rotaryName = mark.rotaryName
                    marks.append(exitMark)
                    rememberRingPassage(ringKey, marks: [mark, exitMark], from: k)
                    k = j
                } else {
                    mark.modifier = TurnClassifier.modifier(deviation: junction.deviation)
                    marks.append(mark)
                    k = edges.count
                }
                continue
            }
            if inFlags.contains(.roundabout) && outFlags.contains(.roundabout) {
                // Driving on a ring the leg started on: its exits count from the start.
                startRingExits += exitCount(junction)
                continue
            }
            if inFlags.contains(.roundabout) {
                // Left a ring the leg started on.
                mark.type = roundaboutKind(entering: incoming).type == .rotary ? .exitRotary : .exitRoundabout
                mark.modifier = TurnClassifier.modifier(deviation: junction.deviation)
                mark.exit = startRingExits + 1
                marks.append(mark)
                continue
            }
            if inFlags.contains(.ferry) != outFlags.contains(.ferry) {
                mark.type = .notification
                mark.notice = outFlags.contains(.ferry) ? .ferry : .leavingFerry
                mark.modifier = TurnClassifier.modifier(deviation: junction.deviation)
                marks.append(mark)
                continue
            }
            if inPushed != outPushed {
                // The cyclist gets off to push the bicycle (footway, steps, against a oneway), or back on.
                mark.type = .notification
                mark.notice = outPushed ? .pushBike : .rideBike
                mark.modifier = TurnClassifier.modifier(deviation: junction.deviation)
                marks.append(mark)
                continue
            }
            let classify = { self.classifier.classify(junction, incoming: incoming, outgoing: outgoing, renamed: renamed) }
            let answer = junction.plainApproach ? turns.answer(incoming: incoming, outgoing: outgoing, renamed: renamed, classify: classify)
                : classify()
            if let (type, modifier) = answer {
                mark.type = type
                mark.modifier = modifier
                marks.append(mark)
            } else if entersToll {
                // Entering a toll road, announced once (not where toll and free pieces of one motorway alternate).
                mark.type = .notification
                mark.notice = .tollRoad
                mark.modifier = TurnClassifier.modifier(deviation: junction.deviation)
                marks.append(mark)
            }
        }
        var kept = keptMarks
        keptMarks = []
        kept.removeAll(keepingCapacity: true)
        defer { keptMarks = kept }
        StepCollapser(graph: graph, leg: leg, along: along, degrees: degrees).collapse(marks, into: &kept)
        wordEndsOfRoad(&kept, leg: leg)
        let arriveBearing = segmentBearing(coordinates, from: last - 1)
        kept.append(Mark(type: .arrive, modifier: nil, coordinate: last, edgeIndex: edges.count - 1,
                         bearingBefore: arriveBearing, bearingAfter: 0))
        return assemble(kept, leg: leg, side: side)
    }

    /// Whether the junction between two consecutive directed edges joins just those two roads, with the same name
    /// (as announced), class family and roundabout, ferry and toll state: no maneuver and no intersection there.
    /// The caller has checked that two roads meet there (`degrees`, exact below `EdgeHeadCache.degreeLimit`).
    func isPlainJoint(_ incoming: Int, _ outgoing: Int, announcedEdge: Int) -> Bool {
        let mask: UInt16 = EdgeFlags.roundabout.rawValue | EdgeFlags.ferry.rawValue | EdgeFlags.toll.rawValue
        guard graph.edgeFlags[incoming >> 1] & mask == graph.edgeFlags[outgoing >> 1] & mask,
              graph.edgeClass[incoming >> 1] == graph.edgeClass[outgoing >> 1],
              graph.isPushed(directedEdge: incoming) == graph.isPushed(directedEdge: outgoing) else { return false }
        return !classifier.namesDiffer(announcedEdge, outgoing >> 1) && outgoing != incoming ^ 1
    }

    /// 1 when this ring junction counts as an exit, as OSRM counts them: a road a car may drive out on leaves the
    /// ring here (turn restrictions aside; oneways pointing into the ring do not count), and it is a real road
    /// (service roads and tracks count only on a ring that is itself a service road).
    func exitCount(_ view: JunctionView) -> Int {
        let ringIsMinor = TurnClassifier.isLowPriority(view.roads[view.outIndex].roadClass)
        return view.roads.indices.contains { index in
            let road = view.roads[index]
            return index != view.inIndex && index != view.outIndex && road.routing >= 0 && !road.flags.contains(.roundabout)
                && (ringIsMinor || !TurnClassifier.isLowPriority(road.roadClass))
        } ? 1 : 0
    }

    /// 1 when a car entering the ring here could also leave at once by another road on the ring's side of the
    /// entry (sharper right than the ring, or sharper left where traffic keeps left): OSRM counts that as the first
    /// exit.
    func exitsAtEntry(_ view: JunctionView, leftHand: Bool) -> Int {
        let ringDeviation = view.deviation
        return view.roads.indices.contains { index in
            let road = view.roads[index]
            guard index != view.inIndex, index != view.outIndex, road.entry, !road.flags.contains(.roundabout) else { return false }
            let deviation = view.deviation(of: road)
            return leftHand ? deviation < ringDeviation : deviation > ringDeviation
        } ? 1 : 0
    }

    /// Radius below which a ring that looks like a plain crossing is announced as a turn (OSRM's limit).
    static let roundaboutTurnRadius = 15.0
    /// Roads leaving a ring announced as a turn must point apart by more than this (OSRM's narrow turn angle).
    static let roundaboutTurnSpread = 40.0

    /// Roundabout, rotary (a named circular ring, or a large ring with a name of its own), or a small roundabout announced as a turn. As OSRM: a
    /// ring is a turn when it is joined at a single junction, or when it is small (radius under 15 m), joined at
    /// most at four junctions of one outside road each, and those roads point well apart.
    /// `name` is the ring's own name (string id, 0 when it has none or several).
    func roundaboutKind(entering d: Int) -> (type: ManeuverType, radius: Double, name: UInt32) {
        if let known = ringKinds[d] { return known }
        let kind = measureRing(entering: d)
        ringKinds[d] = kind
        return kind
    }

    /// `roundaboutKind` worked out by walking the ring once.
    func measureRing(entering d: Int) -> (type: ManeuverType, radius: Double, name: UInt32) {
        var length = 0.0, junctions = 0
        var current = d
        // The ring's name when its named pieces share one (unnamed pieces aside, as OSRM), and the outside roads' names.
        var ringName: UInt32 = 0
        var oneName = true
        outsideNames.removeAll(keepingCapacity: true)
        var simpleJunctions = true
        exitBearings.removeAll(keepingCapacity: true)
        for _ in 0..<64 {
            let edge = current >> 1
            length += graph.edgeLength[edge]
            let pieceName = graph.edgeName[edge]
            if pieceName != 0 {
                if ringName == 0 { ringName = pieceName } else if pieceName != ringName { oneName = false }
            }
            let node = reader.head(of: current)
            let slots = Int(graph.junctionFirstOut[node])..<Int(graph.junctionFirstOut[node + 1])
            if slots.count > 2 {
                junctions += 1
                if slots.count > 3 { simpleJunctions = false }
            }
            var firstOutside: Int?
            for slot in slots where !graph.flags(edge: Int(graph.junctionOut[slot]) >> 1).contains(.roundabout) {
                outsideNames.append(graph.edgeName[Int(graph.junctionOut[slot]) >> 1])
                if firstOutside == nil { firstOutside = Int(graph.junctionOut[slot]) }
            }
            if slots.count > 2, let outside = firstOutside { exitBearings.append(reader.bearingFromStart(directedEdge: outside)) }
            guard let next = slots.lazy.map({ Int(self.graph.junctionOut[$0]) }).first(where: { next in
                next != current ^ 1 && self.graph.flags(edge: next >> 1).contains(.roundabout) && self.graph.routingNodeOfEdge[next] >= 0
            }) else { break }
            current = next
            if current == d { break }
        }
        let radius = length / (2 * .pi)
        let named = oneName && ringName != 0
        if graph.flags(edge: d >> 1).contains(.circular) { return (named ? .rotary : .roundabout, radius, named ? ringName : 0) }
        if junctions == 1 { return (.roundaboutTurn, radius, named ? ringName : 0) }
        if named && !outsideNames.contains(ringName) && radius > 15 { return (.rotary, radius, named ? ringName : 0) }
        exitBearings.sort()
        var wellApart = exitBearings.count > 1 && exitBearings[exitBearings.count - 1] - exitBearings[0] > Self.roundaboutTurnSpread
        for index in exitBearings.indices.dropFirst() where exitBearings[index] - exitBearings[index - 1] <= Self.roundaboutTurnSpread {
            wellApart = false
        }
        if radius < Self.roundaboutTurnRadius && junctions <= 4 && simpleJunctions && wellApart { return (.roundaboutTurn, radius, named ? ringName : 0) }
        return (.roundabout, radius, named ? ringName : 0)
    }

    /// A route's way through a ring: the edge it arrives by, the ring edges it drives (counted from the first) and
    /// the edge it leaves by.
    struct RingPassageKey {
        package var incoming: Int
        var ringEdges: Int
        package var leaving: Int
    }

    /// The roundabout marks of ring passages already worked out (edge indices relative to the entry), kept for the
    /// builder's lifetime: the marks depend on the passage alone where every junction on it is reached on its plain
    /// routing node, so the views of the entry, the ring's junctions and the exit need not be built again.
    @exclusivity(unchecked) var ringPassages = RingPassageCache()

    /// The key of the ring passage entered between edges k-1 and k, nil where the leg ends on the ring, a junction on
    /// the way is reached on another routing node than its plain one (a turn restriction's), or the entry or exit
    /// has no view.
    func ringPassageKey(_ k: Int, _ leg: RouteLeg) -> RingPassageKey? {
        let edges = leg.directedEdges
        guard hasView(k, leg) else { return nil }
        var j = k + 1
        while j < edges.count, graph.flags(edge: edges[j] >> 1).contains(.roundabout) { j += 1 }
        guard j < edges.count, hasView(j, leg) else { return nil }
        for index in k...j where !approachIsPlain(index, leg) { return nil }
        return RingPassageKey(incoming: edges[k - 1], ringEdges: j - k, leaving: edges[j])
    }

    /// Keeps the marks made for a ring passage (`ringPassageKey`), their edge indices made relative to the entry k.
    func rememberRingPassage(_ key: RingPassageKey?, marks made: [Mark], from k: Int) {
        guard let key else { return }
        ringPassages.remember(key, made.map { var mark = $0; mark.edgeIndex -= k; return mark })
    }

    /// `roundaboutKind` per directed edge onto a ring, kept for the builder's lifetime (the graph does not change).
    @exclusivity(unchecked) var ringKinds: [Int: (type: ManeuverType, radius: Double, name: UInt32)] = [:]
    /// Bearings and names of the roads leaving a ring, reused by `roundaboutKind`.
    @exclusivity(unchecked) var exitBearings = ContiguousArray<Double>()
    @exclusivity(unchecked) var outsideNames = ContiguousArray<UInt32>()

    /// Bearing of the leg's segment starting at coordinate `index` (skipping zero-length ones).
    func segmentBearing(_ coordinates: [Coordinate], from index: Int) -> Double {
        var j = index + 1
        while j < coordinates.count - 1 && coordinates[j] == coordinates[index] { j += 1 }
        guard index >= 0, j < coordinates.count else { return 0 }
        return Bearing.between(coordinates[index], coordinates[j])
    }
}

extension ContiguousArray where Element: BitwiseCopyable {
    /// Makes the array `count` copies of `value`, keeping its storage: what is kept is overwritten in one pass (a
    /// memset), and only the elements beyond the old count are appended.
    @inline(__always) mutating func refill(_ value: Element, count: Int) {
        if self.count > count { removeLast(self.count - count) }
        withUnsafeMutableBufferPointer { $0.update(repeating: value) }
        if self.count < count { append(contentsOf: repeatElement(value, count: count - self.count)) }
    }
}
