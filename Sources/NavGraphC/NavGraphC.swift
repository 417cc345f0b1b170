import Foundation
import NavGraphCore

// The C ABI of the Python package (python/navgraph/_ffi.py declares the same functions). Every query goes
// through OSRMService, the core's OSRM v5 request handling (the server's OSRM endpoints), with an OSRM-style target string, so answers equal
// `navgraph serve`'s. Failing calls return NULL (or -1) and leave a code and a message for ng_last_error_*.
// Strings returned to the caller are malloc'd and freed with ng_free.

/// One opened graph file and the routing service answering on it; shared by all calling threads.
final class GraphHandle: Sendable {
    let service: OSRMService
    init(service: OSRMService) { self.service = service }
}

/// The calling thread's last error (code, message), kept per thread so concurrent callers do not mix them.
private let errorKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { pointer in if let pointer { Unmanaged<ErrorBox>.fromOpaque(pointer).release() } }
    return key
}()

/// A thread's last error.
private final class ErrorBox {
    var code: String
    var message: String
    init(code: String, message: String) { self.code = code; self.message = message }
}

private func setError(_ code: String, _ message: String) {
    if let old = pthread_getspecific(errorKey) {
        let box = Unmanaged<ErrorBox>.fromOpaque(old).takeUnretainedValue()
        box.code = code; box.message = message
    } else {
        pthread_setspecific(errorKey, Unmanaged.passRetained(ErrorBox(code: code, message: message)).toOpaque())
    }
}

private func clearError() { setError("", "") }

/// Records a thrown error under the OSRM code the server would answer with.
private func record(_ error: Error) {
    switch error {
    case let error as OSRMError: setError(error.code.rawValue, error.message)
    case let error as NavGraphError:
        let codes: [NavGraphError.Code: String] = [.invalidInput: "InvalidValue", .noSegment: "NoSegment", .noRoute: "NoRoute",
                                                    .tooBig: "TooBig", .badFile: "BadFile", .ioFailure: "IoFailure"]
        setError(codes[error.code] ?? "InvalidValue", error.message)
    default: setError("InvalidValue", "\(error)")
    }
}

private func copyString(_ text: String) -> UnsafeMutablePointer<CChar>? { strdup(text) }

private func handle(_ pointer: UnsafeMutableRawPointer?) -> GraphHandle? {
    guard let pointer else {
        setError("InvalidValue", "the graph handle is NULL (closed or never opened)")
        return nil
    }
    return Unmanaged<GraphHandle>.fromOpaque(pointer).takeUnretainedValue()
}

/// Opens a graph file (mapped, shared by every call on the handle); verify != 0 checks its section checksums.
/// Returns NULL on failure (ng_last_error_code: BadFile, ...).
@_cdecl("ng_open")
public func ng_open(_ path: UnsafePointer<CChar>?, _ verify: Int32) -> UnsafeMutableRawPointer? {
    clearError()
    guard let path else { setError("InvalidValue", "the graph path is NULL"); return nil }
    do {
        let graph = try RoutingGraph(path: String(cString: path), verifyChecksums: verify != 0)
        let service = OSRMService(engine: RoutingEngine(graph: graph))
        return Unmanaged.passRetained(GraphHandle(service: service)).toOpaque()
    } catch {
        record(error)
        return nil
    }
}

/// Releases a handle from ng_open (the file is unmapped once no call uses it).
@_cdecl("ng_close")
public func ng_close(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    Unmanaged<GraphHandle>.fromOpaque(pointer).release()
}

/// Answers a GET target of `service` (route, nearest, isochrone, health) as the server does: the JSON body,
/// or NULL with the server's error code and message.
private func request(_ pointer: UnsafeMutableRawPointer?, _ target: UnsafePointer<CChar>?, service: String) -> UnsafeMutablePointer<CChar>? {
    clearError()
    guard let graph = handle(pointer) else { return nil }
    guard let target else { setError("InvalidValue", "the request target is NULL"); return nil }
    let text = String(cString: target)
    guard text.hasPrefix("/\(service)") else {
        setError("InvalidService", "target '\(text.prefix(80))' is not a /\(service) request")
        return nil
    }
    let response = graph.service.handle(HTTPRequest(method: "GET", target: text))
    if response.status == 200 { return copyString(String(decoding: response.body, as: UTF8.self)) }
    let body = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
    setError(body?["code"] as? String ?? "HTTP\(response.status)", body?["message"] as? String ?? String(decoding: response.body, as: UTF8.self))
    return nil
}

/// `/route/v1/{profile}/{coordinates}?...`: the server's route JSON.
@_cdecl("ng_route")
public func ng_route(_ pointer: UnsafeMutableRawPointer?, _ target: UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
    request(pointer, target, service: "route")
}

