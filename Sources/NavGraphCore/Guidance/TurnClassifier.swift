/// Decides what a driver is told at one junction of a route (outside roundabouts), in OSRM's spirit: nothing where
/// the road obviously goes on, `new name` where only the name changes, ramps, merges, forks, end of road, turns.
struct TurnClassifier {
    package let graph: RoutingGraph
    /// OSRM's containment of names and refs, with its table of pairs already compared.
    package let names: NameContainment

    package init(graph: RoutingGraph) {
        self.graph = graph
        names = NameContainment(graph: graph)
    }

    /// OSRM's modifier bands for a signed deviation from straight on (positive to the right).
    package static func modifier(deviation: Double) -> ManeuverModifier {
        let a = abs(deviation)
        let right = deviation > 0
        switch a {
        case ...20: return .straight
        case ...40: return right ? .slightRight : .slightLeft
        case ...120: return right ? .right : .left
        case ..<179: return right ? .sharpRight : .sharpLeft
        default: return .uturn
        }
    }

    /// Priority of a road class for "is this the obvious way on": lower is more important.
    static func priority(_ roadClass: RoadClass) -> Int {
        switch roadClass {
        case .motorway, .trunk: 0
        case .primary: 1
        case .secondary: 2
        case .tertiary: 3
        case .motorwayLink, .trunkLink, .primaryLink, .secondaryLink, .tertiaryLink: 4
        case .unclassified, .residential: 5
        case .livingStreet: 6
        case .ferry: 6
        case .service, .track: 7
        case .cycleway, .footway, .path, .pedestrian, .steps: 8
        }
    }

    /// Roads OSRM's car profile lets guidance ignore (not a street a driver would count): service roads, tracks, ferries.
    static func isLowPriority(_ c: RoadClass) -> Bool { c == .service || c == .track || c == .ferry }

    static func isHighway(_ c: RoadClass) -> Bool { c == .motorway || c == .trunk }
    static func isLink(_ c: RoadClass) -> Bool {
        c == .motorwayLink || c == .trunkLink || c == .primaryLink || c == .secondaryLink || c == .tertiaryLink
    }

    /// Name identity of an edge: its name, or its ref where unnamed (string ids).
    func nameKey(_ edge: Int) -> UInt32 { graph.edgeName[edge] != 0 ? graph.edgeName[edge] : graph.edgeRef[edge] }

    /// Whether moving from edge a to edge b is a name change a driver should hear.
    func namesDiffer(_ a: Int, _ b: Int) -> Bool {
        let from = nameKey(a), to = nameKey(b)
        if from == to || to == 0 { return false }
        let nameA = graph.edgeName[a], nameB = graph.edgeName[b], refA = graph.edgeRef[a], refB = graph.edgeRef[b]
        // Only the refs differ on two nameless roads: not worth a word (OSRM is silent too).
        if nameA == 0 && nameB == 0 && from != 0 { return false }
        if nameA != 0 && nameA == nameB { return false }
        if refA != 0 && refA == refB && nameB == 0 { return false }
        // As OSRM: from a road with neither name nor ref, any name or ref is news.
        if from == 0 { return true }
        // Two different names are news here. (OSRM also takes a name that starts the other for the same one; that
        // needs the strings, and this runs at every junction of a route, so it is left to `needsNameAnnounced`,
        // which the classifier asks.)
        if nameA != 0 && nameB != 0 { return true }
        // As OSRM: a named road and an unnamed piece (whose empty name starts every name) with refs contained in one
        // another are the same road, except a ref-only road becoming a name-only one and back.
        let refToName = nameA == 0 && refA != 0 && nameB != 0 && refB == 0
        let nameToRef = nameA != 0 && refA == 0 && nameB == 0 && refB != 0
        if !refToName && !nameToRef && names.refsContained(refA, refB) { return false }
        return true
    }


