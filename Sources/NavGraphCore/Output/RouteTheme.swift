import Foundation

/// One stop of a zoom-dependent value: `value` applies at `zoom`, interpolated linearly between stops.
public struct ZoomStop: Sendable, Equatable {
    public var zoom: Double
    public var value: Double

    public init(zoom: Double, value: Double) {
        self.zoom = zoom
        self.value = value
    }
}

/// Colours and sizes of route lines and markers; `load(path:)` overrides the defaults from a JSON file.
public struct RouteTheme: Sendable, Equatable {
    public var trafficUnknownColor = "#2F7AC6"
    public var trafficLowColor = "#2F7AC6"
    public var trafficModerateColor = "#FF9500"
    public var trafficHeavyColor = "#FF4D4D"
    public var trafficSevereColor = "#8F2447"
    public var routeCasingColor = "#475CCC"
    public var routeAlternateColor = "#FFA600"
    public var routeAlternateCasingColor = "#FFE666"
    /// Colour of the part of the primary route behind the vehicle; grey by default so it stands apart from
    /// every congestion colour (the low and unknown blue above all).
    public var traversedRouteColor = "#9E9E9E"
    /// Colour of the dotted overlay drawn on ferry segments.
    public var ferryDashColor = "#FFFFFF"
    /// Route line width in pixels by zoom; the casing is `routeCasingWidthRatio` times wider.
    public var routeLineWidthByZoom: [ZoomStop] = [
        ZoomStop(zoom: 10, value: 8), ZoomStop(zoom: 13, value: 9), ZoomStop(zoom: 16, value: 11),
        ZoomStop(zoom: 19, value: 22), ZoomStop(zoom: 22, value: 28),
    ]
    public var routeCasingWidthRatio = 1.3
    public var waypointColor = "#E6E6E6"
    public var waypointRadius = 10.0
    public var waypointStrokeColor = "#2E9E44"
    public var waypointStrokeWidth = 1.0
    /// Opacity of markers and their labels once the waypoint is completed.
    public var waypointCompletedOpacity = 0.5
    public var waypointTextColor = "#1A1A1A"
    public var waypointTextSize = 10.0
    public var waypointTextHaloColor = "#2F7AC6"
    public var waypointTextHaloWidth = 0.25
    public var durationLabelTextColor = "#1A1A1A"
    public var durationLabelHaloColor = "#FFFFFF"
    public var durationLabelTextSize = 13.0
    /// Isochrone fills from the shortest contour to the longest (intermediate contours get the middle colour).
    public var isochroneNearColor = "#2E9E44"
    public var isochroneMiddleColor = "#F2C12E"
    public var isochroneFarColor = "#D9534F"

    /// The built-in theme.
    public static let `default` = RouteTheme()

    public init() {}

