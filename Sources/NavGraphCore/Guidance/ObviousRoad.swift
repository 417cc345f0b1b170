/// Which road at a junction is the obvious way on, decided as OSRM v26's guidance decides it (its
/// `findObviousTurn`): the road that keeps the name, else the straightest road of the same or a higher class, else
/// the straightest road a car may take, each only where no other road looks as obvious (`isDistinctTurn`). OSRM
/// announces a turn wherever no road is obvious: an end of road at a T, a `turn` rather than a `new name` where the
/// name changes.
extension TurnClassifier {
    /// OSRM's angle limits, in degrees of deviation from straight on.
    static let noTurnDeviation = 30.0
    static let narrowTurnDeviation = 40.0
    static let groupDeviation = 60.0
    static let fuzzyDeviation = 25.0
    /// How much further from straight a rival must be than the obvious road.
    static let distinctionRatio = 2.0
    /// How much more important (lower priority number) a road must be to be obvious by class alone.
    static let priorityDistinction = 1.75

    /// car.lua's road priority class (OSRM v26 `RoadPriorityClass`; lower is more important): links just below
    /// their road, residential above living streets above service roads, unclassified with the links.
    static func osrmPriority(_ roadClass: RoadClass) -> Double {
        switch roadClass {
        case .motorway: 0
        case .motorwayLink: 1
        case .trunk: 2
        case .trunkLink: 3
        case .primary: 4
        case .primaryLink: 5
        case .secondary: 6
        case .secondaryLink: 7
        case .tertiary: 8
        case .tertiaryLink: 9
        case .residential: 10
        case .livingStreet: 11
        case .service: 12
        case .unclassified: 15
        case .track, .path: 16
        case .footway, .pedestrian, .steps: 18
        case .cycleway, .ferry: 31
        }
    }

    /// A motorway or trunk link (OSRM's ramp class).
    static func isRamp(_ roadClass: RoadClass) -> Bool { roadClass == .motorwayLink || roadClass == .trunkLink }

    /// Whether `candidate` is obvious against `other` by class alone, arriving on `incoming`: much more important
    /// and the same class as the road arrived on, or a real road against a minor one.
    static func obviousByClass(incoming: RoadClass, candidate: RoadClass, other: RoadClass) -> Bool {
        let muchHigher = priorityDistinction * osrmPriority(candidate) < osrmPriority(other)
        return (muchHigher && incoming == candidate) || (!isLowPriority(candidate) && !isLowPriority(incoming) && isLowPriority(other))
    }

    /// Whether going from edge a to edge b needs its name said (OSRM's `requiresNameAnnounced`, without the suffix
    /// table, pronunciations and exits): from nothing to something is said; names where one starts the other count as
    /// equal and refs where one contains the other as contained (`NameContainment`); an unnamed road after a named
    /// one, or a ref that is dropped, goes unsaid; a ref-only road becoming a name-only one (or back), and a new ref
    /// between two nameless roads, are said.
    func needsNameAnnounced(from a: Int, to b: Int) -> Bool {
        let fromName = graph.edgeName[a], toName = graph.edgeName[b], fromRef = graph.edgeRef[a], toRef = graph.edgeRef[b]
        if fromName == toName && fromRef == toRef { return false }
        if fromName == 0 && fromRef == 0 { return true }
        let namesEmpty = fromName == 0 && toName == 0, namesEqual = names.namesContained(fromName, toName)
        let nameRemoved = fromName != 0 && toName == 0
        let refsEmpty = fromRef == 0 && toRef == 0
        let refContained = names.refsContained(fromRef, toRef)
        let refRemoved = fromRef != 0 && toRef == 0
        let unsaid = (namesEmpty && refsEmpty) || (namesEqual && refContained) || (namesEqual && refsEmpty)
            || (refContained && nameRemoved) || (namesEqual && refRemoved)
        let refToName = fromName == 0 && fromRef != 0 && toName != 0 && toRef == 0
        let nameToRef = fromName != 0 && fromRef == 0 && toName == 0 && toRef != 0
        return !unsaid || refToName || nameToRef || (namesEmpty && !refContained)
    }

