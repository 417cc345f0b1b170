import Foundation
import NavGraphCore

/// The parts of a divide-and-conquer step (a nested dissection) that worker threads share: each worker takes the
/// largest waiting part, so that one large part does not run alone at the end while the other core is idle, and
/// processing a part may queue more. Lives for one step; thread-safe.
package final class LargestFirstQueue<Part>: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: [Part] = []
    /// `size` of each waiting part, taken when it was added: the pick reads these, not the parts (reading a part
    /// through `size` copies it and retains each of its arrays, for each of thousands of waiting parts per pick).
    private var sizes: [Int] = []
    private var running = 0
    private var failure: (any Error)?
    private let size: (borrowing Part) -> Int

    /// `size` ranks the waiting parts.
    package init(size: @escaping (borrowing Part) -> Int) { self.size = size }

    package func add(_ part: consuming Part) {
        let partSize = size(part)
        condition.lock(); waiting.append(part); sizes.append(partSize); condition.signal(); condition.unlock()
    }

    /// Processes parts, the largest waiting first (the earliest added among equals), until none waits and none is
    /// being processed, or a part failed. Each part is handed over (moved, not shared).
    package func drain(_ process: (consuming Part) throws -> Void) {
        while true {
            condition.lock()
            while waiting.isEmpty && running > 0 && failure == nil { condition.wait() }
            guard failure == nil, !waiting.isEmpty else {
                condition.broadcast(); condition.unlock(); return
            }
            var largest = 0
            for index in sizes.indices where sizes[index] > sizes[largest] { largest = index }
            let part = waiting.remove(at: largest)
            sizes.remove(at: largest)
            running += 1
            condition.unlock()
            do { try process(consume part) } catch {
                condition.lock(); failure = failure ?? error; condition.unlock()
            }
            condition.lock(); running -= 1; condition.broadcast(); condition.unlock()
        }
    }

    /// Throws the first error a part met, if any.
    package func checkFailure() throws {
        condition.lock(); defer { condition.unlock() }
        if let failure { throw failure }
    }
}
