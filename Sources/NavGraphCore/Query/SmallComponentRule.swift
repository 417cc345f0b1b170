/// OSRM's rule for small components: when every waypoint of a request lies nearest to a road of the same small
/// component, the request is answered inside that component; otherwise each waypoint keeps its usual snap.
///
/// OSRM calls a strongly connected component tiny below 1000 edge-based nodes (`Snapper.smallComponentSize`), finds
/// per coordinate the nearest road and the nearest road in a big component, and routes on the nearest roads only
/// when they all lie in one tiny component. navgraph's usual snap prefers its largest component instead (see
/// `Snapper`), which keeps a point near a car park's loop on the street network unless both ends are at that loop.
public enum SmallComponentRule {
    /// The nearest snaps when every waypoint's nearest road lies in one small component, else nil.
    public static func snaps(_ candidates: [SnapCandidates]) -> [Snap]? {
        guard let component = candidates.first?.smallComponent else { return nil }
        var snaps: [Snap] = []
        snaps.reserveCapacity(candidates.count)
        for candidate in candidates {
            guard candidate.smallComponent == component, let snap = candidate.nearestInSmallComponent else { return nil }
            snaps.append(snap)
        }
        return snaps
    }

    /// The snaps of a set of points answered together (a matrix): the nearest ones when every snapped point's nearest
    /// road lies in one small component, else the usual ones. Points that did not snap stay nil.
    public static func snaps(_ candidates: [SnapCandidates?]) -> [Snap?] {
        let snapped = candidates.compactMap { $0 }
        guard !snapped.isEmpty, let nearest = snaps(snapped) else { return candidates.map { $0?.snap } }
        var next = nearest.makeIterator()
        return candidates.map { $0 == nil ? nil : next.next() }
    }
}
