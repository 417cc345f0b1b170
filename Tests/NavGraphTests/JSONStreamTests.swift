import Foundation
import Testing
@testable import NavGraphCore

/// The byte writer (`JSONStream`) against the serializer it replaced (kept below verbatim as `ReferenceJSON`), on
/// random trees (nesting, escapes, Unicode, numbers of every kind, compact and pretty), and its event API against
/// the tree builder (`JSONTreeBuilder`) fed the same events.
@Suite struct JSONStreamTests {
    /// Strings with every kind of character the writer treats differently.
    static func randomString(_ rng: inout SystemRandomNumberGenerator) -> String {
        let pieces = ["a", "Via Roma", "\"", "\\", "\n", "\r", "\t", "\u{01}", "\u{1F}", "\u{7F}", "é", "ß", "東京", "🚗", "/", " ", "\u{00}",
                      "<speak>", "&amp;", "polyline?@_", ""]
        return (0..<Int.random(in: 0...8, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
    }

    static func randomNumber(_ rng: inout SystemRandomNumberGenerator) -> Double {
        switch Int.random(in: 0...7, using: &rng) {
        case 0: return Double(Int.random(in: -100_000...100_000, using: &rng))
        case 1: return (Double.random(in: -1e5...1e5, using: &rng) * 10).rounded() / 10
        case 2: return Double.random(in: -180...180, using: &rng)
        case 3: return [0, -0.0, 0.001, 0.0001, 1e-7, 1e12, 1e15, 1e16, -1e17, .pi, .infinity, -.infinity, .nan, 5e-324][Int.random(in: 0...13, using: &rng)]
        case 4: return Double(Int64.random(in: -2_000_000_000_000...2_000_000_000_000, using: &rng)) / 1000
        case 5: return Double.random(in: -1e-3...1e-3, using: &rng)
        case 6: return JSON.number(Double.random(in: -180...180, using: &rng), decimals: 6).numberValue
        default: return Double.random(in: -1e20...1e20, using: &rng)
        }
    }

    static func randomTree(_ rng: inout SystemRandomNumberGenerator, depth: Int) -> JSON {
        switch Int.random(in: 0...(depth > 3 ? 4 : 6), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2, 3: return .number(randomNumber(&rng))
        case 4: return .string(randomString(&rng))
        case 5: return .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in randomTree(&rng, depth: depth + 1) })
        default:
            return .object((0..<Int.random(in: 0...5, using: &rng)).map { _ in (randomString(&rng), randomTree(&rng, depth: depth + 1)) })
        }
    }

    @Test func treesMatchTheFormerSerializer() {
        var rng = SystemRandomNumberGenerator()
        var checked = 0
        for _ in 0..<3000 {
            let tree = Self.randomTree(&rng, depth: 0)
            for pretty in [false, true] {
                let written = tree.data(pretty: pretty), reference = ReferenceJSON.data(tree, pretty: pretty)
                #expect(written == reference, "\(String(decoding: reference, as: UTF8.self))")
                checked += reference.count
            }
        }
        #expect(checked > 100_000)
    }