    /// Index in `view.roads` of the obvious way on, or nil when no road is obvious.
    func obviousRoad(_ view: JunctionView) -> Int? {
        let count = view.roads.count
        guard count > 2 else { return count == 2 ? (view.inIndex + 1) % 2 : nil }
        let via = view.roads[view.inIndex]
        let viaClass = via.roadClass
        let viaUnnamed = nameKey(via.edge) == 0
        // OSRM's order: the road arrived on first, then from the sharpest right round to the sharpest left.
        func index(_ i: Int) -> Int { (view.inIndex - i + count) % count }
        // The road nearest straight on among those `excluded` keeps, or nil.
        func straightmost(excluding excluded: (Int) -> Bool) -> Int? {
            var best: Int?
            var bestDeviation = Double.infinity
            for i in 0..<count {
                let road = index(i)
                guard !excluded(road) else { continue }
                let d = road == view.inIndex ? 180 : abs(view.deviation(of: view.roads[road]))
                if d < bestDeviation { best = road; bestDeviation = d }
            }
            return best
        }
        // OSRM gives no obvious road onto or off a roundabout's ring.
        func valid(_ road: Int) -> Int? {
            guard road != view.inIndex else { return nil }
            return view.roads[road].flags.contains(.roundabout) == via.flags.contains(.roundabout) ? road : nil
        }
        // 1. The road that keeps the name, at the same or a higher class.
        let continuing = straightmost { road in
            let candidate = view.roads[road]
            guard candidate.entry else { return true }
            if viaUnnamed && !Self.isLowPriority(viaClass) { return true }
            let unnamed = self.nameKey(candidate.edge) == 0
            if unnamed && !Self.isLowPriority(candidate.roadClass) { return true }
            if viaUnnamed != unnamed { return true }
            if Self.strictlyLess(candidate.roadClass, than: viaClass) || Self.isLink(candidate.roadClass, to: viaClass) { return true }
            return self.needsNameAnnounced(from: via.edge, to: candidate.edge)
        }
        if let road = continuing, isDistinctTurn(view, road) { return valid(road) }
        // 2. The straightest road of the same or a higher class.
        let sameClass = straightmost { road in
            let candidate = view.roads[road]
            return !candidate.entry || Self.strictlyLess(candidate.roadClass, than: viaClass)
                || Self.isLink(candidate.roadClass, to: viaClass)
        }
        if let road = sameClass, isDistinctTurn(view, road) { return valid(road) }
        // 3. The straightest road a car may take, if nearly straight or the only one not sharp.
        guard let road = straightmost(excluding: { !view.roads[$0].entry }) else { return nil }
        let deviation = road == view.inIndex ? 180 : abs(view.deviation(of: view.roads[road]))
        var notSharp = 0
        for other in 0..<count where other != view.inIndex && abs(view.deviation(of: view.roads[other])) <= 90 { notSharp += 1 }
        let onlyNotSharp = deviation <= 90 && notSharp == 1
        if road != sameClass && (deviation <= Self.groupDeviation || onlyNotSharp) && !Self.isLowPriority(view.roads[road].roadClass)
            && isDistinctTurn(view, road) { return valid(road) }
        // 4. A motorway with one way on.
        var enterable = 0
        for other in 0..<count where view.roads[other].entry { enterable += 1 }
        if Self.isHighway(view.roads[road].roadClass) && deviation <= Self.groupDeviation && enterable == 1 { return valid(road) }
        // 5. One road splitting in two under one name, outside a T.
        let allSameName = view.roads.allSatisfy { other in
            nameKey(other.edge) != 0 && graph.edgeName[other.edge] == graph.edgeName[via.edge] && graph.edgeRef[other.edge] == graph.edgeRef[via.edge]
        }
        if count == 3 && allSameName && enterable == 1 {
            let first = view.deviation(of: view.roads[index(1)]), second = view.deviation(of: view.roads[index(2)])
            if abs(first - 90) > Self.narrowTurnDeviation || abs(second + 90) > Self.narrowTurnDeviation { return valid(road) }
        }
        return nil
    }

    /// Whether no other road at the junction looks as obvious as road `candidate` (OSRM's `IsDistinctTurn`).
    func isDistinctTurn(_ view: JunctionView, _ candidate: Int) -> Bool {
        guard candidate != view.inIndex else { return false }
        if abs(view.deviation(of: view.roads[candidate])) < Self.groupDeviation { return isDistinctNarrowTurn(view, candidate) }
        return isDistinctWideTurn(view, candidate)
    }

    /// OSRM's `IsDistinctWideTurn`: no other road within twice the candidate's deviation, unless it is a turn onto
    /// a lower road (not straight on).
    func isDistinctWideTurn(_ view: JunctionView, _ candidate: Int) -> Bool {
        let via = view.roads[view.inIndex], chosen = view.roads[candidate]
        let candidateDeviation = abs(view.deviation(of: chosen))
        for index in view.roads.indices where index != view.inIndex && index != candidate {
            let road = view.roads[index]
            let deviation = abs(view.deviation(of: road))
            if deviation > Self.straightModifierLimit && roadHasLowerClass(from: via, to: chosen, compare: road) { continue }
            if deviation > Self.distinctionRatio * candidateDeviation { continue }
            return false
        }
        return true
    }

    /// Deviations up to this are OSRM's `straight` modifier.
    static let straightModifierLimit = 20.0

    /// OSRM's `roadHasLowerClass`: `compare` is of a lower group than both roads and much narrower than the one
    /// arrived on, or the link of both.
    func roadHasLowerClass(from via: JunctionRoad, to candidate: JunctionRoad, compare: JunctionRoad) -> Bool {
        let compareLanes = laneCount(compare.edge)
        let narrower = compareLanes > 0 && compareLanes + 1 < laneCount(via.edge)
        if narrower && Self.strictlyLess(compare.roadClass, than: via.roadClass) && Self.strictlyLess(compare.roadClass, than: candidate.roadClass) {
            return true
        }
        return Self.isLink(compare.roadClass, to: via.roadClass) && Self.isLink(compare.roadClass, to: candidate.roadClass)
    }
}
