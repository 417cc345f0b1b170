/// Which side of the road traffic keeps to, from a coarse table of left-driving regions' bounding boxes.
public enum DrivingSide: String, Sendable {
    case right, left

    /// Left-driving regions as (min lat, max lat, min lon, max lon). Coarse: a box may overlap a right-driving
    /// neighbour near a border (e.g. Ireland's box spares Northern Ireland nothing, both drive on the left).
    static let leftDrivingBoxes: [(String, Double, Double, Double, Double)] = [
        ("GB", 49.8, 60.9, -8.7, 1.8), ("IE", 51.3, 55.5, -10.7, -5.9), ("IM", 54.0, 54.45, -4.85, -4.3),
        ("MT", 35.78, 36.1, 14.15, 14.6), ("CY", 34.5, 35.75, 32.2, 34.65), ("JP", 24.0, 45.6, 122.9, 146.0),
        ("AU", -43.7, -10.0, 112.9, 153.7), ("NZ", -47.4, -34.3, 166.3, 178.7), ("ZA", -34.9, -22.1, 16.4, 32.9),
        ("IN", 6.7, 35.5, 68.1, 97.4), ("TH", 5.6, 20.5, 97.3, 105.7), ("ID", -11.0, 6.0, 95.0, 141.0),
        ("MY", 0.8, 7.4, 99.6, 119.3), ("SG", 1.15, 1.48, 103.6, 104.1), ("HK", 22.15, 22.57, 113.83, 114.45),
        ("LK", 5.9, 9.9, 79.5, 81.9), ("BD", 20.6, 26.7, 88.0, 92.7), ("PK", 23.6, 37.1, 60.8, 77.8),
        ("KE", -4.7, 5.0, 33.9, 41.9), ("JM", 17.7, 18.5, -78.4, -76.2),
    ]

    /// The side for a location (right unless it falls in a left-driving box).
    public init(at point: Coordinate) {
        for (_, minLat, maxLat, minLon, maxLon) in Self.leftDrivingBoxes
        where point.lat >= minLat && point.lat <= maxLat && point.lon >= minLon && point.lon <= maxLon {
            self = .left
            return
        }
        self = .right
    }
}