    /// Every number the event API writes, rounded or not, as the tree holds and the former serializer writes it.
    @Test func numbersMatchTheFormerSerializer() {
        var rng = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 0.05, -0.05, 0.0005, 0.00049, 0.00051, 0.0015, 1e-4, 1e-5, 45.4643, 9.1859, -0.000001, 0.000001,
                                0.0000005, 999_999_999.9999996, 1e9, 1e9 - 0.5, 123_456_789.123456, 1e11, 1e12, 1e15, 1e16, .infinity, .nan]
        for _ in 0..<20_000 { values.append(Self.randomNumber(&rng)) }
        for value in values {
            for decimals in 0...6 {
                var stream = JSONStream(reserve: 64)
                stream.number(value, decimals: decimals)
                let written = stream.finish().data
                #expect(written == ReferenceJSON.data(.number(value, decimals: decimals), pretty: false), "\(value) \(decimals)")
            }
            var stream = JSONStream(reserve: 16)
            stream.number(value)
            #expect(stream.finish().data == ReferenceJSON.data(.number(value), pretty: false), "\(value)")
            if value.magnitude < 1e15, value == value.rounded() {
                var integers = JSONStream(reserve: 16)
                integers.integer(Int(value))
                #expect(integers.finish().data == ReferenceJSON.data(.number(value), pretty: false), "\(value)")
            }
        }
    }

    /// Random documents written as events: the stream's bytes are the tree builder's tree serialized.
    @Test func eventsMatchTheTreeBuilder() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var stream = JSONStream(reserve: 8)   // small, so that the buffer grows many times
            var tree = JSONTreeBuilder()
            Self.emit(&stream, &tree, &rng, depth: 0)
            #expect(stream.finish().data == ReferenceJSON.data(tree.result, pretty: false))
        }
    }

    static let keys: [StaticString] = ["distance", "name", "location", "annotation", "a", "geometry_index"]
    static let literals: [StaticString] = ["", "km/h", "moderate", "unknown"]

    /// Long strings (scanned a word at a time) with each escaped character at every position, and the literal names
    /// of the congestion classes.
    @Test func longStringsAndLiterals() {
        for special in ["\"", "\\", "\n", "\u{01}", "\u{1F}", "é", "東京"] {
            for length in [7, 8, 9, 15, 16, 17, 40] {
                for position in 0..<length {
                    var text = String(repeating: "a", count: length)
                    text.replaceSubrange(text.index(text.startIndex, offsetBy: position)...text.index(text.startIndex, offsetBy: position),
                                         with: special)
                    var stream = JSONStream(reserve: 8)
                    stream.string(text)
                    #expect(stream.finish().data == ReferenceJSON.data(.string(text), pretty: false), "\(text)")
                }
            }
        }
        for level in CongestionLevel.allCases { #expect(level.name.description == level.rawValue) }
    }

    /// One random value, written to both sinks.
    static func emit(_ stream: inout JSONStream, _ tree: inout JSONTreeBuilder, _ rng: inout SystemRandomNumberGenerator, depth: Int) {
        switch Int.random(in: 0...(depth > 3 ? 7 : 9), using: &rng) {
        case 0: stream.null(); tree.null()
        case 1: let b = Bool.random(using: &rng); stream.bool(b); tree.bool(b)
        case 2: let n = randomNumber(&rng); stream.number(n); tree.number(n)
        case 3:
            let n = randomNumber(&rng), d = Int.random(in: 0...6, using: &rng)
            stream.number(n, decimals: d); tree.number(n, decimals: d)
        case 4: let i = Int.random(in: -1_000_000...1_000_000, using: &rng); stream.integer(i); tree.integer(i)
        case 5:
            if Bool.random(using: &rng) {
                let s = randomString(&rng); stream.string(s); tree.string(s)
            } else {
                let s = literals[Int.random(in: 0..<literals.count, using: &rng)]; stream.string(literal: s); tree.string(literal: s)
            }
        case 6:
            let coords = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
                Coordinate(lat: Double.random(in: -90...90, using: &rng), lon: Double.random(in: -180...180, using: &rng))
            }
            let precision = Bool.random(using: &rng) ? 5 : 6, repeats = Int.random(in: 0...2, using: &rng)
            stream.polyline(coords[...], precision: precision, repeatLast: repeats)
            tree.polyline(coords[...], precision: precision, repeatLast: repeats)
        case 7: let t = randomTree(&rng, depth: depth + 2); stream.value(t); tree.value(t)
        case 8:
            stream.beginArray(); tree.beginArray()
            for _ in 0..<Int.random(in: 0...4, using: &rng) { emit(&stream, &tree, &rng, depth: depth + 1) }
            stream.endArray(); tree.endArray()
        default:
            stream.beginObject(); tree.beginObject()
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let key = keys[Int.random(in: 0..<keys.count, using: &rng)]
                stream.key(key); tree.key(key)
                emit(&stream, &tree, &rng, depth: depth + 1)
            }
            stream.endObject(); tree.endObject()
        }
    }

    /// Polylines with backslashes (the one character of the alphabet JSON escapes) and repeated last points.
    @Test func polylinesAreEscapedAsStrings() {
        var rng = SystemRandomNumberGenerator()
        var escaped = 0
        for _ in 0..<3000 {
            let coords = (0..<Int.random(in: 1...40, using: &rng)).map { _ in
                Coordinate(lat: Double.random(in: 45...46, using: &rng), lon: Double.random(in: 9...10, using: &rng))
            }
            let repeats = Int.random(in: 0...1, using: &rng)
            var stream = JSONStream(reserve: 16)
            stream.polyline(coords[...], precision: 6, repeatLast: repeats)
            let encoded = Polyline.encode(coords + Array(repeating: coords[coords.count - 1], count: repeats), precision: 6)
            #expect(Polyline.encode(coords[...], precision: 6, repeatLast: repeats) == encoded)
            #expect(stream.finish().data == ReferenceJSON.data(.string(encoded), pretty: false))
            if encoded.contains("\\") { escaped += 1 }
        }
        #expect(escaped > 100)
    }

    /// The per-thread reservation follows the documents written: up at once, down by an eighth at a time.
    @Test func bufferReservationFollowsTheLastDocuments() async {
        await Task.detached {
            let big = JSON.array(Array(repeating: .string(String(repeating: "x", count: 1000)), count: 100))
            _ = big.data(pretty: false)
            #expect(ResponseSizeHint.reserve >= 100_200)
            _ = JSON.null.data(pretty: false)
            #expect(ResponseSizeHint.reserve >= 87_000 && ResponseSizeHint.reserve < 100_200)
        }.value
    }

    /// A response made of a writer's bytes reads back as the same body; setting the body replaces them.
    @Test func responsesShareTheWritersBuffer() {
        var response = HTTPResponse.json(.object([("code", .string("Ok"))]))
        #expect(response.bytes != nil)
        #expect(response.body == Data(#"{"code":"Ok"}"#.utf8))
        response.body = Data("x".utf8)
        #expect(response.bytes == nil && response.body == Data("x".utf8))
        var empty = JSONStream(reserve: 1)
        #expect(empty.written == 0)
        empty.beginArray(); empty.endArray()
        #expect(empty.finish().data == Data("[]".utf8))
    }
}

