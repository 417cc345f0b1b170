import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import NavGraphServer
#if canImport(Glibc)
import Glibc
#endif

/// A raw HTTP/1.1 client over a blocking socket, so tests control every byte (garbage, slow and cut-off clients).
enum RawHTTP {
    /// A connected socket to 127.0.0.1:port with a receive timeout.
    static func connect(port: Int, timeoutSeconds: Int = 10) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw NavGraphError("socket() failed") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { close(fd); throw NavGraphError("connect to port \(port) failed") }
        return fd
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Reads until the peer closes (or the timeout), then parses status and body; nil when nothing came back.
    static func readResponse(_ fd: Int32) -> (status: Int, body: Data)? {
        readExchange(fd).map { ($0.status, $0.body) }
    }

    /// `readResponse` with the response's header lines (before the blank line) as well.
    static func readExchange(_ fd: Int32) -> (status: Int, head: String, body: Data)? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        guard let headerEnd = data.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: data[..<headerEnd.lowerBound], as: UTF8.self)
        let statusLine = head.split(separator: "\r\n").first.map(String.init) ?? ""
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        return (status, head, Data(data[headerEnd.upperBound...]))
    }

    /// One request on its own connection (Connection: close).
    static func request(port: Int, method: String = "GET", target: String, body: Data = Data()) throws -> (status: Int, body: Data) {
        let response = try exchange(port: port, method: method, target: target, body: body)
        return (response.status, response.body)
    }

    /// `request` with extra header lines (`Name: value`), answering the response's header lines too.
    static func exchange(port: Int, method: String = "GET", target: String, headers: [String] = [],
                         body: Data = Data()) throws -> (status: Int, head: String, body: Data) {
        let fd = try connect(port: port)
        defer { close(fd) }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        send(fd, Array((head + "\r\n").utf8) + Array(body))
        guard let response = readExchange(fd) else { throw NavGraphError("no HTTP response to \(method) \(target)") }
        return response
    }

    /// A GET whose body is a JSON object.
    static func json(port: Int, target: String) throws -> (status: Int, json: [String: Any]) {
        let (status, body) = try request(port: port, target: target)
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw NavGraphError("not a JSON object: \(String(decoding: body, as: UTF8.self).prefix(200))")
        }
        return (status, object)
    }
}

/// An in-process server on an ephemeral port for one test.
struct TestServer {
    let service: RoutingService
    let server: HTTPServer
    var port: Int { server.port }

    init(graph: RoutingGraph, threads: Int = 4, timeoutSeconds: Int = 15, limits: ServiceLimits = ServiceLimits()) throws {
        service = RoutingService(engine: RoutingEngine(graph: graph), limits: limits)
        var settings = HTTPServer.Settings()
        settings.port = 0
        settings.threads = threads
        settings.connectionTimeoutSeconds = timeoutSeconds
        settings.logRequests = false
        server = try HTTPServer(service: service, settings: settings)
    }

    func stop() { server.stop(drainSeconds: 2) }
}

/// `lon,lat` as the OSRM path writes it.
func osrmPoint(_ c: Coordinate) -> String { String(format: "%.6f,%.6f", c.lon, c.lat) }
