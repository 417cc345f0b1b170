/// Units for human-readable distances in labels.
public enum DistanceUnits: String, Sendable, CaseIterable {
    case metric, imperial
}

/// How route geometry is written in Directions JSON.
public enum GeometryFormat: String, Sendable, CaseIterable {
    /// Encoded polyline with 6 decimals (OSRM/Mapbox default).
    case polyline6
    /// Encoded polyline with 5 decimals (Google's original precision).
    case polyline
    /// A GeoJSON LineString object.
    case geojson
}

/// Everything the output writers need besides the route itself.
public struct OutputOptions: Sendable {
    public var theme: RouteTheme
    public var units: DistanceUnits
    public var geometry: GeometryFormat
    /// Current vehicle position; when set, the primary route is split into traversed and remaining parts.
    public var position: Coordinate?
    /// A position farther than this from the primary route (metres) is off-route.
    public var offRouteThreshold: Double
    /// Display names for waypoints by index; missing or empty entries fall back to the waypoint label, then its number.
    public var waypointNames: [String]
    public var prettyPrinted: Bool
    /// Glyph URL template for MapLibre symbol layers.
    public var glyphsURL: String
    /// Font stack for MapLibre symbol layers; must exist on the glyph server.
    public var fontStack: [String]
    /// Words for the steps; when nil the output has no instruction, voice or banner fields (never made-up ones).
    public var narrator: (any StepNarrator)?
    /// Whether steps carry `voiceInstructions` and `bannerInstructions` (with a narrator; both by default).
    public var voiceInstructions = true
    public var bannerInstructions = true
    /// The Directions response's `uuid`; a random one when nil.
    public var responseID: String?

    public init(
        theme: RouteTheme = .default, units: DistanceUnits = .metric, geometry: GeometryFormat = .polyline6,
        position: Coordinate? = nil, offRouteThreshold: Double = 50, waypointNames: [String] = [],
        prettyPrinted: Bool = true,
        glyphsURL: String = "https://demotiles.maplibre.org/font/{fontstack}/{range}.pbf",
        fontStack: [String] = ["Open Sans Semibold"]
    ) {
        self.theme = theme
        self.units = units
        self.geometry = geometry
        self.position = position
        self.offRouteThreshold = offRouteThreshold
        self.waypointNames = waypointNames
        self.prettyPrinted = prettyPrinted
        self.glyphsURL = glyphsURL
        self.fontStack = fontStack
    }
}