extension JSON {
    fileprivate var numberValue: Double {
        if case .number(let n) = self { return n }
        return .nan
    }
}

/// The JSON serializer before `JSONStream` (`JSON.write` in JSONWriter.swift at aa76140) without its fast paths
/// (which wrote the same bytes): the reference the stream must match byte for byte.
enum ReferenceJSON {
    static func data(_ json: JSON, pretty: Bool) -> Data {
        var out: [UInt8] = []
        write(json, to: &out, pretty: pretty, indent: 0)
        if pretty { out.append(UInt8(ascii: "\n")) }
        return Data(out)
    }

    private static func write(_ json: JSON, to out: inout [UInt8], pretty: Bool, indent: Int) {
        switch json {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): format(n, into: &out)
        case .string(let s): quote(s, into: &out)
        case .array(let items):
            let inline = !pretty || items.allSatisfy(\.isScalar)
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 {
                    out.append(UInt8(ascii: ","))
                    if inline && pretty { out.append(UInt8(ascii: " ")) }
                }
                if !inline { newline(&out, indent + 1) }
                write(item, to: &out, pretty: pretty, indent: indent + 1)
            }
            if !inline && !items.isEmpty { newline(&out, indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { newline(&out, indent + 1) }
                quote(key, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                write(value, to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty && !members.isEmpty { newline(&out, indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout [UInt8], _ indent: Int) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

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
        out.append(contentsOf: String(value).utf8)
    }

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
        for byte in s.utf8 {
            switch byte {
            case 0x22: out.append(contentsOf: "\\\"".utf8)
            case 0x5C: out.append(contentsOf: "\\\\".utf8)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case ..<0x20: out.append(contentsOf: String(format: "\\u%04x", byte).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
