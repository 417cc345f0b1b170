import Foundation

/// The `.traffic` file: a TrafficTable bound to the graph it was mapped onto, in the checksummed section format.
public enum TrafficFile {
    /// The `traffic.meta` section.
    struct Metadata: Codable {
        var graphCreatedAt: String
        var graphEdgeCount: Int
        package var slotKind: TrafficTable.SlotKind
        package var rowsRead: Int
        package var unknownPairs: Int
        package var source: String
    }

    public static func write(_ table: TrafficTable, graph: RoutingGraph, source: String, to path: String) throws {
        var writer = GraphFileWriter()
        let metadata = Metadata(graphCreatedAt: graph.metadata.createdAt, graphEdgeCount: graph.edgeCount, slotKind: table.slotKind,
                                rowsRead: table.rowsRead, unknownPairs: table.unknownPairs, source: source)
        writer.addData("traffic.meta", try JSONEncoder().encode(metadata))
        writer.add("traffic.key", table.segmentKey)
        writer.add("traffic.slot", table.slot)
        writer.add("traffic.factor", table.timeFactor)
        writer.add("traffic.congestion", table.congestion)
        try writer.write(to: path)
    }

    /// Loads a `.traffic` file, or reads a CSV directly when the path ends in `.csv`.
    public static func load(path: String, graph: RoutingGraph) throws -> TrafficTable {
        if path.hasSuffix(".csv") { return try TrafficCSVReader.read(path: path, graph: graph) }
        let file = try MappedGraphFile(path: path)
        let metadata: Metadata
        do {
            metadata = try JSONDecoder().decode(Metadata.self, from: Data(try file.bytes("traffic.meta")))
        } catch let error as NavGraphError {
            throw error
        } catch {
            throw NavGraphError("\(path): not a traffic file (\(error))")
        }
        guard metadata.graphCreatedAt == graph.metadata.createdAt, metadata.graphEdgeCount == graph.edgeCount else {
            throw NavGraphError("\(path): made for another graph (built \(metadata.graphCreatedAt)); re-run navgraph traffic on \(graph.file.path)")
        }
        var table = TrafficTable()
        table.segmentKey = ContiguousArray(try file.array("traffic.key", of: Int64.self))
        table.slot = ContiguousArray(try file.array("traffic.slot", of: Int16.self))
        table.timeFactor = ContiguousArray(try file.array("traffic.factor", of: Double.self))
        table.congestion = ContiguousArray(try file.array("traffic.congestion", of: UInt8.self))
        guard [table.slot.count, table.timeFactor.count, table.congestion.count].allSatisfy({ $0 == table.segmentKey.count }),
              table.segmentKey.allSatisfy({ $0 >= 0 && Int($0 >> 1) < graph.shapeOSMNode.count }) else {
            throw NavGraphError("\(path): inconsistent traffic sections")
        }
        table.slotKind = metadata.slotKind
        table.rowsRead = metadata.rowsRead
        table.unknownPairs = metadata.unknownPairs
        return table
    }
}
