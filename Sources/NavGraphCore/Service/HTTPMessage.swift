import Foundation

/// One HTTP request as the server hands it to `RoutingService.handle`: method, decoded path, query pairs, body.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The raw request target (path and query string, percent-encoded as sent).
    public var target: String
    /// The path, percent-decoded.
    public var path: String
    /// Query parameters in order, names and values percent-decoded (`+` is a space).
    public var query: [(name: String, value: String)]
    public var body: Data
    /// Whether the body went over the server's size limit (and was dropped).
    public var bodyTooBig: Bool

    /// Splits a raw target such as `/route/v1/driving/7.4,43.7;7.5,43.8?steps=true`; undecodable escapes stay as sent.
    public init(method: String, target: String, body: Data = Data(), bodyTooBig: Bool = false) {
        self.method = method
        self.target = target
        self.body = body
        self.bodyTooBig = bodyTooBig
        // An ASCII target (every percent-encoded one) is split on its bytes: a Character is a byte there, so the
        // pieces are those of the Character split below, without walking grapheme clusters.
        if let (path, query) = target.utf8.withContiguousStorageIfAvailable(Self.splitASCII) ?? nil {
            self.path = path
            self.query = query
            return
        }
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = Self.decode(parts.first.map(String.init) ?? "", plusIsSpace: false)
        query = []
        if parts.count == 2 {
            for item in parts[1].split(separator: "&") where !item.isEmpty {
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query.append((Self.decode(String(pair[0]), plusIsSpace: true),
                              pair.count == 2 ? Self.decode(String(pair[1]), plusIsSpace: true) : ""))
            }
        }
    }

    /// The decoded path and query pairs of an all-ASCII target; nil for any other.
    private static func splitASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> (String, [(name: String, value: String)])? {
        guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        let mark = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        let path = decode(UnsafeBufferPointer(rebasing: bytes[..<mark]), plusIsSpace: false)
        var query: [(name: String, value: String)] = []
        var start = mark + 1
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
            if end > start {
                let item = bytes[start..<end]
                if let equals = item.firstIndex(of: UInt8(ascii: "=")) {
                    query.append((decode(UnsafeBufferPointer(rebasing: bytes[start..<equals]), plusIsSpace: true),
                                  decode(UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]), plusIsSpace: true)))
                } else {
                    query.append((decode(UnsafeBufferPointer(rebasing: item), plusIsSpace: true), ""))
                }
            }
            start = end + 1
        }
        return (path, query)
    }

    /// Percent-decodes UTF-8 bytes as `decode(_:plusIsSpace:)` decodes their text.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) -> String {
        guard bytes.contains(where: { $0 == 37 || (plusIsSpace && $0 == 43) }) else { return String(decoding: bytes, as: UTF8.self) }
        return decode(String(decoding: bytes, as: UTF8.self), plusIsSpace: plusIsSpace)
    }

    /// Percent-decodes; a malformed escape is kept literally.
    package static func decode(_ text: String, plusIsSpace: Bool) -> String {
        guard text.contains("%") || (plusIsSpace && text.contains("+")) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 48...57: byte - 48
            case 65...70: byte - 55
            case 97...102: byte - 87
            default: nil
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 37, index + 2 < bytes.count, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(plusIsSpace && byte == 43 ? 32 : byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The answer to an HTTPRequest: status, content type and body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var contentType: String
    /// The body (a view of the writer's buffer when a JSON writer made it).
    public var body: Data {
        get { bytes?.data ?? storedBody }
        set { storedBody = newValue; bytes = nil }
    }
    private var storedBody: Data
    /// The body as a JSON writer left it, which the socket layer sends without a copy; nil for other bodies.
    package private(set) var bytes: WrittenBytes?

    public init(status: Int, contentType: String, body: Data) {
        self.status = status; self.contentType = contentType; self.storedBody = body
    }

    /// A response whose body is a finished writer's buffer.
    package init(status: Int, contentType: String, bytes: WrittenBytes) {
        self.status = status; self.contentType = contentType; self.storedBody = Data(); self.bytes = bytes
    }

    /// A JSON response.
    package static func json(_ value: JSON, status: Int = 200) -> HTTPResponse {
        json(value.bytes(pretty: false), status: status)
    }

    /// A JSON response of bytes a writer made.
    package static func json(_ bytes: WrittenBytes, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json; charset=utf-8", bytes: bytes)
    }
}
