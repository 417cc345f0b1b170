import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// DIMACS challenge graphs: imported distances equal a node-based Dijkstra written here from the raw file.
@Suite struct DimacsTests {
    @Test func realRome99MatchesIndependentDijkstra() throws {
        let input = Fixtures.dataDirectory.appendingPathComponent("dimacs/rome99.gr").path
        let output = Fixtures.workDirectory.appendingPathComponent("rome99.navgraph").path
        try Importer.run(input: input, output: output, log: ProgressLog(quiet: true))
        let graph = try RoutingGraph(path: output)
        #expect(graph.metadata.profile == "dimacs")
        let router = Router(graph: graph)
        let query = NodeToNodeQuery(router: router)
        let metric = router.metric(avoid: [], mode: .strict, traffic: nil)

        // Independent adjacency straight from the text.
        var adjacency: [Int: [(Int, Int)]] = [:]
        var nodeCount = 0
        for line in try String(contentsOfFile: input, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.first == "p" { nodeCount = Int(parts[2]) ?? 0 }
            if parts.first == "a", let u = Int(parts[1]), let v = Int(parts[2]), let w = Int(parts[3]), u != v {
                adjacency[u, default: []].append((v, max(1, w)))
            }
        }
        func dijkstra(from source: Int) -> [Int: Int] {
            var distance = [source: 0]
            var queue = [(0, source)]
            while let (d, u) = queue.popLast() {
                if d > distance[u, default: .max] { continue }
                for (v, w) in adjacency[u, default: []] where d + w < distance[v, default: .max] {
                    distance[v] = d + w
                    queue.append((d + w, v))
                    queue.sort { $0.0 > $1.0 }
                }
            }
            return distance
        }
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<10 {
            let source = Int.random(in: 1...nodeCount, using: &generator)
            let reference = dijkstra(from: source)
            for _ in 0..<20 {
                let target = Int.random(in: 1...nodeCount, using: &generator)
                let cost = try query.cost(from: source - 1, to: target - 1, metric: metric, algorithm: .hierarchy)
                #expect(cost == reference[target], "rome99 \(source) -> \(target)")
            }
        }
    }

    @Test func malformedDimacsIsRefused() throws {
        let input = Fixtures.workDirectory.appendingPathComponent("bad.gr").path
        try "p sp 3 2\na 1 2 5\na 1 9 5\n".write(toFile: input, atomically: true, encoding: .utf8)
        let error = #expect(throws: NavGraphError.self) {
            try Importer.run(input: input, output: Fixtures.workDirectory.appendingPathComponent("bad.navgraph").path, log: ProgressLog(quiet: true))
        }
        #expect(error?.message.contains("bad.gr:3: node id out of range") == true)
    }
}
