/// Whether the road a route takes nearly straight on is told apart from every other road at the junction, as
/// OSRM v26 decides it for a road that changes the name (its distinct-narrow-turn test): another road a car may
/// take looks just as obvious unless it is much sharper and set apart by its name, by the road running on across
/// the junction, by a minor road arrived on, or by being a link. Where one does, OSRM has no obvious way on and
/// says `turn` (straight when nearly so) instead of `new name`.
extension TurnClassifier {
    /// How much further from straight a rival must be than the road taken to be told apart, and by how many degrees.
    static let distinctRatio = 2.0
    static let distinctMargin = 12.5
    /// Roads arrived on that are less important than this (car.lua priority; secondary) tell every sharper road apart.
    static let mainRoadPriority = 6.0

    /// Whether some other road at the junction looks as obvious as the route's way on (`view.outIndex`).
    func hasSimilarRival(_ view: JunctionView) -> Bool {
        let inRoad = view.roads[view.inIndex], out = view.roads[view.outIndex]
        let inEdge = inRoad.edge, outDeviation = abs(view.deviation)
        let inPriority = Self.roadPriority(inRoad.roadClass), outPriority = Self.roadPriority(out.roadClass)
        let inLanes = laneCount(inEdge), outLanes = laneCount(out.edge)
        for index in view.roads.indices where index != view.inIndex && index != view.outIndex {
            let road = view.roads[index]
            // Roads no car may take do not rival a narrow way on.
            if !road.entry && outDeviation < Self.narrowTurnDeviation { continue }
            let deviation = abs(view.deviation(of: road))
            let distinct = deviation > Self.distinctRatio * outDeviation && deviation - outDeviation > Self.distinctMargin
            let lanes = laneCount(road.edge)
            let laneFork = lanes > 0 && lanes == outLanes && inLanes == outLanes + lanes
                && abs(Bearing.deviation(from: out.bearing, to: road.bearing)) < Self.groupDeviation
            // Much sharper roads set apart: access-restricted, off the ring, renamed, crossing, after a minor road,
            // or where the way on keeps the lanes arrived on.
            let restricted: EdgeFlags = .destinationOnly
            if distinct && road.flags.contains(restricted) && !inRoad.flags.contains(restricted) && !out.flags.contains(restricted) { continue }
            let onRing = inRoad.flags.contains(.roundabout)
            if onRing == out.flags.contains(.roundabout) && onRing != road.flags.contains(.roundabout) && outDeviation < deviation { continue }
            let renamesRival = needsNameAnnounced(from: inEdge, to: road.edge)
            if distinct && renamesRival && !laneFork { continue }
            if distinct && view.roads.count >= 4 && runsOnAcross(view, index) { continue }
            if distinct && inPriority > Self.mainRoadPriority { continue }
            if distinct && outLanes > 0 && outLanes == inLanes && outDeviation < Self.fuzzyDeviation { continue }
            // Any road set apart by class: narrower and of a lower group, the link of the road, or a link beside it.
            let priority = Self.roadPriority(road.roadClass)
            let narrower = lanes > 0 && lanes + 1 < inLanes && Self.strictlyLess(road.roadClass, than: inRoad.roadClass)
                && Self.strictlyLess(road.roadClass, than: out.roadClass)
            if narrower || (Self.isLink(road.roadClass, to: inRoad.roadClass) && Self.isLink(road.roadClass, to: out.roadClass)) { continue }
            if outPriority == inPriority && Self.roadGroup(inPriority) < Self.roadGroup(priority) && renamesRival
                && needsNameAnnounced(from: out.edge, to: road.edge) { continue }
            if outPriority == inPriority && Self.isLink(road.roadClass) { continue }
            return true
        }
        return false
    }

    /// Lanes of an edge in both directions (0 when untagged), as car.lua counts them.
    func laneCount(_ edge: Int) -> Int {
        let packed = graph.guideField(edge: edge, field: GuideRecord.laneCounts)
        return Int(packed & 0xff) + Int((packed >> 8) & 0xff)
    }

    /// car.lua's road priority with links ranked just below their road (OSRM v26; lower is more important).
    static func roadPriority(_ roadClass: RoadClass) -> Double {
        switch roadClass {
        case .motorwayLink: 1
        case .trunkLink: 3
        case .primaryLink: 5
        case .secondaryLink: 7
        case .tertiaryLink: 9
        case .residential, .unclassified: 11
        case .service: 12
        default: osrmPriority(roadClass)
        }
    }

    /// OSRM's road group of a priority: motorway, trunk, main roads, residential, links and unclassified, paths.
    static func roadGroup(_ priority: Double) -> Int {
        switch priority {
        case ..<2: 0
        case ..<4: 1
        case ..<10: 2
        case ..<14: 3
        case ..<16: 4
        case ..<18: 5
        case ..<19: 6
        default: 7
        }
    }

    /// Whether class a is of a lower group of roads than class b (minor roads below all others).
    static func strictlyLess(_ a: RoadClass, than b: RoadClass) -> Bool {
        if isLowPriority(a) != isLowPriority(b) { return isLowPriority(a) }
        return roadGroup(roadPriority(a)) > roadGroup(roadPriority(b))
    }

    /// Whether `link` is the link class of `road` (primary_link of primary).
    static func isLink(_ link: RoadClass, to road: RoadClass) -> Bool { isLink(link) && linkBase(link) == road }

    /// Whether road `index` has a road on the far side of the junction (the one nearest its opposite bearing) that
    /// keeps its name or lies nearly opposite: a road crossing, not one more way ahead.
    func runsOnAcross(_ view: JunctionView, _ index: Int) -> Bool {
        let road = view.roads[index]
        let target = Bearing.normalized(road.bearing + 180)
        var opposite = index
        var nearest = 360.0
        for j in view.roads.indices {
            let gap = abs(Bearing.deviation(from: target, to: view.roads[j].bearing))
            if gap < nearest { nearest = gap; opposite = j }
        }
        guard opposite != index else { return false }
        let angle = abs(Bearing.deviation(from: road.bearing, to: view.roads[opposite].bearing))
        return !needsNameAnnounced(from: view.roads[opposite].edge, to: road.edge) || angle > 180 - Self.narrowTurnDeviation
    }

    /// The road class a link belongs to (primary for primary_link), or the class itself.
    static func linkBase(_ roadClass: RoadClass) -> RoadClass {
        switch roadClass {
        case .motorwayLink: .motorway
        case .trunkLink: .trunk
        case .primaryLink: .primary
        case .secondaryLink: .secondary
        case .tertiaryLink: .tertiary
        default: roadClass
        }
    }
}
