/// Guidance on request: steps are built at output time, so plain routing pays nothing for them.
extension Router {
    /// The steps of one leg.
    public func steps(for leg: RouteLeg) -> [GuidanceStep] {
        stepBuilder.steps(for: leg)
    }

    /// Fills `steps` of every leg of every route in the response; each arrival says on which side the waypoint
    /// lies and, before the last, which stop it is.
    public func addSteps(to response: inout RouteResponse) {
        let builder = stepBuilder
        for r in response.routes.indices {
            let legs = response.routes[r].legs.count
            for l in 0..<legs {
                // The leg is read in place (through the buffer), not copied out of the response with its arrays.
                var steps = response.routes[r].legs.withUnsafeBufferPointer { legs in builder.steps(for: legs[l]) }
                if let last = steps.indices.last, steps[last].maneuver.type == .arrive {
                    if response.waypoints.count == legs + 1 {
                        let stop = response.waypoints[l + 1]
                        steps[last].maneuver.side = ArrivalSide.side(input: stop.input, snapped: stop.snapped,
                                                                     heading: Double(steps[last].maneuver.bearingBefore))
                    }
                    if l < legs - 1 { steps[last].maneuver.waypoint = l + 1 }
                }
                response.routes[r].legs[l].steps = steps
            }
        }
    }
}

/// The side of the road a waypoint lies on, seen when arriving (OSRM's arrive modifier, reduced to the three the
/// instructions speak of).
enum ArrivalSide {
    /// Below this many metres between the given point and the road, the waypoint is on the road.
    package static let onTheRoad = 1.0

    /// Left, right or straight: the turn from the heading on arrival towards the waypoint as given; nil when the
    /// waypoint lies on the road itself (no side to speak of).
    package static func side(input: Coordinate, snapped: Coordinate, heading: Double) -> ManeuverModifier? {
        guard Bearing.planarMetres(snapped, input) >= onTheRoad else { return nil }
        let deviation = Bearing.deviation(from: heading, to: Bearing.planar(snapped, input))
        if abs(deviation) <= 20 || abs(deviation) >= 160 { return .straight }
        return deviation > 0 ? .right : .left
    }
}
