/// Road classes a request may avoid, in any combination.
public struct AvoidSet: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let toll = AvoidSet(rawValue: 1 << 0)
    public static let ferry = AvoidSet(rawValue: 1 << 1)
    /// motorway and motorway_link (OSRM's `motorway` class); `--avoid highway`.
    public static let highway = AvoidSet(rawValue: 1 << 2)
    /// trunk and trunk_link, added to highway by `--avoid-trunk`.
    public static let trunk = AvoidSet(rawValue: 1 << 3)

    public static let names: [(String, AvoidSet)] = [("toll", .toll), ("ferry", .ferry), ("highway", .highway), ("trunk", .trunk)]

    /// Parses a comma-separated list such as `toll,ferry`.
    public init(parsing list: String) throws {
        var set: AvoidSet = []
        for item in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !item.isEmpty {
            let name = item == "motorway" ? "highway" : item
            guard let match = AvoidSet.names.first(where: { $0.0 == name }) else {
                throw NavGraphError("--avoid: unknown class '\(item)' (use toll, ferry, highway, trunk)")
            }
            set.insert(match.1)
        }
        self = set
    }

    public var listed: [String] { AvoidSet.names.filter { contains($0.1) }.map(\.0) }

    /// Whether an edge with these attributes belongs to an avoided class.
    @inline(__always)
    public func matches(roadClass: RoadClass, flags: EdgeFlags) -> AvoidSet {
        var hit: AvoidSet = []
        if contains(.toll) && flags.contains(.toll) { hit.insert(.toll) }
        if contains(.ferry) && flags.contains(.ferry) { hit.insert(.ferry) }
        if contains(.highway) && roadClass.isMotorway { hit.insert(.highway) }
        if contains(.trunk) && roadClass.isTrunk { hit.insert(.trunk) }
        return hit
    }
}

/// How avoidance applies: strictly (avoided edges are removed) or as a preference (they cost more).
public enum AvoidMode: String, Sendable, CaseIterable {
    case strict
    case prefer

    /// In prefer mode an avoided edge costs this many times its travel time, plus the fixed penalty.
    public static let preferFactor: UInt32 = 5
    public static let preferPenaltyMilliseconds: UInt32 = 300_000
}
