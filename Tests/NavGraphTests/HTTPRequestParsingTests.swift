import Foundation
import Testing
@testable import NavGraphCore

/// `HTTPRequest`'s byte-level split of ASCII targets against the Character-level split it skips (kept here as
/// `reference`), on random targets full of separators, escapes, malformed escapes and CR LF.
@Suite struct HTTPRequestParsingTests {
    /// The split before the byte path (HTTPMessage.swift at aa76140).
    static func reference(_ target: String) -> (path: String, query: [(name: String, value: String)]) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = HTTPRequest.decode(parts.first.map(String.init) ?? "", plusIsSpace: false)
        var query: [(name: String, value: String)] = []
        if parts.count == 2 {
            for item in parts[1].split(separator: "&") where !item.isEmpty {
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query.append((HTTPRequest.decode(String(pair[0]), plusIsSpace: true),
                              pair.count == 2 ? HTTPRequest.decode(String(pair[1]), plusIsSpace: true) : ""))
            }
        }
        return (path, query)
    }

    @Test func asciiTargetsSplitAsCharactersDo() {
        var rng = SystemRandomNumberGenerator()
        let pieces = ["/route/v1/driving/", "9.18,45.46;9.2,45.47", "?", "&", "=", "&&", "==", "%20", "%2", "%", "%zz", "%C3%A9", "%E2%82",
                      "+", "steps", "true", "annotations", "distance,duration", "\r\n", "\r", "\n", ".json", "%3D", "%26", "a+b", " "]
        var targets = ["", "?", "/", "/?", "/?&", "/?=", "/?a", "/?a=", "/?=b", "/x?a=b=c&&d", "%", "/%41%4", "/p?q=%ZZ%41+"]
        for _ in 0..<5000 {
            targets.append((0..<Int.random(in: 1...12, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined())
        }
        // Non-ASCII targets take the Character path (a combining mark after a separator joins its cluster there).
        targets += ["/caf\u{E9}?a=\u{E9}", "/?a=1&\u{301}b=2", "/?a\u{301}=1", "/\u{1F697}?x=%F0%9F&y"]
        for target in targets {
            let request = HTTPRequest(method: "GET", target: target)
            let expected = Self.reference(target)
            #expect(request.path == expected.path, "\(target.debugDescription)")
            #expect(request.query.map(\.name) == expected.query.map(\.name), "\(target.debugDescription)")
            #expect(request.query.map(\.value) == expected.query.map(\.value), "\(target.debugDescription)")
        }
    }
}