    /// Reads a JSON object whose keys are property names of this type; omitted keys keep their defaults.
    public static func load(path: String) throws -> RouteTheme {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw NavGraphError("theme: cannot read \(path)")
        }
        return try RouteTheme(json: data)
    }

    /// Parses a theme from JSON data; unknown keys, bad colours and bad numbers are errors naming the key.
    public init(json data: Data) throws {
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: data) } catch {
            throw NavGraphError("theme: not valid JSON (\(error.localizedDescription))")
        }
        guard let object = parsed as? [String: Any] else { throw NavGraphError("theme: top level must be a JSON object") }
        let colors = Dictionary(uniqueKeysWithValues: RouteTheme.colorKeys)
        let numbers = Dictionary(uniqueKeysWithValues: RouteTheme.numberKeys)
        for key in object.keys.sorted() {
            let value = object[key] ?? NSNull()
            if let path = colors[key] {
                guard let text = value as? String, RouteTheme.isColor(text) else {
                    throw NavGraphError("theme: \(key): \(value) is not a colour like #RRGGBB or #RGB")
                }
                self[keyPath: path] = text
            } else if let path = numbers[key] {
                guard RouteTheme.isPlainNumber(value), let number = value as? Double, number.isFinite, number >= 0 else {
                    throw NavGraphError("theme: \(key): \(value) is not a non-negative number")
                }
                self[keyPath: path] = number
            } else if key == "routeLineWidthByZoom" {
                routeLineWidthByZoom = try RouteTheme.zoomStops(value, key: key)
            } else {
                throw NavGraphError("theme: unknown key \(key)")
            }
        }
    }

    /// Line colour for a congestion level.
    public func color(for congestion: CongestionLevel) -> String {
        switch congestion {
        case .unknown: trafficUnknownColor
        case .low: trafficLowColor
        case .moderate: trafficModerateColor
        case .heavy: trafficHeavyColor
        case .severe: trafficSevereColor
        }
    }

    /// Line width at the lowest zoom stop: the fixed `stroke-width` of simplestyle GeoJSON.
    public var baseLineWidth: Double { routeLineWidthByZoom.first?.value ?? 8 }

    /// Whether `text` is `#RGB` or `#RRGGBB`, the forms both simplestyle and MapLibre accept.
    public static func isColor(_ text: String) -> Bool {
        let digits = text.dropFirst()
        return text.hasPrefix("#") && (digits.count == 3 || digits.count == 6) && digits.allSatisfy(\.isHexDigit)
    }

    private static var colorKeys: [(String, WritableKeyPath<RouteTheme, String>)] {
        [
            ("trafficUnknownColor", \.trafficUnknownColor), ("trafficLowColor", \.trafficLowColor),
            ("isochroneNearColor", \.isochroneNearColor), ("isochroneMiddleColor", \.isochroneMiddleColor),
            ("isochroneFarColor", \.isochroneFarColor),
            ("trafficModerateColor", \.trafficModerateColor), ("trafficHeavyColor", \.trafficHeavyColor),
            ("trafficSevereColor", \.trafficSevereColor), ("routeCasingColor", \.routeCasingColor),
            ("routeAlternateColor", \.routeAlternateColor), ("routeAlternateCasingColor", \.routeAlternateCasingColor),
            ("traversedRouteColor", \.traversedRouteColor), ("ferryDashColor", \.ferryDashColor),
            ("waypointColor", \.waypointColor), ("waypointStrokeColor", \.waypointStrokeColor),
            ("waypointTextColor", \.waypointTextColor), ("waypointTextHaloColor", \.waypointTextHaloColor),
            ("durationLabelTextColor", \.durationLabelTextColor), ("durationLabelHaloColor", \.durationLabelHaloColor),
        ]
    }

    private static var numberKeys: [(String, WritableKeyPath<RouteTheme, Double>)] {
        [
            ("routeCasingWidthRatio", \.routeCasingWidthRatio), ("waypointRadius", \.waypointRadius),
            ("waypointStrokeWidth", \.waypointStrokeWidth), ("waypointCompletedOpacity", \.waypointCompletedOpacity),
            ("waypointTextSize", \.waypointTextSize), ("waypointTextHaloWidth", \.waypointTextHaloWidth),
            ("durationLabelTextSize", \.durationLabelTextSize),
        ]
    }

    /// A JSON number, not a string or boolean (JSONSerialization bridges booleans to NSNumber with objCType "c").
    private static func isPlainNumber(_ value: Any) -> Bool {
        guard let number = value as? NSNumber, !(value is String) else { return false }
        return String(cString: number.objCType) != "c"
    }

    /// `{"10": 8, "13": 9}`: zoom levels 0–24 as keys, widths in pixels as values.
    private static func zoomStops(_ value: Any, key: String) throws -> [ZoomStop] {
        guard let object = value as? [String: Any], !object.isEmpty else {
            throw NavGraphError("theme: \(key) must be an object like {\"10\": 8, \"16\": 11}")
        }
        var stops: [ZoomStop] = []
        for (zoomText, widthValue) in object {
            guard let zoom = Double(zoomText), (0...24).contains(zoom) else {
                throw NavGraphError("theme: \(key): \(zoomText) is not a zoom level 0–24")
            }
            guard RouteTheme.isPlainNumber(widthValue), let width = widthValue as? Double, width.isFinite, width >= 0 else {
                throw NavGraphError("theme: \(key).\(zoomText): \(widthValue) is not a non-negative number")
            }
            stops.append(ZoomStop(zoom: zoom, value: width))
        }
        stops.sort { $0.zoom < $1.zoom }
        for (a, b) in zip(stops, stops.dropFirst()) where a.zoom == b.zoom {
            throw NavGraphError("theme: \(key): zoom \(a.zoom) is given twice")
        }
        return stops
    }
}
