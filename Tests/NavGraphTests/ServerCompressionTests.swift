import CMicroHTTPD
import Foundation
@testable import NavGraphCore
@testable import NavGraphServer
import Testing

/// gzip responses: a client that sends `Accept-Encoding: gzip` (as the navigation SDKs' HTTP stacks do) gets the same
/// body compressed, with `Content-Encoding: gzip` and `Vary: Accept-Encoding`; every other client gets it as it is.
@Suite struct ServerCompressionTests {
    /// The value of a header line in a response head (case-insensitive name), or nil.
    static func header(_ name: String, in head: String) -> String? {
        for line in head.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == name.lowercased() {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// A body with its response id blanked: each answer has its own `uuid`, the rest must match byte for byte.
    static func sameExceptID(_ a: Data, _ b: Data) -> Bool {
        func blanked(_ data: Data) -> String {
            String(decoding: data, as: UTF8.self).replacingOccurrences(of: #""uuid":"[^"]*""#, with: #""uuid":"""#,
                                                                       options: .regularExpression)
        }
        return a.count == b.count && blanked(a) == blanked(b)
    }

    /// `gzip -dc` of the bytes (the system's gzip, an implementation independent of ISA-L).
    static func gunzip(_ bytes: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = Thread { input.fileHandleForWriting.write(bytes); try? input.fileHandleForWriting.close() }
        writer.start()
        let result = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw NavGraphError("gzip -dc exited \(process.terminationStatus)") }
        return result
    }

    @Test func acceptEncodingValues() {
        let accepted = ["gzip", "gzip, deflate, br", "deflate, GZIP;q=0.5", "br;q=1.0, gzip", "x-gzip", " gzip ;q=1"]
        let refused = ["", "identity", "deflate, br", "gzip;q=0", "gzip ; q=0.000", "gzipx", "*"]
        for value in accepted { #expect(ngh_accepts_gzip(value) == 1, "\(value)") }
        for value in refused { #expect(ngh_accepts_gzip(value) == 0, "\(value)") }
        // An unreadable q counts as 1 (the coding is named; RFC 9110 gives it weight 1 by default).
        #expect(ngh_accepts_gzip("gzip;q=abc, br;q=0") == 1)
        #expect(ngh_accepts_gzip(nil) == 0)
    }

    @Test func gzipRoundTripsAndRefusesWhatWouldGrow() throws {
        let text = Data(String(repeating: "{\"distance\":12.5,\"name\":\"Avinguda Meritxell\"},", count: 200).utf8)
        var length = 0
        let packed = text.withUnsafeBytes { raw in ngh_gzip(raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count, &length) }
        let compressed = try #require(packed)
        defer { free(compressed) }
        #expect(length < text.count / 5)
        #expect(try Self.gunzip(Data(bytes: compressed, count: length)) == text)
        // Random bytes do not shrink: no compressed copy.
        var generator = SystemRandomNumberGenerator()
        let noise = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let none = noise.withUnsafeBytes { raw in ngh_gzip(raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count, &length) }
        #expect(none == nil)
    }

    @Test func routeBodiesAreCompressedOnlyWhenAsked() throws {
        let graph = try Fixtures.graph("andorra")
        let server = try TestServer(graph: graph)
        defer { server.stop() }
        let points = randomRoadPoints(graph, count: 6, seed: 5).map(ServerTests.asSent)
        var compressedSeen = 0
        for index in stride(from: 0, to: points.count, by: 2) {
            let target = "/route/v1/driving/\(osrmPoint(points[index]));\(osrmPoint(points[index + 1]))?steps=true&overview=full"
            let plain = try RawHTTP.exchange(port: server.port, target: target)
            let packed = try RawHTTP.exchange(port: server.port, target: target, headers: ["Accept-Encoding: gzip, deflate, br"])
            let refused = try RawHTTP.exchange(port: server.port, target: target, headers: ["Accept-Encoding: gzip;q=0, identity"])
            #expect(plain.status == packed.status && plain.status == refused.status)
            #expect(Self.header("Content-Encoding", in: plain.head) == nil)
            #expect(Self.header("Content-Encoding", in: refused.head) == nil)
            #expect(Self.sameExceptID(refused.body, plain.body))
            guard plain.body.count >= 1024 else { continue }
            #expect(Self.header("Vary", in: plain.head) == "Accept-Encoding")
            #expect(Self.header("Content-Encoding", in: packed.head) == "gzip")
            #expect(packed.body.count < plain.body.count / 3)
            #expect(Self.sameExceptID(try Self.gunzip(packed.body), plain.body))
            compressedSeen += 1
        }
        #expect(compressedSeen > 0)
        // A short answer (an error here) is sent as it is even when gzip is accepted.
        let small = try RawHTTP.exchange(port: server.port, target: "/route/v1/driving/x", headers: ["Accept-Encoding: gzip"])
        #expect(small.status == 400)
        #expect(Self.header("Content-Encoding", in: small.head) == nil)
        #expect(small.body.count < 1024)
    }
}
