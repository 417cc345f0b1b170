import Foundation

/// Request size and time limits of the routing service.
public struct ServiceLimits: Sendable {
    /// Coordinates in one /route (and /geojson, /style) request.
    public var maximumCoordinates = 500
    /// Coordinates in one /table request (`--max-table-size`).
    public var maximumTableSize = 1000
    /// Alternatives one /route request may ask for (`--max-alternatives`).
    public var maximumAlternatives = 3
    /// Coordinates in one /match request (`--max-matching-size`) and one /trip request (`--max-trip-size`).
    public var maximumMatchingSize = 100
    public var maximumTripSize = 100
    /// `number` of one /nearest request.
    public var maximumNearest = 100
    /// Bytes of a request body (POST /traffic).
    public var maximumBodyBytes = 256 << 20
    /// Seconds a table computation may run before it is abandoned.
    public var requestSeconds = 30.0
    /// Responses kept for route refresh (`--refresh-cache`; 0 turns refresh off) and how long (`--refresh-ttl`, seconds).
    public var maximumRefreshableResponses = 2_000
    public var refreshSeconds: TimeInterval = 3_600

    public init() {}
}
