/// A phrasebook template compiled once: literal UTF-8 runs and slot numbers, filled by appending bytes.
///
/// Filling gives the bytes `PhrasebookNarrator.fill` gives for the same template and values: the template is parsed
/// here exactly as `fill` parses it (a `{key}` not among the slot keys, or a `{` without `}`, stays literal text),
/// the spaces inside each literal run are collapsed now, and at fill time spaces are looked at only where a run
/// meets a value, at the ends, and inside the values.
package struct CompiledTemplate: Sendable {
    /// One run: a literal `bytes[start..<end]` when `slot < 0`, else the value of slot `slot`.
    struct Piece: Sendable {
        package let start: Int32, end: Int32, slot: Int32
        /// For a literal: it begins or ends with two or more spaces (left as they are, for the fill to collapse).
        let doubleSpaceAtEdge: Bool
    }

    package let bytes: ContiguousArray<UInt8>
    let pieces: ContiguousArray<Piece>
    /// Bit `1 << slot` for each slot the template uses.
    package let usedSlots: UInt32
    /// The template as written in the phrasebook.
    package let source: String

    /// Compiles `template` for the slot names `keys` (slot number = index in `keys`).
    package init(_ template: String, keys: [String]) {
        var bytes = ContiguousArray<UInt8>(), pieces = ContiguousArray<Piece>(), used: UInt32 = 0
        var literal = ""
        func flush() {
            guard !literal.isEmpty else { return }
            let (text, edge) = Self.collapsedInside(literal)
            let start = Int32(bytes.count)
            bytes.append(contentsOf: text.utf8)
            pieces.append(Piece(start: start, end: Int32(bytes.count), slot: -1, doubleSpaceAtEdge: edge))
            literal = ""
        }
        // The parse of PhrasebookNarrator.fill, over Characters.
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                literal += rest[open...]; rest = rest[rest.endIndex...]; break
            }
            let key = String(rest[rest.index(after: open)..<close])
            if let slot = keys.firstIndex(where: { $0 == key }) {
                flush()
                pieces.append(Piece(start: 0, end: 0, slot: Int32(slot), doubleSpaceAtEdge: false))
                used |= 1 << UInt32(slot)
            } else {
                literal += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        flush()
        self.bytes = bytes; self.pieces = pieces; usedSlots = used; source = template
    }

    /// Whether the template uses slot `slot`.
    @inline(__always) package func uses(_ slot: Int) -> Bool { usedSlots & (1 << UInt32(slot)) != 0 }

    /// `literal` with the runs of spaces between its first and last non-space byte collapsed as
    /// `TextPieces.collapsedSpaces` would collapse them in any surrounding text (grapheme clusters cannot reach
    /// inside the run from outside it), its leading and trailing spaces kept; and whether those edges hold two or
    /// more spaces.
    private static func collapsedInside(_ literal: String) -> (String, Bool) {
        let utf8 = Array(literal.utf8)
        guard let first = utf8.firstIndex(where: { $0 != 0x20 }), let last = utf8.lastIndex(where: { $0 != 0x20 }) else {
            return (literal, utf8.count >= 2)
        }
        let inside = String(decoding: utf8[first...last], as: UTF8.self)
        let collapsed = TextPieces.collapsedSpaces(inside)
        let lead = String(decoding: utf8[..<first], as: UTF8.self), trail = String(decoding: utf8[(last + 1)...], as: UTF8.self)
        return (lead + collapsed + trail, first >= 2 || utf8.count - 1 - last >= 2)
    }
}

/// The values of one fill: arena ranges by slot number (at most eight slots).
package struct SlotValues {
    package var v0 = 0..<0, v1 = 0..<0, v2 = 0..<0, v3 = 0..<0, v4 = 0..<0, v5 = 0..<0, v6 = 0..<0, v7 = 0..<0

    package init() {}

    package subscript(slot: Int) -> Range<Int> {
        get {
            switch slot {
            case 0: v0
            case 1: v1
            case 2: v2
            case 3: v3
            case 4: v4
            case 5: v5
            case 6: v6
            default: v7
            }
        }
        set {
            switch slot {
            case 0: v0 = newValue
            case 1: v1 = newValue
            case 2: v2 = newValue
            case 3: v3 = newValue
            case 4: v4 = newValue
            case 5: v5 = newValue
            case 6: v6 = newValue
            default: v7 = newValue
            }
        }
    }
}

extension TextArena {
    /// Appends `template` filled with `values`, spaces collapsed as `PhrasebookNarrator.fill` collapses them;
    /// returns the range of the result.
    package func fill(_ template: CompiledTemplate, _ values: SlotValues) -> Range<Int> {
        let start = count
        var collapse = false
        template.bytes.withUnsafeBufferPointer { literals in
            for piece in template.pieces {
                let from = count
                if piece.slot < 0 {
                    append(UnsafeBufferPointer(rebasing: literals[Int(piece.start)..<Int(piece.end)]))
                    if piece.doubleSpaceAtEdge { collapse = true }
                } else {
                    let value = values[Int(piece.slot)]
                    appendCopy(value)
                    if !collapse && hasDoubleSpace(from..<count) { collapse = true }
                }
                // A space where the text starts or right after another space: at a run's boundary.
                if !collapse && count > from && self[from] == 0x20 && (from == start || self[from - 1] == 0x20) { collapse = true }
            }
        }
        if count > start && self[count - 1] == 0x20 { collapse = true }
        if collapse { collapseSpaces(from: start) }
        return start..<count
    }

    /// Whether two spaces follow each other in `range`.
    @inline(__always) func hasDoubleSpace(_ range: Range<Int>) -> Bool {
        var i = range.lowerBound + 1
        while i < range.upperBound {
            if self[i] == 0x20 && self[i - 1] == 0x20 { return true }
            i += 1
        }
        return false
    }

    /// `TextPieces.collapsedSpaces` on the bytes from `start` to the end, in place. Bytewise when every space in
    /// them stands between ASCII bytes (then each space is a Character of its own); otherwise through the String
    /// function itself, as a space next to a combining mark or prepended letter may belong to a larger Character.
    func collapseSpaces(from start: Int) {
        var i = start
        while i < count {
            if self[i] == 0x20 && ((i > start && self[i - 1] >= 0x80) || (i + 1 < count && self[i + 1] >= 0x80)) {
                let text = TextPieces.collapsedSpaces(string(start..<count))
                _ = replaceTail(from: start, with: text)
                return
            }
            i += 1
        }
        var write = start, previousSpace = true
        i = start
        while i < count {
            let byte = self[i]
            if byte == 0x20 {
                if !previousSpace { set(write, byte); write += 1 }
                previousSpace = true
            } else {
                set(write, byte); write += 1; previousSpace = false
            }
            i += 1
        }
        if write > start && self[write - 1] == 0x20 { write -= 1 }
        truncate(to: write)
    }
}
