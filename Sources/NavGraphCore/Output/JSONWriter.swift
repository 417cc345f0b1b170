import Foundation

/// A JSON value with ordered object keys, so output files read in a stable, legible order.
package enum JSON: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// A number rounded to `decimals` places (non-finite values become null).
    package static func number(_ value: Double, decimals: Int) -> JSON {
        guard value.isFinite else { return .null }
        let scale = pow(10, Double(decimals))
        return .number((value * scale).rounded() / scale)
    }

    /// `[lon, lat]` with 6 decimals (about 0.1 m), as RFC 7946 and the Directions API order them.
    package static func position(_ c: Coordinate) -> JSON {
        .array([.number(c.lon, decimals: 6), .number(c.lat, decimals: 6)])
    }

    /// Metres or seconds with one decimal.
    package static func measure(_ value: Double) -> JSON { .number(value, decimals: 1) }

    /// An optional integer, null when absent.
    static func int(_ value: Int?) -> JSON { value.map { .number(Double($0)) } ?? .null }

    /// Serializes the value; `pretty` indents by two spaces and keeps scalar-only arrays on one line. Written by
    /// `JSONStream`, the one serializer of JSON documents.
    package func data(pretty: Bool) -> Data {
        bytes(pretty: pretty).data
    }

    /// The serialized value in a buffer of its own (`HTTPResponse` sends it without a copy).
    package func bytes(pretty: Bool) -> WrittenBytes {
        var stream = JSONStream()
        stream.tree(self, pretty: pretty, indent: 0)
        if pretty { stream.raw(UInt8(ascii: "\n")) }
        return stream.finish()
    }

    /// `n` as an integer count of 10^-decimals when 1...3 decimals write it exactly as Swift's shortest round-trip
    /// `description` does (the measures and speeds rounded to one decimal): `scaled / 10^decimals` parses back to `n`,
    /// fewer decimals do not, and 0.001 <= |n| < 1e12 keeps Swift out of exponent notation and under 15 digits.
    package static func fewDecimals(_ n: Double) -> (Int64, Int)? {
        let magnitude = abs(n)
        guard magnitude >= 0.001, magnitude < 1e12 else { return nil }
        var scale = 1.0
        for decimals in 1...3 {
            scale *= 10
            let scaled = (n * scale).rounded()
            if scaled / scale == n { return (Int64(scaled), decimals) }
        }
        return nil
    }
}
