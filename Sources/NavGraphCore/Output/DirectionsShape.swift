/// The choices that make one Directions body out of the shared writer (`DirectionsResponse.write`): the overview
/// geometry, the annotation arrays, the waypoints, and the members the Mapbox dialect adds. `/route/v1` sets them from
/// its parameters, a dialect's writer adjusts them; no dialect has a writer of its own for the same document.
package struct DirectionsShape: Sendable {
    /// The route's `geometry`: the whole line, the line simplified (Douglas–Peucker, 5 m), or none.
    package enum Overview: Sendable {
        case full, simplified, none
    }

    /// The annotation arrays of each leg, written in this order (`annotation` is left out when none).
    package struct Annotations: OptionSet, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }

        package static let distance = Annotations(rawValue: 1)
        package static let duration = Annotations(rawValue: 2)
        package static let speed = Annotations(rawValue: 4)
        package static let congestion = Annotations(rawValue: 8)
        package static let congestionNumeric = Annotations(rawValue: 16)
        package static let maxspeed = Annotations(rawValue: 32)
        package static let all: Annotations = [.distance, .duration, .speed, .congestion, .congestionNumeric, .maxspeed]

        /// The arrays named (`RouteEndpoint.annotationNames`; other names add nothing).
        package init(names: [String]) {
            self = []
            for name in names {
                switch name {
                case "distance": insert(.distance)
                case "duration": insert(.duration)
                case "speed": insert(.speed)
                case "congestion": insert(.congestion)
                case "congestion_numeric": insert(.congestionNumeric)
                case "maxspeed": insert(.maxspeed)
                default: break
                }
            }
        }
    }

    package var overview: Overview = .full
    package var annotations: Annotations = .all
    /// Whether the document has `waypoints` (`skip_waypoints=true` leaves them out).
    var writesWaypoints = true
    /// Written in place of the response's waypoints (Mapbox lists silent via points too, and names them).
    package var waypoints: [RouteWaypoint]?
    /// Mapbox's leg additions: `closures` (always empty: the traffic feed has no closures) and
    /// `annotation.traffic_tendency` (0, "unknown", per segment).
    package var closures = false
    package var trafficTendency = false
    /// Mapbox's `refresh_ttl` (seconds), the document's last member, for routes kept for a refresh.
    package var refreshTTL: Double?

    package init() {}
}
