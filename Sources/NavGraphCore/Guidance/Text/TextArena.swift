import Foundation // pthread thread-local storage, memcmp

/// Growable scratch UTF-8 bytes that one narrator call writes its phrases into; reused per thread (`take`/`give`).
///
/// Phrases are kept as ranges of this buffer, so building a sentence from its parts appends bytes instead of making
/// Strings. A thread's arena is taken out of thread-local storage for the length of one call and given back after,
/// so a nested call (or another narrator on the same thread) simply gets a fresh one. Never shared between threads.
package final class TextArena {
    // No dynamic exclusivity checks on these (each access of a class's stored property otherwise pays one, about
    // 2 % of an SDK request): an arena belongs to one thread and one narrator call at a time (`take`/`give`).
    @exclusivity(unchecked) package private(set) var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) package private(set) var capacity: Int
    @exclusivity(unchecked) package private(set) var count = 0
    /// Second scratch buffer: the SSML body of one announcement.
    @exclusivity(unchecked) package var ssml = ContiguousArray<UInt8>()

    /// Arenas that grew past this many bytes are not kept for the thread (one pathological route does not pin memory).
    static let keptCapacity = 1 << 18

    package init(capacity: Int = 4096) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The calling thread's arena (emptied), or a new one when the thread has none or its arena is in use.
    package static func take() -> TextArena {
        if let raw = pthread_getspecific(threadKey.key) {
            pthread_setspecific(threadKey.key, nil)
            let arena = Unmanaged<TextArena>.fromOpaque(raw).takeRetainedValue()
            arena.count = 0
            return arena
        }
        return TextArena()
    }

    /// Hands `arena` back to the calling thread for its next call.
    package static func give(_ arena: TextArena) {
        guard arena.capacity <= keptCapacity, pthread_getspecific(threadKey.key) == nil else { return }
        arena.count = 0
        arena.ssml.removeAll(keepingCapacity: arena.ssml.capacity <= keptCapacity)
        pthread_setspecific(threadKey.key, Unmanaged.passRetained(arena).toOpaque())
    }

    /// The byte at `index` (within `0..<count`).
    @inline(__always) package subscript(index: Int) -> UInt8 { base[index] }

    /// The bytes of `range` (valid until the next append).
    @inline(__always) package func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    /// Room for `extra` more bytes.
    @inline(__always) package func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Drops everything from `offset` on.
    @inline(__always) package func truncate(to offset: Int) { count = min(count, max(0, offset)) }

    /// Overwrites the byte at `index`.
    @inline(__always) package func set(_ index: Int, _ byte: UInt8) { base[index] = byte }

    @inline(__always) package func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends `source`; returns where it landed.
    @discardableResult @inline(__always)
    package func append(_ source: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let start = count
        guard let from = source.baseAddress, source.count > 0 else { return start..<start }
        reserve(source.count)
        (base + count).update(from: from, count: source.count)
        count += source.count
        return start..<count
    }

    /// Appends a compiled phrasebook value; returns where it landed.
    @discardableResult @inline(__always)
    package func append(_ source: ContiguousArray<UInt8>) -> Range<Int> {
        source.withUnsafeBufferPointer { append($0) }
    }

    /// Appends the UTF-8 of `text`; returns where it landed.
    @discardableResult
    package func append(_ text: String) -> Range<Int> {
        var text = text
        return text.withUTF8 { append($0) }
    }

    /// Appends a copy of this arena's own `range`; returns where the copy landed.
    @discardableResult @inline(__always)
    func appendCopy(_ range: Range<Int>) -> Range<Int> {
        let start = count
        guard !range.isEmpty else { return start..<start }
        reserve(range.count) // may move the storage: read from `base` only afterwards
        (base + count).update(from: base + range.lowerBound, count: range.count)
        count += range.count
        return start..<count
    }

    /// Replaces the bytes from `offset` to the end with `text`'s (used by the exact, rare String fallbacks).
    func replaceTail(from offset: Int, with text: String) -> Range<Int> {
        truncate(to: offset)
        return append(text)
    }

    /// The bytes of `range` as a String.
    package func string(_ range: Range<Int>) -> String {
        String(decoding: bytes(range), as: UTF8.self)
    }

    /// Whether the bytes of two ranges are equal.
    package func equal(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && (a.isEmpty || memcmp(base + a.lowerBound, base + b.lowerBound, a.count) == 0)
    }

    /// Whether every byte of `range` is ASCII.
    package func isASCII(_ range: Range<Int>) -> Bool {
        var i = range.lowerBound
        while i < range.upperBound { if base[i] >= 0x80 { return false }; i += 1 }
        return true
    }
}

/// The thread-local storage key of the per-thread `TextArena` (released when the thread exits).
private final class ArenaKey: @unchecked Sendable {
    var key = pthread_key_t()
    init() {
        #if canImport(Darwin)
        pthread_key_create(&key) { Unmanaged<TextArena>.fromOpaque($0).release() }
        #else
        pthread_key_create(&key) { raw in if let raw { Unmanaged<TextArena>.fromOpaque(raw).release() } }
        #endif
    }
}

private let threadKey = ArenaKey()
