import Foundation

/// A JSON value with ordered object keys, so output files read in a stable, legible order.
enum JSON: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// A number rounded to `decimals` places (non-finite values become null).
    static func number(_ value: Double, decimals: Int) -> JSON {
        guard value.isFinite else { return .null }
        let scale = pow(10, Double(decimals))
        return .number((value * scale).rounded() / scale)
    }

    /// `[lon, lat]` with 6 decimals (about 0.1 m), as RFC 7946 and the Directions API order them.
    static func position(_ c: Coordinate) -> JSON {
        .array([.number(c.lon, decimals: 6), .number(c.lat, decimals: 6)])
    }

    /// Metres or seconds with one decimal.
    static func measure(_ value: Double) -> JSON { .number(value, decimals: 1) }

    /// An optional integer, null when absent.
    static func int(_ value: Int?) -> JSON { value.map { .number(Double($0)) } ?? .null }

    /// Serializes the value; `pretty` indents by two spaces and keeps scalar-only arrays on one line.
    func data(pretty: Bool) -> Data {
        var out = ""
        write(to: &out, pretty: pretty, indent: 0)
        if pretty { out += "\n" }
        return Data(out.utf8)
    }

    private func write(to out: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += JSON.format(n)
        case .string(let s): JSON.quote(s, into: &out)
        case .array(let items):
            let inline = !pretty || items.allSatisfy(\.isScalar)
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += inline && pretty ? ", " : "," }
                if !inline { JSON.newline(&out, indent + 1) }
                item.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if !inline && !items.isEmpty { JSON.newline(&out, indent) }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                if pretty { JSON.newline(&out, indent + 1) }
                JSON.quote(key, into: &out)
                out += pretty ? ": " : ":"
                value.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty && !members.isEmpty { JSON.newline(&out, indent) }
            out += "}"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

    private static func newline(_ out: inout String, _ indent: Int) {
        out += "\n" + String(repeating: "  ", count: indent)
    }

    /// Integral values print without a fraction; others use Swift's shortest round-trip form.
    private static func format(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return "\(n)"
    }

    private static func quote(_ s: String, into out: inout String) {
        out += "\""
        // Most strings (keys, names, polylines) need no escape: appended whole, not scalar by scalar.
        if !s.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
