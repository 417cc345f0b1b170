import Foundation
/// What `navgraph info` reports about a graph file.
public struct GraphSummary: Codable, Sendable {
    /// One file section and its size.
    public struct SectionSize: Codable, Sendable {
        public var name: String
        public var bytes: Int
    }
    public var file: String
    public var fileBytes: Int
    public var metadata: GraphMetadata
    public var kilometresByClass: [String: Double]
    public var tollKilometres: Double
    public var ferryKilometres: Double
    public var motorwayKilometres: Double
    public var onewayEdges: Int
    public var restrictionsStored: Int
    public var smallComponents: Int
    public var sections: [SectionSize]
    /// Kilometres of usable road per profile the file holds.
    public var profileKilometres: [String: Double]
    /// Ways with a localized street name of their own (`name:XX` differing from `name`) per language tag.
    public var localizedNameWays: [String: Int]

    public init(graph: RoutingGraph) {
        var byClass: [String: Double] = [:]
        var toll = 0.0, ferry = 0.0, motorway = 0.0
        var oneway = 0
        // Edges of the loaded profile (the road set also holds its other profiles' roads).
        for edge in 0..<graph.edgeCount where graph.edgeTimeForward[edge] != RoadNetwork.forbidden || graph.edgeTimeBackward[edge] != RoadNetwork.forbidden {
            let kilometres = graph.edgeLength[edge] / 1000
            let roadClass = graph.roadClass(edge: edge), flags = graph.flags(edge: edge)
            byClass[roadClass.osmName, default: 0] += kilometres
            if flags.contains(.toll) { toll += kilometres }
            if flags.contains(.ferry) { ferry += kilometres }
            if roadClass.isMotorway { motorway += kilometres }
            if flags.contains(.oneway) { oneway += 1 }
        }
        file = graph.file.path
        fileBytes = graph.file.fileSize
        metadata = graph.metadata
        kilometresByClass = byClass
        tollKilometres = toll
        ferryKilometres = ferry
        motorwayKilometres = motorway
        onewayEdges = oneway
        restrictionsStored = graph.restrictionCount
        smallComponents = max(0, graph.metadata.componentCount - 1)
        sections = graph.file.sectionOrder.map { SectionSize(name: $0.name, bytes: $0.length) }
        profileKilometres = ProfileUsage.all(file: graph.file, loaded: graph)
        var named: [String: Int] = [:]
        let width = graph.nameLanguages.count
        for (column, language) in graph.nameLanguages.enumerated() {
            named[language] = (0..<graph.nameWay.count).reduce(0) { $0 + (graph.nameLocal[$1 * width + column] != 0 ? 1 : 0) }
        }
        localizedNameWays = named
    }

    /// Human-readable report.
    public var text: String {
        let m = metadata
        var lines: [String] = []
        lines.append("file        \(file) (\(fileBytes) bytes, format v\(m.formatVersion), profile \(m.profile))")
        lines.append("source      \(m.source.name) (\(m.source.bytes) bytes, modified \(m.source.modified)); built \(m.createdAt)")
        lines.append("osm         \(m.report.osmNodes) nodes, \(m.report.osmWays) ways, \(m.report.osmRelations) relations; \(m.report.routableWays) car ways")
        lines.append("clipping    \(m.report.missingNodeRefs) missing node refs, \(m.report.waysCutAtMissingNodes) ways cut there")
        lines.append("graph       \(m.nodeCount) nodes, \(m.edgeCount) edges (\(onewayEdges) oneway), \(m.shapePointCount) shape points")
        lines.append("routing     \(m.routingNodeCount) routing nodes (directed edges and via-way copies), \(m.turnCount) turns, \(m.cchArcCount) hierarchy arcs")
        lines.append(String(format: "bbox        lat %.5f..%.5f, lon %.5f..%.5f", m.bbox.minLat, m.bbox.maxLat, m.bbox.minLon, m.bbox.maxLon))
        lines.append("components  largest \(m.componentSizes.first ?? 0) of \(m.routingNodeCount) routing nodes; \(smallComponents) small ones")
        let dropped = m.report.restrictionsDropped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        lines.append("restrictions \(m.report.restrictionsKept) kept (\(m.report.viaWayRestrictionsKept) via way); dropped: \(dropped.isEmpty ? "none" : dropped)")
        lines.append(String(format: "special km  toll %.1f, ferry %.1f, motorway %.1f", tollKilometres, ferryKilometres, motorwayKilometres))
        let profiles = ProfileID.allCases.compactMap { profile in
            profileKilometres[profile.rawValue].map { String(format: "%@ %.1f", profile.rawValue, $0) }
        }
        lines.append("profiles    km of usable road: " + profiles.joined(separator: ", "))
        let named = metadata.profiles == nil ? [] : LocalizedNames.languages.compactMap { language in localizedNameWays[language].map { "\(language) \($0)" } }
        lines.append("names       ways with a name:XX of their own: " + (named.isEmpty ? "none" : named.joined(separator: ", ")))
        lines.append("km by class")
        for roadClass in RoadClass.allCases {
            if let km = kilometresByClass[roadClass.osmName] { lines.append("  " + pad(roadClass.osmName, 16) + String(format: "%10.1f", km)) }
        }
        lines.append("sections")
        for section in sections { lines.append("  " + pad(section.name, 22) + String(format: "%12d bytes", section.bytes)) }
        return lines.joined(separator: "\n")
    }

    private func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0) }
}
