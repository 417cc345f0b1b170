/// Small pure-Swift string helpers for the text layer (Foundation's NSString-bridged ones cost microseconds each
/// on Linux, and a route's narration calls them hundreds of times).
package enum TextPieces {
    /// `text` without leading and trailing spaces and tabs.
    package static func trimmed(_ text: String) -> String {
        // Nothing to trim when the first and last bytes are neither (a Character " " or "\t" is that one byte).
        if let head = text.utf8.first, let tail = text.utf8.last, head != 0x20 && head != 0x09 && tail != 0x20 && tail != 0x09 {
            return text
        }
        return trimmed(Substring(text))
    }

    /// `text` without leading and trailing spaces and tabs.
    package static func trimmed<S: StringProtocol>(_ text: S) -> String {
        guard let first = text.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = text.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(text[first...last])
    }

    /// The non-empty, trimmed parts of a ";"-separated OSM value.
    package static func list(_ value: String) -> [String] {
        guard !value.isEmpty else { return [] }
        // No ";" byte, so no ";" Character: one part, the whole value trimmed.
        if !value.utf8.contains(UInt8(ascii: ";")) {
            let part = trimmed(value)
            return part.isEmpty ? [] : [part]
        }
        return value.split(separator: ";").map(trimmed).filter { !$0.isEmpty }
    }

    /// `text` with runs of spaces collapsed and the ends trimmed.
    package static func collapsedSpaces(_ text: String) -> String {
        var doubled = false, previous: Character = " "
        for ch in text {
            if ch == " " && previous == " " { doubled = true; break }
            previous = ch
        }
        guard doubled || text.last == " " else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var previousSpace = true
        for ch in text {
            if ch == " " {
                if !previousSpace { out.append(ch) }
                previousSpace = true
            } else {
                out.append(ch); previousSpace = false
            }
        }
        if out.last == " " { out.removeLast() }
        return out
    }
}
