import Foundation

/// The parts of a divide-and-conquer step (a nested dissection) that worker threads share: each worker takes the
/// largest waiting part, so that one large part does not run alone at the end while the other core is idle, and
/// processing a part may queue more. Lives for one step; thread-safe.
final class LargestFirstQueue<Part>: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: [Part] = []
    private var running = 0
    private var failure: (any Error)?
    private let size: (Part) -> Int

    /// `size` ranks the waiting parts.
    init(size: @escaping (Part) -> Int) { self.size = size }

    func add(_ part: consuming Part) {
        condition.lock(); waiting.append(part); condition.signal(); condition.unlock()
    }

    /// Processes parts, the largest waiting first, until none waits and none is being processed, or a part failed.
    /// Each part is handed over (moved, not shared).
    func drain(_ process: (consuming Part) throws -> Void) {
        while true {
            condition.lock()
            while waiting.isEmpty && running > 0 && failure == nil { condition.wait() }
            guard failure == nil, !waiting.isEmpty else {
                condition.broadcast(); condition.unlock(); return
            }
            var largest = 0
            for index in waiting.indices where size(waiting[index]) > size(waiting[largest]) { largest = index }
            let part = waiting.remove(at: largest)
            running += 1
            condition.unlock()
            do { try process(consume part) } catch {
                condition.lock(); failure = failure ?? error; condition.unlock()
            }
            condition.lock(); running -= 1; condition.broadcast(); condition.unlock()
        }
    }

    /// Throws the first error a part met, if any.
    func checkFailure() throws {
        condition.lock(); defer { condition.unlock() }
        if let failure { throw failure }
    }
}
