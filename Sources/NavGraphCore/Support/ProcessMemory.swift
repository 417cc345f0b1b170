import Foundation

/// Resident memory of this process from /proc/self (Linux); zero where /proc is unavailable.
public enum ProcessMemory {
    /// Current resident set size in bytes (VmRSS).
    public static var residentBytes: Int { statusField("VmRSS:") }
    /// Highest resident set size of the process so far in bytes (VmHWM).
    public static var peakResidentBytes: Int { statusField("VmHWM:") }

    /// Reads one "Name:   1234 kB" line of /proc/self/status, in bytes.
    static func statusField(_ name: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let kilobytes = line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) } ?? 0
            return kilobytes * 1024
        }
        return 0
    }

    /// User plus system CPU seconds of the whole process so far (all threads).
    public static var cpuSeconds: Double {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }
}

/// The resident-memory peak of one phase: exact when the phase raised the process peak (VmHWM), otherwise
/// the highest of the RSS samples taken every 20 ms on a background thread, and the RSS at both ends.
/// VmHWM is never reset (/proc/self/clear_refs "5" would also reset the ru_maxrss that `/usr/bin/time` reports).
final class PhaseMemorySampler: @unchecked Sendable {
    private let lock = NSLock()
    private var highest: Int
    private var running = true
    private let startPeak: Int
    private let done = DispatchSemaphore(value: 0)

    /// The sampling thread's name (as /proc/self/task/*/comm shows it).
    static let threadName = "navgraph-rss"

    package init() {
        startPeak = ProcessMemory.peakResidentBytes
        highest = ProcessMemory.residentBytes
        let thread = Thread { [self] in
            // The thread's name, for tools (and the test that counts samplers); pthread_setname_np is not visible to Swift.
            let comm = open("/proc/thread-self/comm", O_WRONLY)
            if comm >= 0 { _ = Self.threadName.withCString { write(comm, $0, strlen($0)) }; close(comm) }
            while true {
                lock.lock(); let keepGoing = running; lock.unlock()
                guard keepGoing else { break }
                let now = ProcessMemory.residentBytes
                lock.lock(); highest = max(highest, now); lock.unlock()
                usleep(20_000)
            }
            done.signal()
        }
        thread.start()
    }

    /// Stops sampling and returns the phase's peak and its resident memory at the end.
    package func finish() -> PhaseMemory {
        lock.lock(); running = false; lock.unlock()
        done.wait()
        let end = ProcessMemory.residentBytes, peak = ProcessMemory.peakResidentBytes
        let sampled = lock.withLock { highest }
        return PhaseMemory(peakBytes: peak > startPeak ? peak : max(sampled, end), endBytes: end, processPeakBytes: peak)
    }
}

/// Resident memory of one import phase (bytes).
public struct PhaseMemory: Codable, Sendable, Equatable {
    /// Highest resident set size during the phase.
    public var peakBytes: Int
    /// Resident set size when the phase ended.
    public var endBytes: Int
    /// Highest resident set size of the whole process up to the end of the phase.
    public var processPeakBytes: Int
}
