import Foundation
import FuzzMain
import FuzzSupport
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// The HTTP server's request handling without sockets: the bytes are request lines (`METHOD TARGET`, one a line;
/// a line without a space is a GET of that target), each followed, for POST, by its body up to the next empty line.
/// Up to eight requests go through `RoutingService.handle` (percent-decoding and query splitting of `HTTPRequest`,
/// `OSRMURL`, the query options, every endpoint and the map page) of a fresh service on the crafted town, so a
/// POST /traffic affects the requests after it in the same input only.
///
/// Checked of every answer: an HTTP status, JSON bodies that parse, and no file from outside the map page's
/// directories (a secret file sits next to them).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let lines = Data(bytes: data, count: size).split(separator: 10, omittingEmptySubsequences: false)
    let service = RoutingService(engine: HTTPFuzz.engine, limits: HTTPFuzz.limits, mapPage: HTTPFuzz.mapPage)
    var index = 0, requests = 0
    while index < lines.count, requests < 8 {
        let line = String(decoding: lines[index], as: UTF8.self)
        index += 1
        guard !line.isEmpty else { continue }
        let method: String, target: String
        if let space = line.firstIndex(of: " ") {
            method = String(line[..<space])
            let rest = line[line.index(after: space)...]
            // An optional " HTTP/1.1" after the target, as on the wire.
            target = rest.range(of: " HTTP/").map { String(rest[..<$0.lowerBound]) } ?? String(rest)
        } else {
            method = "GET"; target = line
        }
        var body = Data()
        if method == "POST" {
            var bodyLines: [Data] = []
            while index < lines.count, !lines[index].isEmpty { bodyLines.append(Data(lines[index])); index += 1 }
            body = Data(bodyLines.joined(separator: [10]))
        }
        requests += 1
        let response = service.handle(HTTPRequest(method: method, target: target, body: body))
        HTTPFuzz.check(response, method, target)
        if HTTPFuzz.verbose {
            print(method, target, response.status, String(decoding: response.body.prefix(160), as: UTF8.self).replacingOccurrences(of: "\n", with: " "))
        }
    }
    return 0
}

/// The fuzzed service's engine, limits and map page, made once per process.
enum HTTPFuzz {
    static let engine = RoutingEngine(graph: FuzzSupport.graph, cacheCapacity: 4)
    /// NAVGRAPH_FUZZ_VERBOSE=1: print each request's status and the start of its body (to check seeds with -runs=0).
    static let verbose = ProcessInfo.processInfo.environment["NAVGRAPH_FUZZ_VERBOSE"] == "1"

    /// The server's defaults, with smaller lists so one input stays fast.
    static let limits: ServiceLimits = {
        var limits = ServiceLimits()
        limits.maximumCoordinates = 50
        limits.maximumTableSize = 50
        limits.maximumBodyBytes = 1 << 20
        limits.requestSeconds = 5
        return limits
    }()

    /// Bytes of a file beside (not inside) the page's directories: no request may ever get them.
    static let secret = "navgraph-fuzz secret: outside the served directories"

    /// A map page whose assets directory holds the two MapLibre files and one glyph range.
    static let mapPage: MapPage = {
        let root = URL(fileURLWithPath: FuzzSupport.directory).appendingPathComponent("page")
        let assets = root.appendingPathComponent("assets"), web = root.appendingPathComponent("web")
        let fonts = assets.appendingPathComponent("fonts/Noto Sans Regular")
        try? FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(at: web, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: assets.appendingPathComponent("maplibre-gl.js").path, contents: Data("// js\n".utf8))
        FileManager.default.createFile(atPath: assets.appendingPathComponent("maplibre-gl.css").path, contents: Data("/* css */\n".utf8))
        FileManager.default.createFile(atPath: fonts.appendingPathComponent("0-255.pbf").path, contents: Data([0x0a, 0x00]))
        FileManager.default.createFile(atPath: web.appendingPathComponent("index.html").path, contents: Data("<html></html>\n".utf8))
        FileManager.default.createFile(atPath: root.appendingPathComponent("secret.txt").path, contents: Data(secret.utf8))
        FileManager.default.createFile(atPath: assets.appendingPathComponent(".hidden").path, contents: Data(secret.utf8))
        return MapPage(graph: FuzzSupport.graph, assetsDirectory: assets, pageDirectory: web)
    }()

    /// What must hold of any answer; a violation traps (a finding).
    static func check(_ response: HTTPResponse, _ method: String, _ target: String) {
        precondition((200...599).contains(response.status), "status \(response.status) for \(method) \(target)")
        precondition(!response.contentType.isEmpty, "no content type for \(method) \(target)")
        precondition(response.body.range(of: Data(secret.utf8)) == nil, "\(method) \(target) served a file outside the page's directories")
        if response.contentType.hasPrefix("application/json") || response.contentType.hasPrefix("application/geo+json") {
            precondition((try? JSONSerialization.jsonObject(with: response.body)) != nil,
                         "\(method) \(target): \(response.status) body is not JSON: \(String(decoding: response.body.prefix(300), as: UTF8.self))")
        }
        if response.status >= 400, response.contentType.hasPrefix("application/json") {
            let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
            precondition(object?["code"] is String && object?["message"] is String, "\(method) \(target): error without code and message")
        }
    }
}
