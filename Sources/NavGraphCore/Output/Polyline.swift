import Foundation

/// Google's encoded polyline format: precision 5 (`polyline`) or 6 (`polyline6`, used by OSRM and Mapbox).
public enum Polyline {
    /// Encodes coordinates as latitude/longitude pairs rounded to `precision` decimal places (invalid values as 0).
    public static func encode(_ coords: [Coordinate], precision: Int = 6) -> String {
        encode(coords[...], precision: precision, repeatLast: 0)
    }

    /// The encoding of `coords` with the last one repeated `repeatLast` more times (a one-point step's geometry).
    package static func encode(_ coords: ArraySlice<Coordinate>, precision: Int, repeatLast: Int) -> String {
        let capacity = (coords.count + repeatLast) * maxBytesPerCoordinate
        guard capacity > 0 else { return "" }
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            return write(coords, precision: precision, repeatLast: repeatLast, to: base)
        }
    }

    /// The most bytes one coordinate takes: two values of at most 2^41 in magnitude (`fixed`), zigzagged into 43 bits,
    /// 5 bits per byte.
    static let maxBytesPerCoordinate = 18

    /// Writes the encoding to `out`, which has room for `maxBytesPerCoordinate` per coordinate; returns the bytes written.
    @inline(__always)
    package static func write(_ coords: ArraySlice<Coordinate>, precision: Int, repeatLast: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let factor = precision == 6 ? 1e6 : precision == 5 ? 1e5 : pow(10, Double(precision))
        var count = 0
        var previous = (lat: Int64(0), lon: Int64(0))
        for c in coords {
            let lat = fixed(c.lat * factor), lon = fixed(c.lon * factor)
            count += writeValue(lat - previous.lat, to: out + count)
            count += writeValue(lon - previous.lon, to: out + count)
            previous = (lat, lon)
        }
        if !coords.isEmpty {
            // A repeated point is a zero step in both values: "??".
            for _ in 0..<max(0, repeatLast) {
                out[count] = 63; out[count + 1] = 63
                count += 2
            }
        }
        return count
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

    /// Rounds to an integer, halves away from zero; non-finite or out-of-range values (never valid degrees) become 0
    /// rather than trapping.
    @inline(__always)
    private static func fixed(_ value: Double) -> Int64 {
        guard value.magnitude < 0x1p40 else { return 0 }
        let result = HalfAwayRounding.rounded(value)
        return result.magnitude < 1 << 40 ? result : 0
    }

    @inline(__always)
    private static func writeValue(_ value: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var v = UInt64(bitPattern: value < 0 ? ~(value << 1) : value << 1)
        var count = 0
        while v >= 0x20 {
            out[count] = UInt8((v & 0x1F) | 0x20) + 63
            count += 1
            v >>= 5
        }
        out[count] = UInt8(v) + 63
        return count + 1
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
