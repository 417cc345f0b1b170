/// The `name:XX` street names of the guidance languages, kept per OSM way only where one is tagged and differs from
/// `name`: a sparse table of string ids into the road network's string table (graph sections `name.*`).
public struct LocalizedNames: Sendable {
    /// The languages kept, in column order: those with a phrasebook.
    public static let languages = Phrasebook.supportedLocales
    /// OSM ways that have a localized name, ascending once `sorted()`.
    public private(set) var ways = ContiguousArray<Int64>()
    /// `languages.count` string ids per way, in the order of `ways`; 0 where the way has no name of its own in that language.
    public private(set) var names = ContiguousArray<UInt32>()

    public init() {}

    /// The tag keys read, `name:XX` per language in column order.
    package static let keys = languages.map { "name:" + $0 }

    /// Each language's `name:XX` of a way, "" where untagged or the same as `name`; nil when every one is "".
    /// Allocates only for a way that has one (most ways have none).
    public static func read(tags: OSMTags) -> [String]? {
        var names: [String]?
        for (column, key) in keys.enumerated() {
            guard let tagged = tags[key] else { continue }
            let name = tagged.trimmingTagSpaces
            guard !name.isEmpty, name != tags["name"] ?? "" else { continue }
            if names == nil { names = Array(repeating: "", count: keys.count) }
            names?[column] = name
        }
        return names
    }

    /// Adds a way's names: the string ids of what `read` gave, one per language (missing ones are 0).
    public mutating func add(way: Int64, nameIDs: [UInt32]) {
        ways.append(way)
        for column in Self.languages.indices { names.append(column < nameIDs.count ? nameIDs[column] : 0) }
    }

    /// The table ordered by way (first entry kept for a way added twice), for the reader's binary search.
    public func sorted() -> LocalizedNames {
        let width = Self.languages.count
        var order = Array(ways.indices)
        order.sort { ways[$0] != ways[$1] ? ways[$0] < ways[$1] : $0 < $1 }
        var result = LocalizedNames()
        result.ways.reserveCapacity(ways.count)
        result.names.reserveCapacity(names.count)
        for index in order where result.ways.last != ways[index] {
            result.ways.append(ways[index])
            result.names.append(contentsOf: names[(index * width)..<((index + 1) * width)])
        }
        return result
    }
}
