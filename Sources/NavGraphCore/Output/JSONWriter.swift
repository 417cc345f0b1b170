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
    package static func int(_ value: Int?) -> JSON { value.map { .number(Double($0)) } ?? .null }

    /// Serializes the value; `pretty` indents by two spaces and keeps scalar-only arrays on one line.
    package func data(pretty: Bool) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(to: &out, pretty: pretty, indent: 0)
        if pretty { out.append(UInt8(ascii: "\n")) }
        return Data(out)
    }

    /// Writes UTF-8 bytes (a byte buffer: appending to a String costs several times more per piece).
    private func write(to out: inout [UInt8], pretty: Bool, indent: Int) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): JSON.format(n, into: &out)
        case .string(let s): JSON.quote(s, into: &out)
        case .array(let items):
            let inline = !pretty || items.allSatisfy(\.isScalar)
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 {
                    out.append(UInt8(ascii: ","))
                    if inline && pretty { out.append(UInt8(ascii: " ")) }
                }
                if !inline { JSON.newline(&out, indent + 1) }
                item.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if !inline && !items.isEmpty { JSON.newline(&out, indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { JSON.newline(&out, indent + 1) }
                JSON.quote(key, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                value.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty && !members.isEmpty { JSON.newline(&out, indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

    private static func newline(_ out: inout [UInt8], _ indent: Int) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    /// Integral values print without a fraction; others use Swift's shortest round-trip form.
    private static func format(_ n: Double, into out: inout [UInt8]) {
        guard n.isFinite else { return out.append(contentsOf: "null".utf8) }
        guard n == n.rounded(), abs(n) < 1e15 else {
            if let (scaled, decimals) = fewDecimals(n) { return fixed(scaled, decimals: decimals, into: &out) }
            return out.append(contentsOf: "\(n)".utf8)
        }
        var value = Int64(n)
        if value < 0 {
            out.append(UInt8(ascii: "-"))
            value = -value
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[15 - count] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
                count += 1
            } while value > 0
            out.append(contentsOf: buffer[(16 - count)...])
        }
    }

    /// `n` as an integer count of 10^-decimals when 1...3 decimals write it exactly as Swift's shortest round-trip
    /// `description` does (the measures and speeds rounded to one decimal): `scaled / 10^decimals` parses back to `n`,
    /// fewer decimals do not, and 0.001 <= |n| < 1e12 keeps Swift out of exponent notation and under 15 digits.
    private static func fewDecimals(_ n: Double) -> (Int64, Int)? {
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

    /// "-12.05" from (-1205, 2): the sign, the integer part and exactly `decimals` fraction digits.
    private static func fixed(_ scaled: Int64, decimals: Int, into out: inout [UInt8]) {
        if scaled < 0 { out.append(UInt8(ascii: "-")) }
        var divisor: Int64 = 1
        for _ in 0..<decimals { divisor *= 10 }
        let magnitude = scaled.magnitude
        format(Double(magnitude / UInt64(divisor)), into: &out)
        out.append(UInt8(ascii: "."))
        var fraction = magnitude % UInt64(divisor)
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: decimals))
        var index = out.count - 1
        while fraction > 0 {
            out[index] = UInt8(ascii: "0") + UInt8(fraction % 10)
            fraction /= 10
            index -= 1
        }
    }

    private static func quote(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings (keys, names, polylines) need no escape: copied whole, from the contiguous UTF-8 of native
        // strings (iterating the UTF-8 view byte by byte was the writer's biggest cost).
        let copied = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !bytes.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if copied == true || (copied == nil && !s.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 })) {
            if copied == nil { out.append(contentsOf: s.utf8) }
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in s.utf8 {
            switch byte {
            case 0x22: out.append(contentsOf: "\\\"".utf8)
            case 0x5C: out.append(contentsOf: "\\\\".utf8)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case ..<0x20: out.append(contentsOf: String(format: "\\u%04x", byte).utf8)
            default: out.append(byte)   // UTF-8 of the other scalars, unchanged
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
