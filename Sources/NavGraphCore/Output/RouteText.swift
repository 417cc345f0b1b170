import Foundation

/// Short human-readable durations and distances for route labels.
public enum RouteText {
    /// "25 s" below half a minute, then "12 min", "1 h 5 min", "2 h".
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "–" }
        if seconds < 30 { return "\(Int(seconds.rounded())) s" }
        let minutes = Int((seconds / 60).rounded())
        if minutes < 60 { return "\(minutes) min" }
        let hours = minutes / 60, rest = minutes % 60
        return rest == 0 ? "\(hours) h" : "\(hours) h \(rest) min"
    }

    /// Metric: "850 m", "8.4 km", "123 km". Imperial: "500 ft", "0.8 mi", "76 mi".
    public static func distance(_ metres: Double, units: DistanceUnits) -> String {
        guard metres.isFinite, metres >= 0 else { return "–" }
        switch units {
        case .metric:
            if metres < 1000 { return "\(Int((metres / 10).rounded()) * 10) m" }
            return metres < 100_000 ? String(format: "%.1f km", metres / 1000) : "\(Int((metres / 1000).rounded())) km"
        case .imperial:
            let miles = metres / 1609.344
            if miles < 0.1 { return "\(Int((metres / 0.3048 / 10).rounded()) * 10) ft" }
            return miles < 100 ? String(format: "%.1f mi", miles) : "\(Int(miles.rounded())) mi"
        }
    }
}
