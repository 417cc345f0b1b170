import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// The graph file round-trips, and damaged files are refused with a clear error.
@Suite struct GraphFileTests {
    func copyOfMonaco(_ name: String) throws -> String {
        let graph = try Fixtures.graph("monaco")
        let copy = Fixtures.workDirectory.appendingPathComponent(name).path
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: graph.file.path, toPath: copy)
        return copy
    }

    @Test func roundTrip() throws {
        let graph = try Fixtures.graph("monaco")
        let reopened = try RoutingGraph(path: try copyOfMonaco("roundtrip.navgraph"))
        #expect(reopened.metadata.edgeCount == graph.edgeCount)
        #expect(reopened.metadata.routingNodeCount == graph.routingNodeCount)
        #expect(Array(reopened.shapeLatE7) == Array(graph.shapeLatE7))
        #expect(Array(reopened.freeFlowMetric.forward) == Array(graph.freeFlowMetric.forward))
        #expect(reopened.metadata.source.name == "monaco.osm.pbf")
        #expect(reopened.metadata.profile == "car")
    }

    @Test func flippedByteIsRefused() throws {
        let path = try copyOfMonaco("flipped.navgraph")
        let file = try MappedGraphFile(path: path)
        let section = try #require(file.sections["shape.lat"])
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(section.offset + section.length / 2))
        let byte = try #require(try handle.read(upToCount: 1)).first ?? 0
        try handle.seek(toOffset: UInt64(section.offset + section.length / 2))
        try handle.write(contentsOf: Data([byte ^ 0x40]))
        try handle.close()
        let error = #expect(throws: NavGraphError.self) { try RoutingGraph(path: path) }
        #expect(error?.message.contains("checksum mismatch in section 'shape.lat'") == true)
    }

    @Test func truncatedFileIsRefused() throws {
        let path = try copyOfMonaco("truncated.navgraph")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size / 2)) == 0)
        let error = #expect(throws: NavGraphError.self) { try RoutingGraph(path: path) }
        #expect(error?.message.contains("truncated") == true)
        #expect(truncate(path, 10) == 0)
        #expect(throws: NavGraphError.self) { try RoutingGraph(path: path) }
    }

    @Test func wrongVersionIsRefused() throws {
        let path = try copyOfMonaco("version.navgraph")
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 8)
        try handle.write(contentsOf: Data([99, 0, 0, 0]))
        try handle.close()
        let error = #expect(throws: NavGraphError.self) { try RoutingGraph(path: path) }
        #expect(error?.message.contains("version 99") == true)
    }

    @Test func otherFilesAreRefused() throws {
        let path = Fixtures.workDirectory.appendingPathComponent("not-a-graph.navgraph").path
        try Data("hello, this is not a graph file at all".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: NavGraphError.self) { try RoutingGraph(path: path) }
        #expect(error?.message.contains("bad magic") == true)
    }
}
