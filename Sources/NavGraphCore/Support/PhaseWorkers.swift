import Dispatch
import Foundation

/// The CPU time of one import phase that ran on other threads than the phase's own: the workers it started
/// (`PhaseWorkers.run`) add theirs here, so that a phase's CPU stays its own when two phases run at once.
package final class PhaseCPUAccount: @unchecked Sendable {
    private let lock = NSLock()
    private var workerSeconds = 0.0

    package func add(_ seconds: Double) { lock.withLock { workerSeconds += seconds } }
    package var seconds: Double { lock.withLock { workerSeconds } }

    /// The account of the phase running on this thread, if any (a pthread-specific value).
    package static var current: PhaseCPUAccount? {
        get { pthread_getspecific(key).map { Unmanaged<PhaseCPUAccount>.fromOpaque($0).takeUnretainedValue() } }
        set {
            if let old = pthread_getspecific(key) { Unmanaged<PhaseCPUAccount>.fromOpaque(old).release() }
            pthread_setspecific(key, newValue.map { Unmanaged.passRetained($0).toOpaque() })
        }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// CPU seconds (user + system) of the calling thread so far.
    package static var threadCPUSeconds: Double {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// Runs an import step's independent parts on concurrent threads and credits their CPU time to the phase that
/// started them (see PhaseCPUAccount). Its own threads rather than `DispatchQueue.concurrentPerform`: Dispatch runs
/// a concurrentPerform nested in another one serially, so a road set's order would keep one core idle once the other
/// road set is done.
package enum PhaseWorkers {
    /// Calls `body(index)` for index 0..<count on up to one thread per core (the caller's among them), each taking
    /// the next index when it is free, and returns when all are done.
    package static func run(_ count: Int, _ body: (Int) -> Void) {
        let threadCount = min(count, Parallel.workerCount)
        if threadCount <= 1 { for index in 0..<count { body(index) }; return }
        withoutActuallyEscaping(body) { body in
            let work = SharedWork(body: body, count: count, account: PhaseCPUAccount.current)
            let finished = DispatchGroup()
            for _ in 1..<threadCount {
                finished.enter()
                let thread = Thread { [work] in
                    let previous = PhaseCPUAccount.current
                    PhaseCPUAccount.current = work.account
                    let start = PhaseCPUAccount.threadCPUSeconds
                    work.drain()
                    work.account?.add(PhaseCPUAccount.threadCPUSeconds - start)
                    PhaseCPUAccount.current = previous
                    finished.leave()
                }
                thread.stackSize = 16 << 20
                thread.start()
            }
            work.drain()  // the caller's own CPU time is already the phase's
            finished.wait()
            work.finish()  // drops the closure before withoutActuallyEscaping checks that it did not escape
        }
    }

    /// The parts left to run and the closure that runs one, shared by the worker threads.
    private final class SharedWork: @unchecked Sendable {
        private let lock = NSLock()
        private var body: ((Int) -> Void)?
        private var next = 0
        private let count: Int
        let account: PhaseCPUAccount?

        package init(body: @escaping (Int) -> Void, count: Int, account: PhaseCPUAccount?) {
            self.body = body; self.count = count; self.account = account
        }

        /// Runs parts until none is left.
        package func drain() {
            while true {
                let taken: (Int, (Int) -> Void)? = lock.withLock {
                    guard next < count, let body else { return nil }
                    next += 1
                    return (next - 1, body)
                }
                guard let (index, body) = taken else { return }
                body(index)
            }
        }

        package func finish() { lock.withLock { body = nil } }
    }
}
