import Foundation

/// A JSON document written straight to UTF-8 bytes (`JSONSink`), compact, in a malloc'd buffer reserved from the size
/// of the documents this thread wrote before (`ResponseSizeHint`); `finish()` hands the buffer over without a copy.
/// Numbers and strings are written byte for byte as `JSON.data` writes the same values (it writes through this type).
package struct JSONStream: JSONSink, ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    /// Whether the next value or key follows a sibling (and so needs a comma).
    private var needsComma = false

    /// A stream with room for `reserve` bytes before it grows.
    package init(reserve: Int = ResponseSizeHint.reserve) {
        capacity = max(64, reserve)
        guard let memory = malloc(capacity) else { fatalError("JSONStream: out of memory for \(capacity) bytes") }
        base = memory.assumingMemoryBound(to: UInt8.self)
    }

    deinit { free(base) }

    /// The document's bytes; records its size as this thread's hint for the next document.
    package consuming func finish() -> WrittenBytes {
        ResponseSizeHint.record(count)
        let bytes = WrittenBytes(taking: UnsafeMutableRawPointer(base), count: count)
        discard self
        return bytes
    }

    /// Bytes written so far.
    package var written: Int { count }

    // MARK: Buffer

    @inline(__always)
    private mutating func ensure(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    @inline(never)
    private mutating func grow(_ needed: Int) {
        var next = capacity * 2
        while next < needed { next *= 2 }
        guard let memory = realloc(base, next) else { fatalError("JSONStream: out of memory for \(next) bytes") }
        base = memory.assumingMemoryBound(to: UInt8.self)
        capacity = next
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        ensure(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    private mutating func put(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        ensure(length)
        (base + count).update(from: text.utf8Start, count: length)
        count += length
    }

    @inline(__always)
    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        ensure(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    private mutating func separate() {
        if needsComma { put(UInt8(ascii: ",")) }
        needsComma = true
    }

    // MARK: Events

    @inline(__always)
    package mutating func beginObject() {
        separate()
        put(UInt8(ascii: "{"))
        needsComma = false
    }

    @inline(__always)
    package mutating func endObject() {
        put(UInt8(ascii: "}"))
        needsComma = true
    }

    @inline(__always)
    package mutating func beginArray() {
        separate()
        put(UInt8(ascii: "["))
        needsComma = false
    }

    @inline(__always)
    package mutating func endArray() {
        put(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Keys are the writers' own ASCII names: written between quotes as they are. Inlined, like the other events of
    /// constant text, so that the copy of a literal of known length is a few moves rather than a call to memmove.
    @inline(__always)
    package mutating func key(_ name: StaticString) {
        let length = name.utf8CodeUnitCount
        ensure(length + 4)
        if needsComma { base[count] = UInt8(ascii: ","); count += 1 }
        base[count] = UInt8(ascii: "\"")
        (base + count + 1).update(from: name.utf8Start, count: length)
        count += length + 1
        base[count] = UInt8(ascii: "\""); base[count + 1] = UInt8(ascii: ":")
        count += 2
        needsComma = false
    }

    package mutating func string(_ text: String) {
        separate()
        quote(text)
    }

    package mutating func string(utf8 text: UnsafeBufferPointer<UInt8>) {
        separate()
        quote(text)
    }

    @inline(__always)
    package mutating func string(literal text: StaticString) {
        separate()
        let length = text.utf8CodeUnitCount
        ensure(length + 2)
        base[count] = UInt8(ascii: "\"")
        (base + count + 1).update(from: text.utf8Start, count: length)
        base[count + 1 + length] = UInt8(ascii: "\"")
        count += length + 2
    }

    package mutating func number(_ value: Double) {
        separate()
        format(value)
    }

    package mutating func number(_ value: Double, decimals: Int) {
        separate()
        rounded(value, decimals: decimals)
    }

    package mutating func integer(_ value: Int) {
        separate()
        ensure(DecimalWriter.maxIntegerBytes + 1)
        if value < 0 { base[count] = UInt8(ascii: "-"); count += 1 }
        count += DecimalWriter.integer(UInt64(value.magnitude), to: base + count)
    }

    @inline(__always)
    package mutating func bool(_ value: Bool) {
        separate()
        put(value ? "true" : "false")
    }

    @inline(__always)
    package mutating func null() {
        separate()
        put("null")
    }

    package mutating func polyline(_ coordinates: ArraySlice<Coordinate>, precision: Int, repeatLast: Int) {
        separate()
        let most = (coordinates.count + max(0, repeatLast)) * Polyline.maxBytesPerCoordinate
        ensure(most + 2)
        base[count] = UInt8(ascii: "\"")
        let start = count + 1
        let length = Polyline.write(coordinates, precision: precision, repeatLast: repeatLast, to: base + start)
        count = start + length
        // The alphabet (63...126) holds one character JSON escapes, the backslash: doubled in place, from the back.
        var backslashes = 0
        for index in start..<count where base[index] == 0x5C { backslashes += 1 }
        if backslashes > 0 {
            ensure(backslashes + 1)
            var from = count - 1, to = count - 1 + backslashes
            while to > from {
                let byte = base[from]
                base[to] = byte
                to -= 1
                if byte == 0x5C { base[to] = byte; to -= 1 }
                from -= 1
            }
            count += backslashes
        }
        put(UInt8(ascii: "\""))
    }

    package mutating func value(_ json: JSON) {
        separate()
        tree(json, pretty: false, indent: 0)
    }

    // MARK: Trees

    /// A whole tree without the event state (no leading comma); `pretty` indents by two spaces and keeps scalar-only
    /// arrays on one line.
    package mutating func tree(_ json: JSON, pretty: Bool, indent: Int) {
        switch json {
        case .null: put("null")
        case .bool(let b): put(b ? "true" : "false")
        case .number(let n): format(n)
        case .string(let s): quote(s)
        case .array(let items):
            let inline = !pretty || items.allSatisfy(\.isScalar)
            put(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 {
                    put(UInt8(ascii: ","))
                    if inline && pretty { put(UInt8(ascii: " ")) }
                }
                if !inline { newline(indent + 1) }
                tree(item, pretty: pretty, indent: indent + 1)
            }
            if !inline && !items.isEmpty { newline(indent) }
            put(UInt8(ascii: "]"))
        case .object(let members):
            put(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { put(UInt8(ascii: ",")) }
                if pretty { newline(indent + 1) }
                quote(key)
                put(UInt8(ascii: ":"))
                if pretty { put(UInt8(ascii: " ")) }
                tree(value, pretty: pretty, indent: indent + 1)
            }
            if pretty && !members.isEmpty { newline(indent) }
            put(UInt8(ascii: "}"))
        }
    }

    /// A byte as it is (the pretty writer's final newline).
    package mutating func raw(_ byte: UInt8) { put(byte) }

    private mutating func newline(_ indent: Int) {
        ensure(1 + 2 * indent)
        base[count] = UInt8(ascii: "\n")
        (base + count + 1).initialize(repeating: UInt8(ascii: " "), count: 2 * indent)
        count += 1 + 2 * indent
    }

    // MARK: Scalars

    /// A quoted string: `"` `\` and control characters escaped (`\n`, `\r`, `\t`, else `\u00XX`), other UTF-8 as it is.
    /// The bytes are scanned eight at a time for the ones to escape; the runs between them are copied whole.
    private mutating func quote(_ text: String) {
        var text = text
        text.withUTF8 { quote($0) }
    }

    /// `quote` of a string's UTF-8 bytes.
    private mutating func quote(_ bytes: UnsafeBufferPointer<UInt8>) {
        ensure(bytes.count + 2)
        base[count] = UInt8(ascii: "\"")
        count += 1
        if let source = bytes.baseAddress {
            var runStart = 0
            while true {
                let index = Self.firstEscaped(source, from: runStart, end: bytes.count)
                put(UnsafeBufferPointer(start: source + runStart, count: index - runStart))
                guard index < bytes.count else { break }
                escape(source[index])
                runStart = index + 1
            }
        }
        put(UInt8(ascii: "\""))
    }

    /// The index of the first byte in `start..<end` that JSON escapes (`"`, `\`, below 0x20), or `end`.
    @inline(__always)
    private static func firstEscaped(_ bytes: UnsafePointer<UInt8>, from start: Int, end: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        // Per word: a byte equal to `"` or `\` leaves a zero byte after the XOR, and (w - 0x20…) & ~w sets a byte's
        // high bit only if some byte is below 0x20; either test is nonzero exactly when such a byte is in the word.
        while index + 8 <= end {
            let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
            let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
            let found = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
            if found & highs != 0 { break }
            index += 8
        }
        while index < end {
            let byte = bytes[index]
            if byte == 0x22 || byte == 0x5C || byte < 0x20 { return index }
            index += 1
        }
        return end
    }

    /// `\"`, `\\`, `\n`, `\r`, `\t` or `\u00XX`, written in place.
    private mutating func escape(_ byte: UInt8) {
        ensure(6)
        base[count] = UInt8(ascii: "\\")
        switch byte {
        case 0x22, 0x5C: base[count + 1] = byte
        case 0x0A: base[count + 1] = UInt8(ascii: "n")
        case 0x0D: base[count + 1] = UInt8(ascii: "r")
        case 0x09: base[count + 1] = UInt8(ascii: "t")
        default:
            let hex: StaticString = "0123456789abcdef"
            base[count + 1] = UInt8(ascii: "u"); base[count + 2] = UInt8(ascii: "0"); base[count + 3] = UInt8(ascii: "0")
            base[count + 4] = hex.utf8Start[Int(byte >> 4)]; base[count + 5] = hex.utf8Start[Int(byte & 0xF)]
            count += 6
            return
        }
        count += 2
    }

    /// 10^decimals for 0...6 decimals.
    @inline(__always)
    private static func power(_ decimals: Int) -> UInt64 {
        switch decimals {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1000
        case 4: 10_000
        case 5: 100_000
        default: 1_000_000
        }
    }

    /// `JSON.number(value, decimals:)` as `format` writes it, without making the rounded double's text: the magnitude
    /// rounded to an integer count of 10^-decimals, written as digits with trailing zeros dropped. Byte-identical to
    /// `format` where its shortest round-trip form is that plain decimal (0.001 <= |result| < 1e9 or zero, at most 6
    /// decimals; `JSONStreamTests` pins it); anything else goes through `format`.
    private mutating func rounded(_ value: Double, decimals: Int) {
        guard value.isFinite else { return put("null") }
        guard decimals >= 0, decimals <= 6, value.magnitude < 1e9 else {
            let scale = pow(10, Double(decimals))
            return format((value * scale).rounded() / scale)
        }
        let divisor = Self.power(decimals)
        let scaled = UInt64(HalfAwayRounding.rounded(value.magnitude * Double(divisor)))
        guard scaled == 0 || scaled * 1000 >= divisor else {
            let scale = Double(divisor)
            return format((value * scale).rounded() / scale)
        }
        let negative = value < 0 && scaled > 0
        // Measures (1 decimal) and positions (6) with their divisor a constant: no division instruction.
        switch decimals {
        case 1: fixedPoint(scaled, negative: negative, decimals: 1)
        case 6: fixedPoint(scaled, negative: negative, decimals: 6)
        default: fixedPoint(scaled, negative: negative, decimals: decimals)
        }
    }

    /// `scaled` × 10^-decimals: the integer part, then the fraction's digits with trailing zeros dropped.
    @inline(__always)
    private mutating func fixedPoint(_ scaled: UInt64, negative: Bool, decimals: Int) {
        ensure(DecimalWriter.maxIntegerBytes + 9)
        if negative { base[count] = UInt8(ascii: "-"); count += 1 }
        let divisor = Self.power(decimals)
        count += DecimalWriter.integer(scaled / divisor, to: base + count)
        var rest = scaled % divisor
        guard rest > 0 else { return }
        // Exactly `decimals` digits from the back (divisions by the constant 10), then the trailing zeros dropped.
        base[count] = UInt8(ascii: ".")
        var index = count + decimals
        while index > count {
            base[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            index -= 1
        }
        count += decimals + 1
        while base[count - 1] == UInt8(ascii: "0") { count -= 1 }
    }

    /// Integral values print without a fraction; others use Swift's shortest round-trip form (through `fewDecimals`
    /// for 1–3 decimals, which is byte-identical and makes no String).
    private mutating func format(_ n: Double) {
        guard n.isFinite else { return put("null") }
        ensure(DecimalWriter.maxIntegerBytes + 8)
        if n == n.rounded(), n.magnitude < 1e15 {
            let value = Int64(n)
            if value < 0 { base[count] = UInt8(ascii: "-"); count += 1 }
            count += DecimalWriter.integer(value.magnitude, to: base + count)
            return
        }
        if let (scaled, decimals) = JSON.fewDecimals(n) {
            if scaled < 0 { base[count] = UInt8(ascii: "-"); count += 1 }
            let divisor = Self.power(decimals)
            let magnitude = scaled.magnitude
            count += DecimalWriter.integer(magnitude / divisor, to: base + count)
            base[count] = UInt8(ascii: ".")
            count += 1
            var fraction = magnitude % divisor, digit = divisor / 10
            for _ in 0..<decimals {
                base[count] = UInt8(ascii: "0") + UInt8(fraction / digit)
                count += 1
                fraction %= digit
                digit /= 10
            }
            return
        }
        var text = n.description
        text.withUTF8 { put($0) }
    }
}

extension JSON {
    /// Whether the value is neither an array nor an object (pretty output keeps arrays of these on one line).
    package var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }
}
