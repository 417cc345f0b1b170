/// Whether a road at a junction is told apart from every other road there, as OSRM v26 decides it for a road
/// within 60 degrees of straight on (its distinct-narrow-turn test): another road a car may take looks just as
/// obvious unless it is much sharper and set apart by its name, by the road running on across the junction, by a
/// minor road arrived on, by its class, or by being a link. Where one does, OSRM has no obvious way on and says
/// `turn` (straight when nearly so) instead of `new name`.
extension TurnClassifier {
    /// By how many degrees a rival must be further from straight than the candidate to be told apart (besides
    /// `distinctionRatio` times as far).
    static let distinctMargin = 12.5
    /// Roads arrived on that are less important than this (car.lua priority; secondary) tell every sharper road apart.
    static let mainRoadPriority = 6.0

    /// OSRM's `IsDistinctNarrowTurn`: whether no other road looks as obvious as road `candidate`.
    func isDistinctNarrowTurn(_ view: JunctionView, _ candidate: Int) -> Bool {
        let inRoad = view.roads[view.inIndex], out = view.roads[candidate]
        let inEdge = inRoad.edge, outDeviation = abs(view.deviation(of: out))
        let inPriority = Self.osrmPriority(inRoad.roadClass), outPriority = Self.osrmPriority(out.roadClass)
        let inLanes = laneCount(inEdge), outLanes = laneCount(out.edge)
        let keepsName = !needsNameAnnounced(from: inEdge, to: out.edge)
        let fourOrMore = view.roads.count >= 4
        for index in view.roads.indices where index != view.inIndex && index != candidate {
            let road = view.roads[index]
            // Roads no car may take do not rival a narrow way on.
            if !road.entry && outDeviation < Self.narrowTurnDeviation { continue }
            let deviation = abs(view.deviation(of: road))
            let distinct = deviation > Self.distinctionRatio * outDeviation && deviation - outDeviation > Self.distinctMargin
            let slightlyDistinct = deviation > 0.7 * Self.distinctionRatio * outDeviation
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
            if distinct && (keepsName || renamesRival) && !laneFork { continue }
            let across = roadAcross(view, index)
            if distinct && fourOrMore && (across.keepsName || across.angle > 180 - Self.narrowTurnDeviation) { continue }
            if fourOrMore && keepsName && renamesRival && slightlyDistinct && across.keepsName && across.angle > 180 - Self.fuzzyDeviation { continue }
            if distinct && inPriority > Self.mainRoadPriority { continue }
            if distinct && outLanes > 0 && outLanes == inLanes && outDeviation < Self.fuzzyDeviation { continue }
            // Roads set apart by class: lower than the way on that keeps the class and name, much higher, much
            // narrower and of a lower group, the link of the road, or a link beside it.
            let priority = Self.osrmPriority(road.roadClass)
            let samePriority = outPriority == inPriority
            if samePriority && keepsName && slightlyDistinct && (outPriority < priority || outPriority > priority + 4) { continue }
            if roadHasLowerClass(from: inRoad, to: out, compare: road) { continue }
            if samePriority && Self.roadGroup(inPriority) < Self.roadGroup(priority) && renamesRival
                && needsNameAnnounced(from: out.edge, to: road.edge) { continue }
            if samePriority && Self.isLink(road.roadClass) { continue }
            return false
        }
        return true
    }

    /// Lanes of an edge in both directions (0 when untagged), as car.lua counts them.
    func laneCount(_ edge: Int) -> Int {
        let packed = graph.guideField(edge: edge, field: GuideRecord.laneCounts)
        return Int(packed & 0xff) + Int((packed >> 8) & 0xff)
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
        return roadGroup(osrmPriority(a)) > roadGroup(osrmPriority(b))
    }

    /// Whether `link` is the link class of `road` (primary_link of primary).
    static func isLink(_ link: RoadClass, to road: RoadClass) -> Bool { isLink(link) && linkBase(link) == road }

    /// The road on the far side of the junction from road `index` (the one nearest its opposite bearing): whether
    /// it keeps road `index`'s name, and the angle between the two.
    func roadAcross(_ view: JunctionView, _ index: Int) -> (keepsName: Bool, angle: Double) {
        let road = view.roads[index]
        let target = Bearing.normalized(road.bearing + 180)
        var opposite = index
        var nearest = 360.0
        for j in view.roads.indices {
            let gap = abs(Bearing.deviation(from: target, to: view.roads[j].bearing))
            if gap < nearest { nearest = gap; opposite = j }
        }
        guard opposite != index else { return (false, 0) }
        let angle = abs(Bearing.deviation(from: road.bearing, to: view.roads[opposite].bearing))
        return (!needsNameAnnounced(from: view.roads[opposite].edge, to: road.edge), angle)
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
