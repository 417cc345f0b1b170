import Foundation

/// A WGS84 position in degrees.
public struct Coordinate: Sendable, Equatable, Codable {
    public var lat: Double
    public var lon: Double

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    /// Builds a coordinate from fixed-point 1e-7 degree values, as stored in the graph file.
    public init(latE7: Int32, lonE7: Int32) {
        lat = Double(latE7) * 1e-7
        lon = Double(lonE7) * 1e-7
    }

    /// Whether both values lie in their valid ranges.
    public var isValid: Bool { lat.isFinite && lon.isFinite && abs(lat) <= 90 && abs(lon) <= 180 }
}

/// Distances and projections on the sphere, precise enough for road lengths.
public enum Geo {
    public static let earthRadius = 6_371_008.8

    /// Great-circle distance in metres.
    @inline(__always)
    public static func haversine(_ a: Coordinate, _ b: Coordinate) -> Double {
        let toRadians = Double.pi / 180
        let dLat = (b.lat - a.lat) * toRadians
        let dLon = (b.lon - a.lon) * toRadians
        let sinLat = sin(dLat / 2), sinLon = sin(dLon / 2)
        let h = sinLat * sinLat + cos(a.lat * toRadians) * cos(b.lat * toRadians) * sinLon * sinLon
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }

    /// cos(latitude) as `haversine` computes it, for `haversine(_:_:cosLatA:cosLatB:)`.
    @inline(__always)
    public static func cosLatitude(_ c: Coordinate) -> Double {
        let toRadians = Double.pi / 180
        return cos(c.lat * toRadians)
    }

    /// `haversine` with both points' `cosLatitude` given (bit-identical): a chain of segments computes each point's
    /// cosine once instead of twice.
    @inline(__always)
    public static func haversine(_ a: Coordinate, _ b: Coordinate, cosLatA: Double, cosLatB: Double) -> Double {
        let toRadians = Double.pi / 180
        let dLat = (b.lat - a.lat) * toRadians
        let dLon = (b.lon - a.lon) * toRadians
        let sinLat = sin(dLat / 2), sinLon = sin(dLon / 2)
        let h = sinLat * sinLat + cosLatA * cosLatB * sinLon * sinLon
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }

    /// Projects point p onto segment a-b in a local equirectangular frame.
    /// Returns the fraction along the segment (0...1) and the projected point.
    @inline(__always)
    public static func project(_ p: Coordinate, ontoSegmentFrom a: Coordinate, to b: Coordinate) -> (fraction: Double, point: Coordinate) {
        let projection = project(p, ontoSegmentFrom: a, to: b, longitudeScale: cos(p.lat * Double.pi / 180))
        return (projection.fraction, projection.point)
    }

    /// Metres per degree of latitude.
    public static let metresPerDegree = earthRadius * Double.pi / 180

    /// Projection with a precomputed cos(latitude); also returns the equirectangular distance in metres,
    /// which is within a fraction of a percent of the great-circle distance at snapping ranges.
    @inline(__always)
    public static func project(_ p: Coordinate, ontoSegmentFrom a: Coordinate, to b: Coordinate, longitudeScale scale: Double)
        -> (fraction: Double, point: Coordinate, distance: Double) {
        let ax = a.lon * scale, ay = a.lat
        let bx = b.lon * scale, by = b.lat
        let px = p.lon * scale, py = p.lat
        let dx = bx - ax, dy = by - ay
        let lengthSquared = dx * dx + dy * dy
        var t = 0.0
        if lengthSquared > 0 { t = max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / lengthSquared)) }
        let ex = ax + dx * t - px, ey = ay + dy * t - py
        return (t, Coordinate(lat: a.lat + (b.lat - a.lat) * t, lon: a.lon + (b.lon - a.lon) * t), (ex * ex + ey * ey).squareRoot() * metresPerDegree)
    }
}
