import Foundation // memchr, memcmp

/// `SSML.announcement` over bytes: the sentence and the address names come from a `TextArena` and the markup is built
/// in the arena's `ssml` scratch buffer, handed on as bytes (`withAnnouncement`) or as one String.
extension SSML {
    private static let speakOpen = ContiguousArray("<speak><amazon:effect name=\"drc\"><prosody rate=\"1.08\">".utf8)
    private static let speakClose = ContiguousArray("</prosody></amazon:effect></speak>".utf8)
    private static let addressOpen = ContiguousArray("<say-as interpret-as=\"address\">".utf8)
    private static let addressClose = ContiguousArray("</say-as>".utf8)

    /// Up to three address names (escaped, non-empty), longest first and otherwise in their order, as arena ranges.
    package struct AddressNames {
        package private(set) var count = 0
        private var n0 = 0..<0, n1 = 0..<0, n2 = 0..<0

        package init() {}

        package subscript(i: Int) -> Range<Int> {
            get { i == 0 ? n0 : (i == 1 ? n1 : n2) }
            set { if i == 0 { n0 = newValue } else if i == 1 { n1 = newValue } else { n2 = newValue } }
        }

        /// Inserts `name` after the names at least as long (the order a stable sort by decreasing length gives).
        package mutating func insert(_ name: Range<Int>) {
            guard count < 3, !name.isEmpty else { return }
            var i = count
            while i > 0 && self[i - 1].count < name.count { self[i] = self[i - 1]; i -= 1 }
            self[i] = name
            count += 1
        }
    }

    /// Appends `escaped` of the arena's own `range` to it; returns the range of the copy.
    package static func appendEscaped(_ range: Range<Int>, in arena: TextArena) -> Range<Int> {
        // Most names have nothing to escape: copied whole.
        if !arena.bytes(range).contains(where: isSpecial) { return arena.appendCopy(range) }
        let start = arena.count
        var i = range.lowerBound
        while i < range.upperBound { escape(arena[i]) { arena.append($0) }; i += 1 }
        return start..<arena.count
    }

    @inline(__always) private static func isSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
        default: false
        }
    }

    @inline(__always) private static func escape(_ byte: UInt8, _ emit: (UInt8) -> Void) {
        switch byte {
        case UInt8(ascii: "&"): for b in "&amp;".utf8 { emit(b) }
        case UInt8(ascii: "<"): for b in "&lt;".utf8 { emit(b) }
        case UInt8(ascii: ">"): for b in "&gt;".utf8 { emit(b) }
        case UInt8(ascii: "\""): for b in "&quot;".utf8 { emit(b) }
        case UInt8(ascii: "'"): for b in "&apos;".utf8 { emit(b) }
        default: emit(byte)
        }
    }

    /// `announcement(sentence, addresses:)` for the sentence's UTF-8 and the addresses' escaped names in `arena`.
    package static func announcement(_ sentence: UnsafeBufferPointer<UInt8>, names: AddressNames, arena: TextArena) -> String {
        withAnnouncement(sentence, names: names, arena: arena) { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of `announcement(_:names:arena:)`, built in the arena's `ssml` scratch buffer and handed to `body`
    /// (valid only during the call).
    package static func withAnnouncement<R>(_ sentence: UnsafeBufferPointer<UInt8>, names: AddressNames, arena: TextArena,
                                            _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var markup = arena.ssml
        arena.ssml = []
        defer { arena.ssml = markup }
        markup.removeAll(keepingCapacity: true)
        markup.reserveCapacity(speakOpen.count + sentence.count + speakClose.count + 64)
        markup.append(contentsOf: speakOpen)
        let text = markup.count // the escaped sentence runs from here to the end until `speakClose` is appended
        if sentence.contains(where: isSpecial) {
            for byte in sentence { escape(byte) { markup.append($0) } }
        } else {
            markup.append(contentsOf: sentence)
        }
        var marked = 0 // bit k: names[k] was marked
        for k in 0..<names.count {
            let name = arena.bytes(names[k])
            // Names inside a longer one marked already are left alone.
            var inside = false
            for m in 0..<k where marked & (1 << m) != 0 && find(name, in: arena.bytes(names[m]), from: 0) != nil { inside = true }
            if inside { continue }
            guard let start = markup.withUnsafeBufferPointer({ wordStart(of: name, in: UnsafeBufferPointer(rebasing: $0[text...])) })
            else { continue }
            markup.insert(contentsOf: addressClose, at: text + start + name.count)
            markup.insert(contentsOf: addressOpen, at: text + start)
            marked |= 1 << k
        }
        markup.append(contentsOf: speakClose)
        return markup.withUnsafeBufferPointer { body($0) }
    }

    /// `wordStart(of:in:)` over buffers.
    static func wordStart(of word: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        var from = 0
        while let start = find(word, in: text, from: from) {
            let before = start == 0 ? UInt8(ascii: " ") : text[start - 1]
            let end = start + word.count
            let after = end == text.count ? UInt8(ascii: " ") : text[end]
            if before == UInt8(ascii: " ") || before == UInt8(ascii: "(") {
                switch after {
                case UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: ")"), UInt8(ascii: "<"): return start
                default: break
                }
            }
            from = start + 1
        }
        return nil
    }

    /// `find(_:in:from:)` over buffers.
    package static func find(_ word: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let wordStart = word.baseAddress, let textStart = text.baseAddress, !word.isEmpty, text.count >= word.count,
              from <= text.count - word.count else { return nil }
        let last = text.count - word.count
        var i = from
        // Candidates by `memchr` for the first byte, each compared whole by `memcmp`.
        while i <= last, let hit = memchr(textStart + i, Int32(word[0]), last - i + 1) {
            i = hit.assumingMemoryBound(to: UInt8.self) - UnsafeMutablePointer(mutating: textStart)
            if memcmp(textStart + i, wordStart, word.count) == 0 { return i }
            i += 1
        }
        return nil
    }
}
