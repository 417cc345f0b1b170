/// OSRM's notion of two names or refs being "the same" for announcements, on the graph's string table (ids and
/// UTF-8 bytes): a name is unchanged when one is the start of the other (so an unnamed piece of a named road, whose
/// empty name starts every name, changes nothing by itself), and a ref when one contains the other ("A5" in
/// "A5;A24") or one is missing. Ids are compared first; bytes only where they differ.
struct NameContainment {
    let graph: RoutingGraph

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
    func namesContained(_ a: UInt32, _ b: UInt32) -> Bool {
        if a == b || a == 0 || b == 0 { return true }
        let x = bytes(a), y = bytes(b)
        let shorter = x.count <= y.count ? x : y, longer = x.count <= y.count ? y : x
        return longer.starts(with: shorter)
    }

    /// Whether one ref contains the other (byte-wise substring, as OSRM's `find`); true when either is empty.
    func refsContained(_ a: UInt32, _ b: UInt32) -> Bool {
        if a == b || a == 0 || b == 0 { return true }
        let x = bytes(a), y = bytes(b)
        let needle = x.count <= y.count ? x : y, haystack = x.count <= y.count ? y : x
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
