import Foundation

/// Counts the importer reports about its input.
public struct ImportReport: Codable, Sendable {
    public var osmNodes: UInt64 = 0
    public var osmWays: UInt64 = 0
    public var osmRelations: UInt64 = 0
    public var routableWays = 0
    public var missingNodeRefs = 0
    public var waysCutAtMissingNodes = 0
    public var restrictionsKept = 0
    /// Of the kept restrictions, those with via ways (routed on copies of their via path).
    public var viaWayRestrictionsKept = 0
    public var restrictionsDropped: [String: Int] = [:]

    public init() {}
}

