import Foundation

/// Prints phases with counts, timings and resident memory (phase peak, RSS at the end) to stderr.
public final class ProgressLog: @unchecked Sendable {
    public let quiet: Bool
    private let start = Date()
    private var phaseStart = Date()
    public private(set) var phaseSeconds: [String: Double] = [:]
    public private(set) var phaseMemory: [String: PhaseMemory] = [:]
    /// CPU seconds (user + system, all threads) per phase.
    public private(set) var phaseCPUSeconds: [String: Double] = [:]

    public init(quiet: Bool = false) { self.quiet = quiet }

    /// Runs one phase, logging its duration and the summary it returns.
    public func phase<T>(_ name: String, _ work: () throws -> (T, String)) rethrows -> T {
        phaseStart = Date()
        let sampler = PhaseMemorySampler()
        let cpuStart = ProcessMemory.cpuSeconds
        let value: T, summary: String
        do {
            (value, summary) = try work()
        } catch {
            // A failed phase stops its sampler too (found by fuzzing the importer: each failed import left a
            // thread polling /proc forever).
            _ = sampler.finish()
            throw error
        }
        let seconds = Date().timeIntervalSince(phaseStart)
        let cpu = ProcessMemory.cpuSeconds - cpuStart
        let memory = sampler.finish()
        phaseSeconds[name] = seconds
        phaseCPUSeconds[name] = cpu
        phaseMemory[name] = memory
        say(String(format: "[%7.2fs] %@: %@ (%.2fs, CPU %.2fs, peak RSS %@, now %@)", Date().timeIntervalSince(start), name, summary,
                   seconds, cpu, Self.megabytes(memory.peakBytes), Self.megabytes(memory.endBytes)))
        return value
    }

    static func megabytes(_ bytes: Int) -> String { String(format: "%.0f MB", Double(bytes) / 1_048_576) }

    public func say(_ line: String) {
        guard !quiet else { return }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
