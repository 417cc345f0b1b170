import Foundation

/// Prints phases with counts, timings and resident memory (phase peak, RSS at the end) to stderr. Phases may run
/// on concurrent threads (the importer's road sets): a phase that ran alone is charged the CPU time of the whole
/// process while it ran; one that overlapped another is charged its own thread's CPU time and that of the workers
/// it started (`PhaseWorkers`), and its line says so. Peak and end RSS are always the whole process's.
public final class ProgressLog: @unchecked Sendable {
    public let quiet: Bool
    private let start = Date()
    private let lock = NSLock()
    private var seconds: [String: Double] = [:]
    private var memory: [String: PhaseMemory] = [:]
    private var cpuSeconds: [String: Double] = [:]
    /// Phases running now; each learns whether another one ran while it did.
    private var running: [ObjectIdentifier: RunningPhase] = [:]

    public var phaseSeconds: [String: Double] { lock.withLock { seconds } }
    public var phaseMemory: [String: PhaseMemory] { lock.withLock { memory } }
    /// CPU seconds (user + system) per phase: all threads' for a phase that ran alone (see the type's comment).
    public var phaseCPUSeconds: [String: Double] { lock.withLock { cpuSeconds } }

    public init(quiet: Bool = false) { self.quiet = quiet }

    /// Runs one phase, logging its duration and the summary it returns.
    public func phase<T>(_ name: String, _ work: () throws -> (T, String)) rethrows -> T {
        let phaseStart = Date()
        let sampler = PhaseMemorySampler()
        let account = PhaseCPUAccount(), outerAccount = PhaseCPUAccount.current
        PhaseCPUAccount.current = account
        defer { PhaseCPUAccount.current = outerAccount }
        let me = begin()
        let processCPUStart = ProcessMemory.cpuSeconds, threadCPUStart = PhaseCPUAccount.threadCPUSeconds
        let value: T, summary: String
        do {
            (value, summary) = try work()
        } catch {
            // A failed phase stops its sampler too (found by fuzzing the importer: each failed import left a
            // thread polling /proc forever).
            _ = sampler.finish()
            _ = end(me)
            throw error
        }
        let elapsed = Date().timeIntervalSince(phaseStart)
        let overlapped = end(me)
        let cpu = overlapped ? PhaseCPUAccount.threadCPUSeconds - threadCPUStart + account.seconds
            : ProcessMemory.cpuSeconds - processCPUStart
        let phaseMemory = sampler.finish()
        lock.withLock {
            seconds[name] = elapsed
            cpuSeconds[name] = cpu
            memory[name] = phaseMemory
        }
        say(String(format: "[%7.2fs] %@: %@ (%.2fs, CPU %.2fs, peak RSS %@, now %@)%@", Date().timeIntervalSince(start), name, summary,
                   elapsed, cpu, Self.megabytes(phaseMemory.peakBytes), Self.megabytes(phaseMemory.endBytes),
                   overlapped ? " [concurrent]" : ""))
        return value
    }

    /// One phase in flight.
    private final class RunningPhase { var overlapped = false }

    private func begin() -> RunningPhase {
        let phase = RunningPhase()
        lock.withLock {
            if !running.isEmpty {
                phase.overlapped = true
                for other in running.values { other.overlapped = true }
            }
            running[ObjectIdentifier(phase)] = phase
        }
        return phase
    }

    /// Ends a phase; true if another phase ran at some time while it did.
    private func end(_ phase: RunningPhase) -> Bool {
        lock.withLock {
            running[ObjectIdentifier(phase)] = nil
            return phase.overlapped
        }
    }

    package static func megabytes(_ bytes: Int) -> String { String(format: "%.0f MB", Double(bytes) / 1_048_576) }

    public func say(_ line: String) {
        guard !quiet else { return }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
