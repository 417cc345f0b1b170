import CMicroHTTPD
import Foundation
import NavGraphCore

/// An HTTP server on libmicrohttpd's thread pool (epoll per thread) that hands each complete request to a
/// `RoutingService` and logs one line per request on stderr.
///
/// Lifetime: from `init` (listening) to `stop` (drained). Thread safety: libmicrohttpd calls the service from its
/// worker threads; `stop` must be called once, from one thread.
public final class HTTPServer: @unchecked Sendable {
    public let service: RoutingService
    /// The port actually bound (useful with port 0).
    public let port: Int
    package let logRequests: Bool
    private var daemon: OpaquePointer?

    /// Connection settings; the defaults bound header size, idle time and open connections.
    public struct Settings: Sendable {
        public var host = "127.0.0.1"
        public var port = 5000
        public var threads = 2
        /// Bytes per connection for the request line and headers (bigger requests get 431/413 from libmicrohttpd).
        public var connectionMemory = 64 << 10
        /// Seconds a connection may stay idle, and a request may take from its first byte to its last response byte,
        /// the handler's own time excepted (idle, slow and stuck clients are dropped).
        public var connectionTimeoutSeconds = 15
        public var maximumConnections = 1024
        public var logRequests = true
        public init() {}
    }

    public init(service: RoutingService, settings: Settings = Settings()) throws {
        self.service = service
        logRequests = settings.logRequests
        guard (0...65535).contains(settings.port) else { throw NavGraphError("port \(settings.port) is not 0...65535") }
        var error = [CChar](repeating: 0, count: 256)
        let box = Unmanaged.passRetained(CallbackBox(service: service, log: settings.logRequests)).toOpaque()
        let started = ngh_start(settings.host, UInt16(settings.port), UInt32(max(1, settings.threads)), settings.connectionMemory,
                                UInt32(settings.connectionTimeoutSeconds), UInt32(settings.maximumConnections),
                                service.limits.maximumBodyBytes, httpHandler, box, &error, error.count)
        guard let started else {
            Unmanaged<CallbackBox>.fromOpaque(box).release()
            throw NavGraphError(String(cString: error), code: .ioFailure)
        }
        daemon = started
        port = Int(ngh_port(started))
        callbackBox = box
    }

    private var callbackBox: UnsafeMutableRawPointer?

    /// Stops accepting connections, waits up to `drainSeconds` for requests in progress, then stops the threads.
    public func stop(drainSeconds: Double = 3) {
        guard let daemon else { return }
        ngh_quiesce(daemon)
        let deadline = Date().addingTimeInterval(drainSeconds)
        while ngh_active(daemon) > 0 && Date() < deadline { usleep(10_000) }
        ngh_stop(daemon)
        self.daemon = nil
        if let callbackBox { Unmanaged<CallbackBox>.fromOpaque(callbackBox).release() }
        callbackBox = nil
    }

    deinit { stop(drainSeconds: 0) }
}

/// What the C callback needs: the service and whether to log.
private final class CallbackBox {
    package let service: RoutingService
    package let log: Bool
    package init(service: RoutingService, log: Bool) { self.service = service; self.log = log }
}

/// Content types as C strings that live as long as the process (libmicrohttpd copies them into each response).
nonisolated(unsafe) private let contentTypes: [String: UnsafeMutablePointer<CChar>] = Dictionary(uniqueKeysWithValues:
    Set(["application/json; charset=utf-8", "text/plain; version=0.0.4", "application/geo+json", "text/plain"] + MapPage.contentTypes).compactMap { type in
        strdup(type).map { (type, $0) }
    })

/// Drops the reference `httpHandler` gave libmicrohttpd with a body it sends without a copy.
private let releaseBody: @convention(c) (UnsafeMutableRawPointer?) -> Void = { owner in
    if let owner { Unmanaged<WrittenBytes>.fromOpaque(owner).release() }
}

private let httpHandler: ngh_handler = { context, request, response in
    guard let context, let request, let response else { return }
    let box = Unmanaged<CallbackBox>.fromOpaque(context).takeUnretainedValue()
    let start = DispatchTime.now().uptimeNanoseconds
    let method = request.pointee.method.map { String(cString: $0) } ?? "GET"
    let target = request.pointee.target.map { String(cString: $0) } ?? "/"
    let body = request.pointee.body_length > 0 && request.pointee.body != nil
        ? Data(bytes: request.pointee.body, count: request.pointee.body_length) : Data()
    let answer = box.service.handle(HTTPRequest(method: method, target: target, body: body, bodyTooBig: request.pointee.body_too_big != 0))
    response.pointee.status = Int32(answer.status)
    response.pointee.content_type = UnsafePointer(contentTypes[answer.contentType] ?? contentTypes["text/plain"])
    if let owned = answer.bytes, owned.count > 0 {
        // A JSON writer's buffer: sent as it is, released by libmicrohttpd when the response is destroyed.
        response.pointee.body = owned.base.assumingMemoryBound(to: CChar.self)
        response.pointee.body_length = owned.count
        response.pointee.owner = Unmanaged.passRetained(owned).toOpaque()
        response.pointee.release = releaseBody
    } else if !answer.body.isEmpty, let bytes = malloc(answer.body.count) {
        answer.body.withUnsafeBytes { raw in
            if let base = raw.baseAddress { memcpy(bytes, base, raw.count) }
        }
        response.pointee.body = bytes.assumingMemoryBound(to: CChar.self)
        response.pointee.body_length = answer.body.count
    }
    if box.log {
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let redacted = AccessTokens.redacted(target)
        let shown = redacted.count > 300 ? String(redacted.prefix(300)) + "..." : redacted
        let line = String(format: "%@ %@ %d %.2f ms\n", method, shown, answer.status, milliseconds)
        FileHandle.standardError.write(Data(line.utf8))
    }
}
