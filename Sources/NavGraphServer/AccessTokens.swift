import Foundation
import NavGraphCore

/// The access tokens `navgraph serve --access-tokens FILE` accepts: one a line (blank lines and `#` comments
/// skipped). With a token list every API endpoint needs `access_token=` (Mapbox, OSRM) or `key=` (NextBillion)
/// naming a listed token; without one, tokens are accepted and ignored.
///
/// Lifetime: one per service, immutable. Thread safety: Sendable (a frozen set).
public struct AccessTokens: Sendable {
    /// The query parameters that carry a token.
    package static let parameterNames: Set<String> = ["access_token", "key"]
    private let tokens: Set<String>

    /// Reads a token file; an unreadable or empty file, or a token with spaces or control characters, is an error.
    public init(file path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw NavGraphError("access tokens: cannot read '\(path)'", code: .badFile)
        }
        var tokens = Set<String>()
        for (index, raw) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard line.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
                throw NavGraphError("access tokens: line \(index + 1) of '\(path)' is not one token of printable ASCII without spaces", code: .badFile)
            }
            tokens.insert(line)
        }
        guard !tokens.isEmpty else { throw NavGraphError("access tokens: '\(path)' lists no token", code: .badFile) }
        self.tokens = tokens
    }

    /// Tokens given directly (tests).
    public init(_ tokens: Set<String>) { self.tokens = tokens }

    /// How many tokens are accepted.
    public var count: Int { tokens.count }

    /// Throws NoToken or InvalidToken unless the request carries a listed token. The token itself never appears in
    /// the message.
    package func check(_ query: [(name: String, value: String)]) throws {
        let given = query.filter { Self.parameterNames.contains($0.name) }.map(\.value)
        guard !given.isEmpty else {
            throw OSRMError(.noToken, "this server needs an access token: add access_token=... (or key=...) to the request")
        }
        guard given.allSatisfy(tokens.contains) else {
            throw OSRMError(.invalidToken, "the access token is not one this server accepts")
        }
    }

    /// The request target with the values of token parameters replaced by `***`, for logs.
    public static func redacted(_ target: String) -> String {
        guard let question = target.firstIndex(of: "?") else { return target }
        let items = target[target.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            let name = item.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return parameterNames.contains(HTTPRequest.decode(name, plusIsSpace: true)) ? "\(name)=***" : String(item)
        }
        return String(target[..<question]) + "?" + items.joined(separator: "&")
    }
}
