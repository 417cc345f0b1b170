import Foundation
import NavGraph
import Testing

/// Every crash input the fuzzers found (Tools/fuzz/regressions/TARGET) replayed through the same calls.
@Suite struct CraftedFuzzRegressionTests {
    static let directory = Fixtures.packageRoot.appendingPathComponent("Tools/fuzz/regressions")

    static func inputs(_ target: String) -> [String] {
        let folder = directory.appendingPathComponent(target).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { folder + "/" + $0 }
    }

    /// descending-grid-offsets: trapped the snapper, now refused on load. infinite-duration-behind-crc: travel
    /// times tampered behind the checksums; the checked load refuses it, the unchecked one routes without a memory error.
    @Test func graphFiles() throws {
        let inputs = Self.inputs("graph-file")
        #expect(inputs.count >= 2)
        for path in inputs {
            #expect(throws: NavGraphError.self, "\(path) loads with checksums on") { try RoutingGraph(path: path) }
            guard let graph = try? RoutingGraph(path: path, verifyChecksums: false) else { continue }
            let box = graph.metadata.bbox
            _ = GraphSummary(graph: graph).text
            _ = try? Router(graph: graph).route([Coordinate(lat: box.minLat, lon: box.minLon), Coordinate(lat: box.maxLat, lon: box.maxLon)])
        }
        let grid = try #require(inputs.first { $0.hasSuffix("descending-grid-offsets") })
        let error = #expect(throws: NavGraphError.self) { try RoutingGraph(path: grid, verifyChecksums: false) }
        #expect(error?.message.contains("inconsistent") == true, "\(error?.message ?? "")")
    }
}
