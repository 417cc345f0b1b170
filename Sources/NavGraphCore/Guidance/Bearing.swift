import Foundation

/// Compass arithmetic for guidance: bearings clockwise from north in degrees.
package enum Bearing {
    /// Initial bearing from a to b, 0..<360.
    package static func between(_ a: Coordinate, _ b: Coordinate) -> Double {
        let lat1 = a.lat * .pi / 180, lat2 = b.lat * .pi / 180, dLon = (b.lon - a.lon) * .pi / 180
        let y = sin(dLon) * cos(lat2)
        let x = cos(lat1) * sin(lat2) - sin(lat1) * cos(lat2) * cos(dLon)
        let degrees = atan2(y, x) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// Bearing from a to b on a local flat projection: the same as `between` within a fraction of a degree over the
    /// tens of metres guidance looks along a road, and cheaper.
    static func planar(_ a: Coordinate, _ b: Coordinate) -> Double {
        let x = (b.lon - a.lon) * cos(a.lat * .pi / 180), y = b.lat - a.lat
        let degrees = atan2(x, y) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// Metres between nearby points on a local flat projection.
    static func planarMetres(_ a: Coordinate, _ b: Coordinate) -> Double {
        let x = (b.lon - a.lon) * cos(a.lat * .pi / 180), y = b.lat - a.lat
        return (x * x + y * y).squareRoot() * 111_195
    }

    /// A bearing turned into the 0..<360 range.
    @inline(__always) package static func normalized(_ value: Double) -> Double {
        // One turn either way covers every call on the hot path; the remainder (a division) only beyond.
        if value >= 0 && value < 360 { return value }
        if value < 0 && value >= -360 { return value + 360 }
        if value >= 360 && value < 720 { return value - 360 }
        let wrapped = value.truncatingRemainder(dividingBy: 360)
        return wrapped < 0 ? wrapped + 360 : wrapped
    }

    /// The signed turn from heading `from` to heading `to`, -180...180, positive to the right.
    @inline(__always) package static func deviation(from: Double, to: Double) -> Double {
        var delta = normalized(to - from)
        if delta > 180 { delta -= 360 }
        return delta
    }

    /// A bearing as the Directions API writes it: an integer 0...359.
    @inline(__always) static func wire(_ value: Double) -> Int {
        let degrees = Int(normalized(roundedHalfAway(value)))
        return degrees >= 0 && degrees < 360 ? degrees : degrees % 360
    }

    /// `value.rounded()` (halves away from zero) without the libm call it compiles to: the part after the integer
    /// is exact in a double, so the result is the same for every input.
    @inline(__always) static func roundedHalfAway(_ value: Double) -> Double {
        guard abs(value) < 1e15 else { return value.rounded() }
        let whole = Double(Int(value))
        let part = value - whole
        if part >= 0.5 { return whole + 1 }
        if part <= -0.5 { return whole - 1 }
        return whole
    }
}
