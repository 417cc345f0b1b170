import Foundation

/// Prints phases with counts and timings to stderr.
public final class ProgressLog: @unchecked Sendable {
    public let quiet: Bool
    private let start = Date()
    private var phaseStart = Date()
    public private(set) var phaseSeconds: [String: Double] = [:]

    public init(quiet: Bool = false) { self.quiet = quiet }

    /// Runs one phase, logging its duration and the summary it returns.
    public func phase<T>(_ name: String, _ work: () throws -> (T, String)) rethrows -> T {
        phaseStart = Date()
        let (value, summary) = try work()
        let seconds = Date().timeIntervalSince(phaseStart)
        phaseSeconds[name] = seconds
        say(String(format: "[%7.2fs] %@: %@ (%.2fs)", Date().timeIntervalSince(start), name, summary, seconds))
        return value
    }

    public func say(_ line: String) {
        guard !quiet else { return }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
