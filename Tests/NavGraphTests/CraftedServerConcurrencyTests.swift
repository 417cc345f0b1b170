import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// One RoutingService answering from several threads at once, as the socket server's workers call it: routes,
/// tables, nearest, health and metrics while traffic is posted. Small enough for the sanitizer tiers (the TSan tier
/// runs it to catch unsynchronized state, e.g. the router pool's count that /metrics reads).
@Suite struct CraftedServerConcurrencyTests {
    @Test func requestsOnFourThreadsAllSucceedAndAreCounted() throws {
        // The plus-shaped town (CraftedOSM.testTown): W (2) - 1 - E (3), N (4) and S (5) arms around junction 1.
        let graph = try CraftedOSM.testTown(restriction: nil).importGraph(named: "server-concurrency")
        let service = RoutingService(engine: RoutingEngine(graph: graph))
        let targets = [
            "/route/v1/driving/6.998,45.0;7.002,45.0?steps=true&alternatives=true",
            "/route/v1/driving/7.0,44.998;7.0,45.002?overview=full&annotations=true",
            "/table/v1/driving/6.998,45.0;7.002,45.0;7.0,45.002;7.0,44.998",
            "/nearest/v1/driving/7.001,45.0?number=2",
            "/health",
            "/metrics",
        ]
        final class Tally: @unchecked Sendable {
            let lock = NSLock()
            var answered = 0, failures: [String] = []
        }
        let tally = Tally()
        let rounds = 25
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for round in 0..<rounds {
                let request: HTTPRequest
                if worker == 0 && round % 5 == 4 {
                    // Traffic swaps while the others route: speeds on the W-E road, one value per swap.
                    request = HTTPRequest(method: "POST", target: "/traffic", body: Data("from_osm_id,to_osm_id,speed_kmh\n2,1,\(10 + round)\n1,3,\(10 + round)\n".utf8))
                } else {
                    request = HTTPRequest(method: "GET", target: targets[(worker + round) % targets.count])
                }
                let response = service.handle(request)
                tally.lock.withLock {
                    tally.answered += 1
                    if response.status != 200 {
                        tally.failures.append("\(request.method) \(request.target): \(response.status) \(String(decoding: response.body.prefix(200), as: UTF8.self))")
                    }
                }
            }
        }
        #expect(tally.failures.isEmpty, "\(tally.failures.prefix(3))")
        #expect(tally.answered == 4 * rounds)
        // Every request was counted once, under the endpoint its path names.
        let endpoints = ["route", "table", "nearest", "health", "metrics", "traffic"]
        let counted = endpoints.reduce(0) { $0 + service.metrics.count(endpoint: $1, status: 200) }
        #expect(counted == 4 * rounds)
        #expect(service.metrics.count(endpoint: "traffic", status: 200) == rounds / 5)
        // The pool made at most one router per thread that was in a request at the same time.
        let metrics = String(decoding: service.handle(HTTPRequest(method: "GET", target: "/metrics")).body, as: UTF8.self)
        let line = metrics.split(separator: "\n").first { $0.hasPrefix("navgraph_query_contexts ") } ?? ""
        let contexts = Double(line.split(separator: " ").last ?? "") ?? 0
        #expect(contexts >= 1 && contexts <= 4, "\(line)")
    }
}