/// `/isochrone/v1/{profile}/{lon,lat}?contours_minutes=...`: the isochrone GeoJSON.
@_cdecl("ng_isochrone")
public func ng_isochrone(_ pointer: UnsafeMutableRawPointer?, _ target: UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
    request(pointer, target, service: "isochrone")
}

/// `/nearest/v1/{profile}/{lon,lat}?number=...`: the server's nearest JSON.
@_cdecl("ng_nearest")
public func ng_nearest(_ pointer: UnsafeMutableRawPointer?, _ target: UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
    request(pointer, target, service: "nearest")
}

/// `/health`: the graph's path and routing-node count as JSON.
@_cdecl("ng_info")
public func ng_info(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<CChar>? {
    "/health".withCString { request(pointer, $0, service: "health") }
}

/// `/table/v1/...` computed into caller buffers of rows × columns elements (row-major), elementSize 4 (float) or
/// 8 (double); seconds into durations and metres into distances (either may be NULL), NaN where unreachable.
/// snapped (NULL or one byte per coordinate) gets 1 for each coordinate that snapped; skip != 0 leaves
/// unsnappable points as NaN rows and columns instead of failing. Returns 0, or -1 with the error set.
@_cdecl("ng_matrix")
public func ng_matrix(_ pointer: UnsafeMutableRawPointer?, _ target: UnsafePointer<CChar>?, _ skip: Int32, _ rows: Int, _ columns: Int,
                      _ elementSize: Int32, _ durations: UnsafeMutableRawPointer?, _ distances: UnsafeMutableRawPointer?,
                      _ snapped: UnsafeMutablePointer<UInt8>?, _ coordinateCount: Int) -> Int32 {
    clearError()
    guard let graph = handle(pointer) else { return -1 }
    guard let target else { setError("InvalidValue", "the table target is NULL"); return -1 }
    guard elementSize == 4 || elementSize == 8 else { setError("InvalidValue", "elementSize=\(elementSize) is not 4 or 8"); return -1 }
    do {
        let (matrix, snaps) = try graph.service.table(target: String(cString: target), skipUnsnappable: skip != 0)
        guard matrix.sourceCount == rows, matrix.destinationCount == columns else {
            setError("InvalidValue", "the buffers are \(rows) x \(columns) but the table is \(matrix.sourceCount) x \(matrix.destinationCount)")
            return -1
        }
        guard snapped == nil || snaps.count == coordinateCount else {
            setError("InvalidValue", "snapped holds \(coordinateCount) bytes for \(snaps.count) coordinates")
            return -1
        }
        func fill(_ buffer: UnsafeMutableRawPointer, _ value: (Int, Int) -> Double?) {
            if elementSize == 8 {
                let out = buffer.assumingMemoryBound(to: Double.self)
                for row in 0..<rows { for column in 0..<columns { out[row * columns + column] = value(row, column) ?? .nan } }
            } else {
                let out = buffer.assumingMemoryBound(to: Float.self)
                for row in 0..<rows { for column in 0..<columns { out[row * columns + column] = value(row, column).map(Float.init) ?? .nan } }
            }
        }
        if let durations { fill(durations, matrix.duration) }
        if let distances {
            guard matrix.distance != nil else { setError("InvalidValue", "distances were not computed (add distance to annotations)"); return -1 }
            fill(distances, matrix.metres)
        }
        if let snapped { for (index, flag) in snaps.enumerated() { snapped[index] = flag ? 1 : 0 } }
        return 0
    } catch {
        record(error)
        return -1
    }
}

/// The calling thread's last error code (`NoSegment`, `InvalidValue`, `BadFile`, ...; empty after a success), malloc'd.
@_cdecl("ng_last_error_code")
public func ng_last_error_code() -> UnsafeMutablePointer<CChar>? {
    guard let box = pthread_getspecific(errorKey) else { return copyString("") }
    return copyString(Unmanaged<ErrorBox>.fromOpaque(box).takeUnretainedValue().code)
}

/// The calling thread's last error message, naming the offending value, malloc'd.
@_cdecl("ng_last_error_message")
public func ng_last_error_message() -> UnsafeMutablePointer<CChar>? {
    guard let box = pthread_getspecific(errorKey) else { return copyString("") }
    return copyString(Unmanaged<ErrorBox>.fromOpaque(box).takeUnretainedValue().message)
}

/// Frees a string this library returned.
@_cdecl("ng_free")
public func ng_free(_ pointer: UnsafeMutableRawPointer?) { free(pointer) }

/// The engine's version string, malloc'd.
@_cdecl("ng_version")
public func ng_version() -> UnsafeMutablePointer<CChar>? { copyString(NavGraphVersion.string) }
