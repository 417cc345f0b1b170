/// Speech Synthesis Markup for announcements, in the form the Mapbox Directions API sends (`ssmlAnnouncement`).
package enum SSML {
    /// `text` escaped and wrapped in `<speak><amazon:effect name="drc"><prosody rate="1.08">…`; each of `addresses`
    /// (street names) found in it is marked `<say-as interpret-as="address">` so that "St" reads as "Street".
    package static func announcement(_ text: String, addresses: [String] = []) -> String {
        var body = escaped(text)
        var marked: [[UInt8]] = []
        let names = addresses.filter { !$0.isEmpty }.map { Array(escaped($0).utf8) }.sorted { $0.count > $1.count }
        for name in names where !marked.contains(where: { find(name, in: $0, from: 0) != nil }) {
            // Names inside a longer one marked already are left alone.
            guard let start = wordStart(of: name, in: Array(body.utf8)) else { continue }
            var bytes = Array(body.utf8)
            bytes.replaceSubrange(start..<(start + name.count), with: Array("<say-as interpret-as=\"address\">".utf8) + name + Array("</say-as>".utf8))
            body = String(decoding: bytes, as: UTF8.self)
            marked.append(name)
        }
        return "<speak><amazon:effect name=\"drc\"><prosody rate=\"1.08\">\(body)</prosody></amazon:effect></speak>"
    }

    /// The byte offset of the first occurrence of `word` that starts after a space, "(" or the start and ends before
    /// a space, ",", ".", ")", "<" or the end: never inside an entity (`&amp;`) or a tag inserted before.
    static func wordStart(of word: [UInt8], in text: [UInt8]) -> Int? {
        var from = 0
        while let start = find(word, in: text, from: from) {
            let before = start == 0 ? UInt8(ascii: " ") : text[start - 1]
            let end = start + word.count
            let after = end == text.count ? UInt8(ascii: " ") : text[end]
            if (before == UInt8(ascii: " ") || before == UInt8(ascii: "("))
                && [UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: ")"), UInt8(ascii: "<")].contains(after) {
                return start
            }
            from = start + 1
        }
        return nil
    }

    /// The first offset at or after `from` where `word` occurs in `text`.
    package static func find(_ word: [UInt8], in text: [UInt8], from: Int) -> Int? {
        word.withUnsafeBufferPointer { word in text.withUnsafeBufferPointer { text in find(word, in: text, from: from) } }
    }

    /// XML text escaping of `& < > " '`.
    package static func escaped(_ text: String) -> String {
        // A switch, not a Set: hashing every byte of every announcement was a visible share of a steps request.
        func special(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
            default: false
            }
        }
        guard text.utf8.contains(where: special) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">"): out += Array("&gt;".utf8)
            case UInt8(ascii: "\""): out += Array("&quot;".utf8)
            case UInt8(ascii: "'"): out += Array("&apos;".utf8)
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
