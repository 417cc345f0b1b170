/// Where a vehicle is along the primary route: the snapped point, the current leg, and which waypoints are done.
public struct RouteProgress: Sendable, Equatable {
    public var position: Coordinate
    /// Nearest point on the route to `position`.
    public var snapped: Coordinate
    /// Metres between `position` and `snapped`.
    public var distanceFromRoute: Double
    /// Whether `distanceFromRoute` exceeds the threshold; the split still uses the nearest point.
    public var isOffRoute: Bool
    /// Leg the vehicle is on; a vehicle exactly at a via waypoint is on the leg that starts there.
    public var legIndex: Int
    /// Segment (coordinate pair) within the leg.
    public var segmentIndex: Int
    /// 0…1 along that segment.
    public var segmentFraction: Double
    /// Metres and seconds along the route, from the leg annotations.
    public var distanceTraveled: Double
    public var distanceRemaining: Double
    public var durationRemaining: Double
    /// One entry per waypoint (legs + 1): passed waypoints, and the destination once reached.
    public var waypointCompleted: [Bool]

    /// Snaps `position` onto the route; nil when the route has no segment to snap to.
    public init?(route: Route, position: Coordinate, offRouteThreshold: Double = 50) {
        var best: (leg: Int, segment: Int, fraction: Double, point: Coordinate, distance: Double)?
        for (l, leg) in route.legs.enumerated() {
            for s in 0..<max(0, leg.coordinates.count - 1) {
                let p = Geo.project(position, ontoSegmentFrom: leg.coordinates[s], to: leg.coordinates[s + 1])
                let d = Geo.haversine(position, p.point)
                if best == nil || d < best?.distance ?? .infinity { best = (l, s, p.fraction, p.point, d) }
            }
        }
        guard var found = best else { return nil }
        // At the very end of a leg, the vehicle has arrived at the via waypoint: count it on the next leg.
        let next = found.leg + 1
        if found.fraction >= 1, found.segment == route.legs[found.leg].coordinates.count - 2,
           next < route.legs.count, route.legs[next].coordinates.count >= 2 {
            found = (next, 0, 0, found.point, found.distance)
        }
        self.position = position
        snapped = found.point
        distanceFromRoute = found.distance
        isOffRoute = found.distance > offRouteThreshold
        legIndex = found.leg
        segmentIndex = found.segment
        segmentFraction = found.fraction

        var traveled = 0.0, remaining = 0.0, remainingTime = 0.0
        for (l, leg) in route.legs.enumerated() {
            for (s, a) in leg.annotations.enumerated() {
                let done = (l, s) < (found.leg, found.segment) ? 1 : (l, s) == (found.leg, found.segment) ? found.fraction : 0
                traveled += a.distance * done
                remaining += a.distance * (1 - done)
                remainingTime += a.duration * (1 - done)
            }
        }
        distanceTraveled = traveled
        distanceRemaining = remaining
        durationRemaining = remainingTime

        let lastLeg = route.legs.count - 1
        let arrived = found.leg == lastLeg && found.segment == route.legs[lastLeg].coordinates.count - 2 && found.fraction >= 1
        waypointCompleted = (0...route.legs.count).map { i in
            if i == route.legs.count { return arrived }
            return found.leg > i || (found.leg == i && (found.segment > 0 || found.fraction > 0))
        }
    }

    /// The progress of `options.position` along the primary route, or nil without a position or route.
    public static func make(_ response: RouteResponse, _ options: OutputOptions) -> RouteProgress? {
        guard let position = options.position, let primary = response.routes.first else { return nil }
        return RouteProgress(route: primary, position: position, offRouteThreshold: options.offRouteThreshold)
    }

    /// How much of segment `segment` of leg `leg` lies behind the vehicle: 1 before it, 0 after it.
    public func traversedFraction(leg: Int, segment: Int) -> Double {
        (leg, segment) < (legIndex, segmentIndex) ? 1 : (leg, segment) == (legIndex, segmentIndex) ? segmentFraction : 0
    }

    /// The route geometry split at the snapped point; both parts contain it.
    public func split(_ route: Route) -> (traversed: [Coordinate], remaining: [Coordinate]) {
        // Vertex k of the joined geometry sits at parameter k; the vehicle at (segments before it) + fraction.
        let segmentsBefore = route.legs.prefix(legIndex).reduce(0) { $0 + max(0, $1.coordinates.count - 1) }
        let here = Double(segmentsBefore + segmentIndex) + segmentFraction
        let coords = route.coordinates
        let behind = coords.indices.filter { Double($0) < here }.map { coords[$0] }
        let ahead = coords.indices.filter { Double($0) > here }.map { coords[$0] }
        return (behind + [snapped], [snapped] + ahead)
    }
}
