/// Which road at a junction is the obvious way on, decided as OSRM's guidance decides it (its `findObviousTurn`):
/// the best candidate by entry, class and straightness, weighed against the best road that keeps the name, then
/// checked for rivals that are nearly as straight or as important. OSRM announces a turn wherever no road is obvious:
/// an end of road at a T, a `turn` rather than a `new name` where the name changes.
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

    /// car.lua's road priority class (lower is more important).
    static func osrmPriority(_ roadClass: RoadClass) -> Double {
        switch roadClass {
        case .motorway: 0
        case .trunk: 2
        case .primary: 4
        case .secondary: 6
        case .tertiary: 8
        case .livingStreet: 10
        case .residential, .unclassified: 11
        case .motorwayLink, .trunkLink, .primaryLink, .secondaryLink, .tertiaryLink: 14
        case .track, .path, .cycleway: 16
        case .footway, .pedestrian, .steps: 18
        case .service, .ferry: 31
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
        let inEdge = view.roads[view.inIndex].edge
        let inClass = view.roads[view.inIndex].roadClass
        let inNamed = graph.edgeName[inEdge] != 0
        // OSRM's order: the road arrived on first, then from the sharpest right round to the sharpest left.
        func index(_ i: Int) -> Int { (view.inIndex - i + count) % count }
        func road(_ i: Int) -> JunctionRoad { view.roads[index(i)] }
        func deviation(_ i: Int) -> Double { i == 0 ? 180 : abs(view.deviation(of: road(i))) }
        func continues(_ i: Int) -> Bool { !needsNameAnnounced(from: inEdge, to: road(i).edge) }
        func obvious(_ a: Int, over b: Int) -> Bool {
            Self.obviousByClass(incoming: inClass, candidate: road(a).roadClass, other: road(b).roadClass)
        }
        func inPriorityOrBetter(_ i: Int) -> Bool { Self.osrmPriority(road(i).roadClass) <= Self.osrmPriority(inClass) }
        // Whether road a is a better candidate than road b.
        func better(_ a: Int, _ b: Int) -> Bool {
            let ra = road(a), rb = road(b)
            let left = (ra.entry.rank, inPriorityOrBetter(a).rank, Self.isLowPriority(rb.roadClass).rank, deviation(b), (ra.roadClass == inClass).rank)
            let right = (rb.entry.rank, inPriorityOrBetter(b).rank, Self.isLowPriority(ra.roadClass).rank, deviation(a), (rb.roadClass == inClass).rank)
            return left > right
        }
        func betterContinuing(_ a: Int, _ b: Int) -> Bool {
            let left = (road(a).entry.rank, continues(a).rank), right = (road(b).entry.rank, continues(b).rank)
            return left > right || (left == right && better(a, b))
        }

        var first = 0
        for i in 1..<count where better(i, first) { first = i }
        var best = first
        var bestDeviation = deviation(best)
        if Self.isLowPriority(road(best).roadClass) && road(best).roadClass != inClass {
            best = 0
            bestDeviation = 180
        }
        var straightest = 0
        for i in 1..<count where deviation(i) < deviation(straightest) { straightest = i }
        if straightest != first {
            let c = road(straightest).roadClass
            if abs(bestDeviation - deviation(straightest)) > Self.fuzzyDeviation && !Self.isLowPriority(c) && !Self.isLink(c)
                && !continues(first) {
                best = straightest
                bestDeviation = deviation(straightest)
            }
        }
        guard best != 0 else { return nil }

        var candidate = 0
        for i in 1..<count where betterContinuing(i, candidate) { candidate = i }
        var bestContinue = 0
        var continueDeviation = 180.0
        if continues(candidate) || (!inNamed && graph.edgeName[road(candidate).edge] == 0) {
            bestContinue = candidate
            continueDeviation = deviation(candidate)
        }
        if bestContinue != 0 && best != bestContinue && bestDeviation < Self.noTurnDeviation
            && road(bestContinue).roadClass == road(best).roadClass { return nil }

        var continueCount = 0, enterableContinues = 0, narrowContinues = 0
        for i in 1..<count where continues(i) {
            continueCount += 1
            if road(i).entry { enterableContinues += 1 }
            if deviation(i) < Self.narrowTurnDeviation { narrowContinues += 1 }
        }
        let bestOverContinue: Bool = {
            if bestContinue == 0 { return true }
            if narrowContinues != continueCount && continueCount >= 2 && count >= 4 { return true }
            if enterableContinues >= 2 && continueDeviation >= 2 * Self.narrowTurnDeviation { return true }
            if obvious(bestContinue, over: best) { return false }
            if obvious(best, over: bestContinue) { return true }
            if bestDeviation < continueDeviation && bestDeviation < Self.fuzzyDeviation && !Self.isRamp(road(best).roadClass) { return true }
            return bestDeviation < continueDeviation && inClass == road(best).roadClass
                && Self.osrmPriority(road(bestContinue).roadClass) > Self.osrmPriority(road(best).roadClass)
        }()

        // Turning onto a oneway through street is announced unless it is a slight merge.
        func ontoThroughStreet(_ i: Int) -> Bool {
            let target = Bearing.normalized(road(i).bearing + 180)
            var opposite = 0
            var nearest = 360.0
            for j in 0..<count {
                let gap = abs(Bearing.deviation(from: target, to: road(j).bearing))
                if gap < nearest { nearest = gap; opposite = j }
            }
            let other = road(opposite), taken = road(i)
            let rings = other.flags.contains(.roundabout) || other.flags.contains(.circular) || taken.flags.contains(.roundabout)
                || taken.flags.contains(.circular)
            return !other.entry && taken.entry && other.roadClass == taken.roadClass && !rings && !Self.isLowPriority(other.roadClass)
                && deviation(opposite) / max(deviation(i), 0.5) <= 2
        }

        if bestOverContinue {
            func skipMinor(_ index: Int, step: Int) -> Int {
                guard index != 0, obvious(best, over: index) else { return index }
                return (index + step + count) % count
            }
            let left = skipMinor((best + 1) % count, step: 1)
            let right = skipMinor(best - 1, step: -1)
            let leftDeviation = deviation(left), rightDeviation = deviation(right)
            if bestDeviation < Self.noTurnDeviation && min(leftDeviation, rightDeviation) > Self.fuzzyDeviation { return index(best) }
            let obviousToLeft = left == 0 || obvious(best, over: left)
            let obviousToRight = right == 0 || obvious(best, over: right)
            func narrow(_ i: Int) -> Bool {
                deviation(i) <= Self.fuzzyDeviation && (bestDeviation > Self.narrowTurnDeviation || road(i).entry)
            }
            if narrow(right) && !obviousToRight { return nil }
            if narrow(left) && !obviousToLeft { return nil }
            if ontoThroughStreet(best) { return nil }
            func distinct(_ i: Int, _ d: Double) -> Bool {
                let ratio = inClass == road(best).roadClass
                    && Self.osrmPriority(road(best).roadClass) < Self.osrmPriority(road(i).roadClass) ? 0.8 * Self.distinctionRatio : Self.distinctionRatio
                return i == 0 || d / bestDeviation >= ratio || (d <= Self.narrowTurnDeviation && !road(i).entry)
            }
            if (distinct(left, leftDeviation) || obviousToLeft) && (distinct(right, rightDeviation) || obviousToRight) { return index(best) }
            return nil
        }
        if continueDeviation < 1 { return index(bestContinue) }
        if ontoThroughStreet(bestContinue) { return nil }
        let continueClass = road(bestContinue).roadClass
        for i in 1..<count where i != bestContinue && road(i).entry {
            if obvious(bestContinue, over: i) { continue }
            if Self.isRamp(road(i).roadClass) && continueDeviation < Self.groupDeviation && !Self.isRamp(continueClass) { continue }
            let d = deviation(i)
            if d < Self.fuzzyDeviation { return nil }
            let ratio = d / continueDeviation
            if ratio < Self.distinctionRatio / 1.5 { return nil }
            if !needsNameAnnounced(from: road(i).edge, to: road(bestContinue).edge) && ratio < 1.5 * Self.distinctionRatio { return nil }
        }
        return index(bestContinue)
    }
}

fileprivate extension Bool {
    /// 1 for true, 0 for false: for ordering tuples of conditions, true first.
    var rank: Int { self ? 1 : 0 }
}