    /// The maneuver at a junction, or nil when nothing needs saying.
    /// `renamed` says whether the road taken changes the name the current step was announced with
    /// (`namesDiffer(announcedEdge, outEdge)`, so that A, a nameless piece, then A again says nothing).
    func classify(_ view: JunctionView, incoming: Int, outgoing: Int, renamed: Bool) -> (ManeuverType, ManeuverModifier)? {
        let inEdge = incoming >> 1, outEdge = outgoing >> 1
        let inClass = graph.roadClass(edge: inEdge), outClass = graph.roadClass(edge: outEdge)
        let deviation = view.deviation
        var modifier = Self.modifier(deviation: deviation)
        if outgoing == incoming ^ 1 { return (namesDiffer(inEdge, outEdge) ? .turn : .continue, .uturn) }
        // One pass over the other roads a car could take (no temporary arrays: this runs at every junction).
        let outPriority = Self.priority(outClass)
        var otherCount = 0, similarCount = 0
        var firstSimilar: JunctionRoad?
        var mainHighway: JunctionRoad?, mainHighwayDeviation = 0.0
        for index in view.roads.indices where index != view.inIndex && index != view.outIndex && view.roads[index].entry {
            let road = view.roads[index]
            let roadClass = road.roadClass
            let priority = Self.priority(roadClass)
            let straightness = abs(view.deviation(of: road))
            otherCount += 1
            if Self.isHighway(roadClass) && (mainHighway == nil || straightness < mainHighwayDeviation) {
                mainHighway = road
                mainHighwayDeviation = straightness
            }
            // Straight-ish competitors: other exits within 50 degrees of straight on.
            guard straightness < 50 else { continue }
            guard priority <= outPriority + 1 else { continue }
            similarCount += 1
            if firstSimilar == nil { firstSimilar = road }
        }

        // Roads that reach this junction but cannot be entered: a oneway arriving here means something merges.
        if otherCount == 0 && Self.isLink(inClass) && Self.isHighway(outClass) && mergesInto(view) {
            return (.merge, mergeSide(view))
        }
        let outStraightness = abs(deviation)

        // Motorway exits and entries.
        if Self.isHighway(inClass) && Self.isLink(outClass) {
            if let main = mainHighway, otherCount > 0 { return (.offRamp, sideModifier(view, against: main)) }
        }
        if !Self.isHighway(inClass) && !Self.isLink(inClass) && Self.isLink(outClass) && isHighwayBound(outgoing) && otherCount > 0 {
            return (.onRamp, modifier)
        }
        // Past driveways: where the road arrived on meets one other real road and only minor ones besides, that road
        // is the way on whatever its angle (OSRM's driveway handler): said only as a new name.
        if let through = drivewayWayOn(view) {
            if through == view.outIndex { return renamed ? (.newName, modifier) : nil }
            if modifier == .uturn { modifier = deviation > 0 ? .sharpRight : .sharpLeft }
            return (.turn, modifier)
        }
        // The obvious way on (OSRM v26's `findObviousTurn`); forks and ends of road only where there is none.
        let obvious = obviousRoad(view)
        let threeWay = view.roads.count == 3
        // Forks: two similar roads both going roughly ahead, none clearly straight.
        if outStraightness < 50, let rival = firstSimilar, similarCount == 1,
           obvious == nil || (threeWay && Self.isLink(inClass) && Self.isLink(outClass) && Self.isLink(rival.roadClass)) {
            let rivalDeviation = abs(view.deviation(of: rival))
            let clearStraight = min(outStraightness, rivalDeviation) < 10 && max(outStraightness, rivalDeviation) > 25
            let rivalPriority = Self.priority(rival.roadClass)
            let bothHighwayish = (Self.isHighway(inClass) || Self.isLink(inClass)) && (Self.isHighway(outClass) || Self.isLink(outClass))
                || ((rivalPriority == outPriority || Self.forkCompatible(incoming: inClass, outClass, rival.roadClass)) && rivalDeviation < 50
                    && (view.deviation(of: rival) > 0) != (deviation > 0))
            if bothHighwayish && !clearStraight {
                return (.fork, view.deviation < view.deviation(of: rival) ? .slightLeft : .slightRight)
            }
        }
        if threeWay && obvious == nil, let side = endOfRoad(view) { return (.endOfRoad, side) }
        if otherCount == 0 || obvious == view.outIndex {
            return renamed ? nameChange(view, outEdge: outEdge, modifier: modifier) : nil
        }
        // No obvious way on, or another road is it: OSRM's basic turn, `continue` where the name goes on.
        let keepsName = graph.edgeName[inEdge] != 0 && graph.edgeName[outEdge] != 0 && !needsNameAnnounced(from: inEdge, to: outEdge)
        if threeWay, modifier == .straight, let other = obvious,
           Self.modifier(deviation: view.deviation(of: view.roads[other])) == .straight {
            modifier = view.deviation(of: view.roads[other]) > deviation ? .slightLeft : .slightRight
        }
        if modifier == .uturn { modifier = deviation > 0 ? .sharpRight : .sharpLeft }
        return (keepsName ? .continue : .turn, modifier)
    }

