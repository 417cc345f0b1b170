import Foundation

/// The tags of one OSM object, read in place from the reader's tag blob (or from a literal): each key is hashed once,
/// and a lookup is a hash compare over the object's few tags, with a 64-bit filter that rejects most absent keys at
/// once. A value type; it keeps the bytes it reads alive. Where a key repeats, the last value counts (as it did when
/// tags were a dictionary filled in order).
public struct OSMTags: Sequence, ExpressibleByDictionaryLiteral {
    /// One tag: the hash of its key, where the key starts (from `base`), and the two lengths; the value starts
    /// one byte (the key's NUL) after the key.
    private struct Entry {
        var hash: UInt32
        var keyStart: UInt32
        var keyLength: UInt32
        var valueLength: UInt32
    }

    private let base: UnsafePointer<UInt8>
    private let owner: AnyObject?
    private var entries: ContiguousArray<Entry> = []
    /// Bit `hash % 64` set for each key present.
    private var filter: UInt64 = 0

    /// The tags in `blob[from..<to]`, NUL-terminated key and value strings one after the other; `owner` keeps the
    /// blob alive.
    package init(blob: UnsafePointer<CChar>, from: Int, to: Int, owner: AnyObject) {
        let start = UnsafeRawPointer(blob + from).assumingMemoryBound(to: UInt8.self)
        base = start
        self.owner = owner
        let length = to - from
        guard length > 0 else { return }
        entries.reserveCapacity(Swift.min(32, length / 8 + 1))
        var cursor = 0
        while cursor < length {
            var keyEnd = cursor
            while keyEnd < length && start[keyEnd] != 0 { keyEnd += 1 }
            let hash = Self.hash(start + cursor, count: keyEnd - cursor)
            let valueStart = keyEnd + 1
            var valueEnd = valueStart
            while valueEnd < length && start[valueEnd] != 0 { valueEnd += 1 }
            entries.append(Entry(hash: hash, keyStart: UInt32(cursor), keyLength: UInt32(keyEnd - cursor),
                                 valueLength: UInt32(Swift.max(0, valueEnd - valueStart))))
            filter |= 1 << UInt64(hash & 63)
            cursor = valueEnd + 1
        }
    }

    /// Tags from (key, value) pairs, for crafted input and tests.
    public init(_ pairs: [(String, String)]) {
        var bytes: [UInt8] = []
        for (key, value) in pairs {
            bytes.append(contentsOf: key.utf8); bytes.append(0)
            bytes.append(contentsOf: value.utf8); bytes.append(0)
        }
        let storage = OwnedBytes(bytes)
        self.init(blob: storage.pointer, from: 0, to: bytes.count, owner: storage)
    }

