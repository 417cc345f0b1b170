import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import NavGraphServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `navgraph serve` against hostile clients on the crafted test town: slow and idle clients are dropped at the
/// connection timeout, a body announced and never sent holds neither a worker nor its connection, clients hanging
/// up mid-body or sending garbage leave the server answering, byte for byte, what the service answers in process.
/// Behaviour only: the throughput and memory figures are Benchmarks/server_hardening.sh's.
@Suite(.serialized) struct CraftedServerHardeningTests {
    static let timeout = 2
    /// libmicrohttpd checks idle connections about once a second and the request deadline every 200 ms.
    static let slack = 2.5
    static let route = "/route/v1/driving/6.998,45.0;7.002,45.0?steps=true&overview=full"

    static func graph() throws -> RoutingGraph {
        try CraftedOSM.testTown(restriction: nil).importGraph(named: "server-hardening")
    }

    /// Seconds until the server closes `fd` (reads and drops whatever it sends first), nil when still open after `limit`.
    static func secondsUntilClosed(_ fd: Int32, limit: Double) -> Double? {
        let start = Date()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date().timeIntervalSince(start) < limit {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { return Date().timeIntervalSince(start) }
        }
        return nil
    }

    /// A connection whose reads give up after `seconds` (so `secondsUntilClosed` polls).
    static func connect(_ port: Int, readTimeout seconds: Int = 1) throws -> Int32 {
        try RawHTTP.connect(port: port, timeoutSeconds: seconds)
    }

    /// The route answer over the socket must be the in-process service's, byte for byte but for the random uuid.
    static func expectCorrectAnswer(_ server: TestServer) throws {
        let response = try RawHTTP.request(port: server.port, target: route)
        let expected = server.service.handle(HTTPRequest(method: "GET", target: route))
        func withoutUUID(_ body: Data) -> String {
            String(decoding: body, as: UTF8.self).replacingOccurrences(of: #""uuid":"[0-9a-fA-F-]+""#, with: "", options: .regularExpression)
        }
        #expect(response.status == 200)
        #expect(expected.status == 200)
        #expect(withoutUUID(response.body) == withoutUUID(expected.body))
        #expect(withoutUUID(expected.body).contains("\"routes\":[{"))
    }

    @Test func idleAndSlowClientsAreDisconnectedAtTheTimeout() throws {
        let server = try TestServer(graph: Self.graph(), threads: 2, timeoutSeconds: Self.timeout)
        defer { server.stop() }
        let idle = try Self.connect(server.port)
        defer { close(idle) }
        // A slow client keeps sending one header byte every 300 ms, so it is never idle for libmicrohttpd.
        let slow = try Self.connect(server.port)
        defer { close(slow) }
        let slowRequest = Array("GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 100)
        let feeder = Thread {
            for byte in slowRequest {
                if Glibc.send(slow, [byte], 1, Int32(MSG_NOSIGNAL)) <= 0 { return }
                usleep(300_000)
            }
        }
        feeder.start()
        let limit = Double(Self.timeout) + Self.slack
        let idleClosed = Self.secondsUntilClosed(idle, limit: limit + 5)
        let slowClosed = Self.secondsUntilClosed(slow, limit: limit + 5)
        #expect(idleClosed.map { $0 <= limit } == true, "idle connection closed after \(idleClosed.map { "\($0) s" } ?? "never")")
        #expect(slowClosed.map { $0 <= limit } == true, "slow connection closed after \(slowClosed.map { "\($0) s" } ?? "never")")
        // Not before the timeout: the slow client's first bytes arrived well inside it.
        #expect(idleClosed.map { $0 >= Double(Self.timeout) - 1 } == true)
        try Self.expectCorrectAnswer(server)
    }

    @Test func aQuietHugeBodyBlocksNobodyAndIsDroppedAtTheTimeout() throws {
        // One worker thread: a connection waiting for its 100 MB body must not hold that thread.
        let server = try TestServer(graph: Self.graph(), threads: 1, timeoutSeconds: Self.timeout)
        defer { server.stop() }
        let start = Date()
        let quiet = try Self.connect(server.port)
        defer { close(quiet) }
        RawHTTP.send(quiet, Array("POST /traffic HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: 104857600\r\n\r\nedge,speed\n".utf8))
        for _ in 0..<10 { try Self.expectCorrectAnswer(server) }
        #expect(Date().timeIntervalSince(start) < Double(Self.timeout), "answers came while the body was still awaited")
        let closed = Self.secondsUntilClosed(quiet, limit: 10)
        let total = closed.map { _ in Date().timeIntervalSince(start) }
        #expect(total.map { $0 <= Double(Self.timeout) + Self.slack } == true, "quiet POST dropped after \(total.map { "\($0) s" } ?? "never")")
        try Self.expectCorrectAnswer(server)
    }

    @Test func clientsHangingUpMidBodyOrMidRequestLeaveTheServerAnswering() throws {
        let server = try TestServer(graph: Self.graph(), threads: 2, timeoutSeconds: Self.timeout)
        defer { server.stop() }
        let body = Array("edge,speed\n".utf8) + Array(repeating: Array("1,30\n".utf8), count: 2000).joined()
        for index in 0..<40 {
            let fd = try Self.connect(server.port)
            if index % 2 == 0 {
                RawHTTP.send(fd, Array("POST /traffic HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body.prefix(body.count / 2))
            } else {
                RawHTTP.send(fd, Array("GET \(Self.route) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            }
            close(fd)
        }
        for _ in 0..<10 { try Self.expectCorrectAnswer(server) }
        #expect(try RawHTTP.request(port: server.port, target: "/health").status == 200)
    }

    @Test func garbageLeavesTheServerAnsweringCorrectly() throws {
        let server = try TestServer(graph: Self.graph(), threads: 2, timeoutSeconds: Self.timeout)
        defer { server.stop() }
        var generator = SeededGenerator(seed: 41)
        var garbage: [[UInt8]] = (0..<5).map { _ in (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) } + Array("\r\n\r\n".utf8) }
        garbage.append(Array(("GET /route/v1/driving/" + String(repeating: "6.99,45.0;", count: 10_000) + " HTTP/1.1\r\nHost: x\r\n\r\n").utf8))
        garbage.append(Array("GET / HTTP/9.9\r\n\r\n".utf8))
        garbage.append(Array("\r\n\r\n\r\n".utf8))
        for bytes in garbage {
            let fd = try Self.connect(server.port, readTimeout: 5)
            RawHTTP.send(fd, bytes)
            let answer = RawHTTP.readResponse(fd)
            close(fd)
            // An error status or a closed connection, never a 2xx for garbage.
            #expect(answer.map { $0.status >= 400 } ?? true)
        }
        for _ in 0..<5 { try Self.expectCorrectAnswer(server) }
    }
}
