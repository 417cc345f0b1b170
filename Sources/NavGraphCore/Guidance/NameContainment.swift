import Foundation

/// OSRM's notion of two names or refs being "the same" for announcements, on the graph's string table (ids and
/// UTF-8 bytes): a name is unchanged when one is the start of the other (so an unnamed piece of a named road, whose
/// empty name starts every name, changes nothing by itself), and a ref when one contains the other ("A5" in
/// "A5;A24") or one is missing. Ids are compared first; bytes only where they differ, and their answer is kept in a
/// direct-mapped table of `cacheSize` pairs (32 KB), so a pair of streets met again reads no string. One instance
/// serves one step builder's classifier (one thread).
final class NameContainment {
    package let graph: RoutingGraph
    /// Pairs already compared: the pair's key (`key`) with the answer in bit 63, 0 in an empty place.
    private let answers: UnsafeMutablePointer<UInt64>
    static let cacheSize = 4096
    private static let answerBit: UInt64 = 1 << 63
    private static let refTag: UInt64 = 1 << 62

    package init(graph: RoutingGraph) {
        self.graph = graph
        answers = zeroedMemory(count: Self.cacheSize)
    }

    deinit { free(answers) }

    /// The key of an unordered pair of string ids (both below 2^31), `refTag` set for refs; never 0 for a != b.
    @inline(__always) private static func key(_ a: UInt32, _ b: UInt32, refs: Bool) -> UInt64 {
        let low = min(a, b), high = max(a, b)
        return (UInt64(low & 0x7fff_ffff) << 31 | UInt64(high & 0x7fff_ffff)) | (refs ? refTag : 0)
    }

    /// The answer for a pair from the table, else `compute`d and kept.
    @inline(__always) private func remembered(_ a: UInt32, _ b: UInt32, refs: Bool, compute: () -> Bool) -> Bool {
        let key = Self.key(a, b, refs: refs)
        let place = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 52) & (Self.cacheSize - 1)
        let stored = answers[place]
        if stored & ~Self.answerBit == key { return stored & Self.answerBit != 0 }
        let answer = compute()
        answers[place] = key | (answer ? Self.answerBit : 0)
        return answer
    }

    /// The UTF-8 bytes of string `id` (empty for an id outside the table).
    @inline(__always) private func bytes(_ id: UInt32) -> UnsafeBufferPointer<UInt8> {
        let index = Int(id)
        guard index + 1 < graph.stringOffsets.count, let base = graph.stringBytes.baseAddress else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        let start = Int(graph.stringOffsets[index]), end = Int(graph.stringOffsets[index + 1])
        guard start <= end, end <= graph.stringBytes.count else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: base + start, count: end - start)
    }

    /// Whether one name starts with the other (byte-wise, as OSRM's `starts_with`); true when either is empty.
    func namesContained(_ a: UInt32, _ b: UInt32) -> Bool { contained(a, b, refs: false) }

    /// Whether one ref contains the other (byte-wise substring, as OSRM's `find`); true when either is empty.
    func refsContained(_ a: UInt32, _ b: UInt32) -> Bool { contained(a, b, refs: true) }

    /// `namesContained` or `refsContained`: ids first, then the table of pairs, then the bytes.
    @inline(__always) private func contained(_ a: UInt32, _ b: UInt32, refs: Bool) -> Bool {
        if a == b || a == 0 || b == 0 { return true }
        return remembered(a, b, refs: refs) {
            let x = self.bytes(a), y = self.bytes(b)
            let shorter = x.count <= y.count ? x : y, longer = x.count <= y.count ? y : x
            return refs ? Self.occurs(shorter, in: longer) : longer.starts(with: shorter)
        }
    }

    /// Whether `needle` occurs in `haystack` (the longer of the two).
    private static func occurs(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            var matched = true
            for offset in 1..<needle.count where haystack[start + offset] != needle[offset] {
                matched = false
                break
            }
            if matched { return true }
        }
        return false
    }
}