    /// The one other real road at a junction whose remaining roads are all minor (service roads, tracks, ferries),
    /// arriving on a real road: OSRM's driveway junction. Its index in `view.roads`, or nil.
    func drivewayWayOn(_ view: JunctionView) -> Int? {
        guard view.roads.count > 2, !Self.isLowPriority(view.roads[view.inIndex].roadClass) else { return nil }
        var through: Int?
        for index in view.roads.indices where index != view.inIndex && !Self.isLowPriority(view.roads[index].roadClass) {
            guard through == nil else { return nil }
            through = index
        }
        return through
    }

    /// End of road (OSRM's T): three roads, one branch a right turn and the other a left (each within 40 degrees of
    /// square). The side, or nil. The caller asks only where no road is the obvious way on (`obviousRoad`).
    package func endOfRoad(_ view: JunctionView) -> ManeuverModifier? {
        guard view.roads.count == 3, let other = view.roads.indices.first(where: { $0 != view.inIndex && $0 != view.outIndex })
        else { return nil }
        let deviation = view.deviation, otherDeviation = view.deviation(of: view.roads[other])
        let right = max(deviation, otherDeviation), left = min(deviation, otherDeviation)
        guard abs(right - 90) < 40 && abs(left + 90) < 40 else { return nil }
        return deviation > 0 ? .right : .left
    }

    /// A name change on the obvious way on, as OSRM words it: onto a road that runs on through the junction (the
    /// same name and class continues on the far side) it is a `turn` (straight when nearly so and the road goes on
    /// for more than 60 m), otherwise a `new name` in the road's direction.
    func nameChange(_ view: JunctionView, outEdge: Int, modifier: ManeuverModifier) -> (ManeuverType, ManeuverModifier) {
        let name = graph.edgeName[outEdge]
        let out = view.roads[view.outIndex]
        let through = name != 0 && view.roads.indices.contains { index in
            let road = view.roads[index]
            return index != view.inIndex && index != view.outIndex && graph.edgeName[road.edge] == name
                && road.roadClass == out.roadClass && abs(Bearing.deviation(from: out.bearing, to: road.bearing)) > 155
        }
        guard through else { return (.newName, modifier) }
        let straight = abs(view.deviation) < 40 && graph.edgeLength[outEdge] > 60
        return (.turn, straight ? .straight : modifier)
    }

    /// Whether two roads may form a fork, as OSRM judges classes: both links or neither, and neither obvious over
    /// the other by class alone.
    static func forkCompatible(incoming: RoadClass, _ a: RoadClass, _ b: RoadClass) -> Bool {
        isLink(a) == isLink(b) && !obviousByClass(incoming: incoming, candidate: a, other: b)
            && !obviousByClass(incoming: incoming, candidate: b, other: a)
    }

    /// Whether a highway road arrives at this junction too (its reverse cannot be entered): a ramp merging.
    func mergesInto(_ view: JunctionView) -> Bool {
        view.roads.indices.contains { index in
            index != view.inIndex && index != view.outIndex && !view.roads[index].entry
                && Self.isHighway(view.roads[index].roadClass)
        }
    }

    /// Merge direction: a ramp arriving from the right merges to the left.
    func mergeSide(_ view: JunctionView) -> ManeuverModifier {
        guard let main = view.roads.indices.first(where: { index in
            index != view.inIndex && index != view.outIndex && Self.isHighway(view.roads[index].roadClass)
        }) else { return view.deviation >= 0 ? .slightRight : .slightLeft }
        // The highway's upstream lies behind; if it is on our left, we merge left.
        let mainDeviation = Bearing.deviation(from: view.bearingBefore, to: Bearing.normalized(view.roads[main].bearing + 180))
        return mainDeviation > 0 ? .slightLeft : .slightRight
    }

    /// Slight left or right of an exit relative to the road that continues (the highway road nearest straight on).
    func sideModifier(_ view: JunctionView, against road: JunctionRoad) -> ManeuverModifier {
        let mine = view.deviation, theirs = view.deviation(of: road)
        if abs(mine) > 60 { return Self.modifier(deviation: mine) }
        return mine >= theirs ? .slightRight : .slightLeft
    }

    /// Whether a link leads onto a motorway or trunk within a few edges (an on ramp rather than any link road).
    func isHighwayBound(_ directedEdge: Int) -> Bool {
        let c = graph.roadClass(edge: directedEdge >> 1)
        return c == .motorwayLink || c == .trunkLink
    }
}
