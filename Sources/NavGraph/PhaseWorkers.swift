import Dispatch
import Foundation

/// The CPU time of one import phase that ran on other threads than the phase's own: the workers it started
/// (`PhaseWorkers.run`) add theirs here, so that a phase's CPU stays its own when two phases run at once.
final class PhaseCPUAccount: @unchecked Sendable {
    private let lock = NSLock()
    private var workerSeconds = 0.0

    func add(_ seconds: Double) { lock.withLock { workerSeconds += seconds } }
    var seconds: Double { lock.withLock { workerSeconds } }

    /// The account of the phase running on this thread, if any (a pthread-specific value).
    static var current: PhaseCPUAccount? {
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
    static var threadCPUSeconds: Double {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// Runs an import step's independent parts on concurrent threads and credits their CPU time to the phase that
/// started them (see PhaseCPUAccount).
enum PhaseWorkers {
    /// Calls `body(index)` for index 0..<count concurrently and returns when all are done.
    static func run(_ count: Int, _ body: (Int) -> Void) {
        if count <= 1 { for index in 0..<count { body(index) }; return }
        let account = PhaseCPUAccount.current
        let caller = pthread_self()
        withoutActuallyEscaping(body) { body in
            let box = UncheckedWork(body: body)
            DispatchQueue.concurrentPerform(iterations: count) { index in
                // Work on the calling thread is already the caller's own CPU time.
                if pthread_equal(pthread_self(), caller) != 0 { box.body(index); return }
                let previous = PhaseCPUAccount.current
                PhaseCPUAccount.current = account
                let start = PhaseCPUAccount.threadCPUSeconds
                box.body(index)
                account?.add(PhaseCPUAccount.threadCPUSeconds - start)
                PhaseCPUAccount.current = previous
            }
        }
    }

    /// The workers' closure; callers write only to disjoint state from each worker.
    private struct UncheckedWork: @unchecked Sendable { let body: (Int) -> Void }
}