    /// Tags from a dictionary.
    public init(_ dictionary: [String: String]) {
        self.init(dictionary.map { ($0.key, $0.value) })
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The value of `key`, nil when the object does not have it.
    public subscript(key: String) -> String? {
        guard let entry = entry(key) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: base + Int(entry.keyStart + entry.keyLength + 1), count: Int(entry.valueLength)),
                      as: UTF8.self)
    }

    /// Whether the object has `key`.
    public func contains(_ key: String) -> Bool { entry(key) != nil }

    /// The keys, in the object's order.
    public var keys: [String] { entries.map { string(start: $0.keyStart, count: $0.keyLength) } }

    /// The number of tags.
    public var count: Int { entries.count }

    /// A value per direction from (key, forward key, backward key) forms, as OSRM reads them: for each form in turn
    /// its `:forward` / `:backward` key, then the plain key, until both directions have a value.
    public func perDirection(_ forms: [(String, String, String)]) -> (forward: String?, backward: String?) {
        var forward: String?, backward: String?
        for (key, forwardKey, backwardKey) in forms {
            forward = forward ?? self[forwardKey]
            backward = backward ?? self[backwardKey]
            if forward == nil || backward == nil {
                let common = self[key]
                forward = forward ?? common
                backward = backward ?? common
            }
            if forward != nil && backward != nil { break }
        }
        return (forward, backward)
    }

    /// The same tags without `removed` keys.
    public func removing(_ removed: [String]) -> OSMTags {
        var result = self
        let hashes = removed.map(Self.hash)
        result.entries = entries.filter { entry in
            !zip(hashes, removed).contains { hash, key in entry.hash == hash && matches(entry, key) }
        }
        result.filter = result.entries.reduce(0) { $0 | 1 << UInt64($1.hash & 63) }
        return result
    }

    public func makeIterator() -> AnyIterator<(key: String, value: String)> {
        var index = 0
        return AnyIterator {
            guard index < entries.count else { return nil }
            let entry = entries[index]
            index += 1
            return (string(start: entry.keyStart, count: entry.keyLength),
                    string(start: entry.keyStart + entry.keyLength + 1, count: entry.valueLength))
        }
    }

    private func entry(_ key: String) -> Entry? {
        let hash = Self.hash(key)
        guard filter & (1 << UInt64(hash & 63)) != 0 else { return nil }
        return entries.withUnsafeBufferPointer { entries in
            var index = entries.count - 1
            while index >= 0 {
                let entry = entries[index]
                if entry.hash == hash && matches(entry, key) { return entry }
                index -= 1
            }
            return nil
        }
    }

    private func matches(_ entry: Entry, _ key: String) -> Bool {
        Self.withUTF8(key) { bytes in
            guard bytes.count == Int(entry.keyLength) else { return false }
            guard let keyBytes = bytes.baseAddress else { return true }
            return memcmp(base + Int(entry.keyStart), keyBytes, bytes.count) == 0
        }
    }

    /// `body` on the key's UTF-8 bytes, in place where the string stores them contiguously (a native or literal
    /// string: no copy of the string, which the tag lookups of every way would otherwise retain and release).
    @inline(__always)
    private static func withUTF8<Result>(_ key: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = key.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = key
        return copy.withUTF8(body)
    }

    private func string(start: UInt32, count: UInt32) -> String {
        String(decoding: UnsafeBufferPointer(start: base + Int(start), count: Int(count)), as: UTF8.self)
    }

    /// A hash of the key's UTF-8 bytes from its length and its first and last eight bytes (keys are short, and a
    /// match is confirmed byte by byte).
    private static func hash(_ key: String) -> UInt32 {
        withUTF8(key) { bytes in
            guard let start = bytes.baseAddress else { return hash(nil, count: 0) }
            return hash(start, count: bytes.count)
        }
    }

    private static func hash(_ bytes: UnsafePointer<UInt8>?, count: Int) -> UInt32 {
        var mixed = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        if let bytes, count > 0 {
            let raw = UnsafeRawPointer(bytes)
            if count >= 8 {
                mixed ^= raw.loadUnaligned(as: UInt64.self)
                mixed = (mixed ^ (mixed >> 31)) &* 0xBF58_476D_1CE4_E5B9
                mixed ^= raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            } else {
                var word: UInt64 = 0
                for index in 0..<count { word |= UInt64(bytes[index]) << UInt64(8 * index) }
                mixed ^= word
            }
        }
        mixed = (mixed ^ (mixed >> 29)) &* 0x94D0_49BB_1331_11EB
        return UInt32(truncatingIfNeeded: mixed >> 32)
    }
}

/// Bytes owned by literal-built tags.
private final class OwnedBytes {
    package let pointer: UnsafeMutablePointer<CChar>
    package init(_ bytes: [UInt8]) {
        pointer = .allocate(capacity: max(1, bytes.count))
        bytes.withUnsafeBufferPointer { buffer in
            if let source = buffer.baseAddress { UnsafeMutableRawPointer(pointer).copyMemory(from: source, byteCount: buffer.count) }
        }
    }
    deinit { pointer.deallocate() }
}

extension String {
    /// The value without leading and trailing whitespace (Foundation's `.whitespaces`); the string itself, not a
    /// copy, when its ends are not whitespace, as with most tag values.
    var trimmingTagSpaces: String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return self }
        if !CharacterSet.whitespaces.contains(first) && !CharacterSet.whitespaces.contains(last) { return self }
        return trimmingCharacters(in: .whitespaces)
    }
}
