/// Speech Synthesis Markup for announcements, in the form the Mapbox Directions API sends (`ssmlAnnouncement`).
enum SSML {
    /// `text` escaped and wrapped in `<speak><amazon:effect name="drc"><prosody rate="1.08">…`; each of `addresses`
    /// (street names) found in it is marked `<say-as interpret-as="address">` so that "St" reads as "Street".
    static func announcement(_ text: String, addresses: [String] = []) -> String {
        var body = escaped(text)
        var marked = Set<String>()
        for name in addresses.map(escaped).sorted(by: { $0.count > $1.count }) where !name.isEmpty && !marked.contains(name) {
            // Only names not inside one marked already (a longer name containing this one).
            guard !marked.contains(where: { $0.contains(name) }), let range = wordRange(of: name, in: body) else { continue }
            body.replaceSubrange(range, with: "<say-as interpret-as=\"address\">\(name)</say-as>")
            marked.insert(name)
        }
        return "<speak><amazon:effect name=\"drc\"><prosody rate=\"1.08\">\(body)</prosody></amazon:effect></speak>"
    }

    /// The first occurrence of `word` that starts after a space, "(" or the start and ends before a space, ",",
    /// ")" or the end: never inside an entity (`&amp;`) or a tag inserted before.
    static func wordRange(of word: String, in text: String) -> Range<String.Index>? {
        var from = text.startIndex
        while let range = text.range(of: word, range: from..<text.endIndex) {
            let before = range.lowerBound == text.startIndex ? " " : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? " " : text[range.upperBound]
            if (before == " " || before == "(") && (after == " " || after == "," || after == ")" || after == "." || after == "<") {
                return range
            }
            from = text.index(after: range.lowerBound)
        }
        return nil
    }

    /// XML text escaping of `& < > " '`.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(ch)
            }
        }
        return out
    }
}
