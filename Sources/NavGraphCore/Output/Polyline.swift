import Foundation

/// Google's encoded polyline format: precision 5 (`polyline`) or 6 (`polyline6`, used by OSRM and Mapbox).
public enum Polyline {
    /// Encodes coordinates as latitude/longitude pairs rounded to `precision` decimal places (invalid values as 0).
    public static func encode(_ coords: [Coordinate], precision: Int = 6) -> String {
        let factor = pow(10, Double(precision))
        var out: [UInt8] = []
        var previous = (lat: Int64(0), lon: Int64(0))
        for c in coords {
            let lat = fixed(c.lat * factor), lon = fixed(c.lon * factor)
            appendValue(lat - previous.lat, to: &out)
            appendValue(lon - previous.lon, to: &out)
            previous = (lat, lon)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes a polyline; throws on characters outside the format or a truncated value.
    public static func decode(_ string: String, precision: Int = 6) throws -> [Coordinate] {
        let factor = pow(10, Double(precision))
        let bytes = Array(string.utf8)
        var index = 0
        var lat: Int64 = 0, lon: Int64 = 0
        var coords: [Coordinate] = []
        while index < bytes.count {
            lat += try readValue(bytes, &index)
            guard index < bytes.count else { throw NavGraphError("polyline: truncated after a latitude") }
            lon += try readValue(bytes, &index)
            coords.append(Coordinate(lat: Double(lat) / factor, lon: Double(lon) / factor))
        }
        return coords
    }

    /// Rounds to an integer; non-finite or out-of-range values (never valid degrees) become 0 rather than trapping.
    private static func fixed(_ value: Double) -> Int64 {
        Int64(exactly: value.rounded()).flatMap { abs($0) < 1 << 40 ? $0 : nil } ?? 0
    }

    private static func appendValue(_ value: Int64, to out: inout [UInt8]) {
        var v = UInt64(bitPattern: value < 0 ? ~(value << 1) : value << 1)
        while v >= 0x20 {
            out.append(UInt8((v & 0x1F) | 0x20) + 63)
            v >>= 5
        }
        out.append(UInt8(v) + 63)
    }

    private static func readValue(_ bytes: [UInt8], _ index: inout Int) throws -> Int64 {
        var result: UInt64 = 0, shift: UInt64 = 0
        while true {
            guard index < bytes.count else { throw NavGraphError("polyline: truncated value") }
            let byte = bytes[index]
            guard byte >= 63, byte < 127, shift < 64 else {
                throw NavGraphError("polyline: invalid character at offset \(index)")
            }
            index += 1
            let chunk = UInt64(byte - 63)
            result |= (chunk & 0x1F) << shift
            shift += 5
            if chunk < 0x20 { break }
        }
        let value = Int64(bitPattern: result >> 1)
        return result & 1 == 1 ? ~value : value
    }
}
