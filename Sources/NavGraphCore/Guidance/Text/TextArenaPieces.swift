/// `TextPieces.trimmed` and `TextPieces.list` written straight into a `TextArena`: bytewise where that is exactly
/// the Character-wise answer (every space, tab or ";" cut next to ASCII bytes), through the String functions
/// otherwise (a cut next to a combining mark or prepended letter).
extension TextArena {
    /// Appends `TextPieces.trimmed(text)`; returns its range.
    package func appendTrimmed(_ text: String) -> Range<Int> {
        var text = text
        let exact: Range<Int>? = text.withUTF8 { b in
            let n = b.count
            var s = 0, e = n
            while s < e && (b[s] == 0x20 || b[s] == 0x09) { s += 1 }
            while e > s && (b[e - 1] == 0x20 || b[e - 1] == 0x09) { e -= 1 }
            if (s > 0 && s < e && b[s] >= 0x80) || (e < n && e > s && b[e - 1] >= 0x80) { return nil }
            return append(UnsafeBufferPointer(rebasing: b[s..<e]))
        }
        return exact ?? append(TextPieces.trimmed(text))
    }

    /// Appends the first `limit` parts of `TextPieces.list(value)` joined by `separator`; returns the range.
    package func appendList(_ value: String, separator: String, limit: Int = .max) -> Range<Int> {
        let start = count
        guard !value.isEmpty, limit > 0 else { return start..<start }
        var value = value, separator = separator
        let exact: Bool = value.withUTF8 { b in
            separator.withUTF8 { sep in
                let n = b.count
                var i = 0
                while i < n {
                    if b[i] == 0x3B && ((i > 0 && b[i - 1] >= 0x80) || (i + 1 < n && b[i + 1] >= 0x80)) { return false }
                    i += 1
                }
                var parts = 0, from = 0
                while from <= n && parts < limit {
                    var to = from
                    while to < n && b[to] != 0x3B { to += 1 }
                    var s = from, e = to
                    while s < e && (b[s] == 0x20 || b[s] == 0x09) { s += 1 }
                    while e > s && (b[e - 1] == 0x20 || b[e - 1] == 0x09) { e -= 1 }
                    if (s > from && s < e && b[s] >= 0x80) || (e < to && e > s && b[e - 1] >= 0x80) { return false }
                    if s < e {
                        if parts > 0 { append(sep) }
                        append(UnsafeBufferPointer(rebasing: b[s..<e]))
                        parts += 1
                    }
                    from = to + 1
                }
                return true
            }
        }
        if exact { return start..<count }
        truncate(to: start)
        return append(TextPieces.list(value).prefix(limit).joined(separator: separator))
    }

    /// Whether two ranges hold equal Strings (String `==`: canonical equivalence, so bytewise only for ASCII).
    package func sameText(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        if equal(a, b) { return true }
        if isASCII(a) && isASCII(b) { return false }
        return string(a) == string(b)
    }

    /// `PhrasebookNarrator.capitalized` of the bytes of `range`, as a String (the arena is left as it is). Bytewise
    /// when the first Character is one ASCII byte (the next byte is ASCII too); through the String function otherwise.
    package func capitalizedString(_ range: Range<Int>) -> String {
        guard !range.isEmpty else { return "" }
        let first = self[range.lowerBound]
        guard first < 0x80 && (range.count == 1 || self[range.lowerBound + 1] < 0x80) else {
            return PhrasebookNarrator.capitalized(string(range))
        }
        guard first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") else { return string(range) }
        let source = bytes(range)
        return String(unsafeUninitializedCapacity: range.count) { out in
            guard let to = out.baseAddress, let from = source.baseAddress else { return 0 }
            to.update(from: from, count: source.count)
            to[0] = first - 0x20
            return source.count
        }
    }

    /// `capitalizedString(range)` in the arena: `range` itself when its first letter is not a lower-case ASCII one,
    /// else a copy with it upper-cased (a first Character that is not one ASCII byte goes through the String function).
    package func appendCapitalized(_ range: Range<Int>) -> Range<Int> {
        guard !range.isEmpty else { return range }
        let first = self[range.lowerBound]
        guard first < 0x80 && (range.count == 1 || self[range.lowerBound + 1] < 0x80) else {
            return append(PhrasebookNarrator.capitalized(string(range)))
        }
        guard first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") else { return range }
        let copy = appendCopy(range)
        set(copy.lowerBound, first - 0x20)
        return copy
    }
}
