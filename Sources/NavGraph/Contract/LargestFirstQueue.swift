import Foundation

/// The parts of a divide-and-conquer step (a nested dissection) that worker threads share: each worker takes the
/// largest waiting part, so that one large part does not run alone at the end while the other core is idle, and
/// processing a part may queue more. Lives for one step; thread-safe.
final class LargestFirstQueue<Part>: @unchecked Sendable {
    /// A waiting part's place in the heap: its size, when it was added (the earlier first among equal sizes) and its slot.
    private struct Key {
        var size: Int
        var sequence: Int
        var slot: Int

        /// Taken before `other`.
        func precedes(_ other: Key) -> Bool { size != other.size ? size > other.size : sequence < other.sequence }
    }

    private let condition = NSCondition()
    /// Max-heap of the waiting parts' keys. The parts stay in their slots, so that taking one moves no other part
    /// (copying a part would retain each of its arrays: the queue holds thousands of parts).
    private var heap: [Key] = []
    private var slots: [Part?] = []
    private var freeSlots: [Int] = []
    private var added = 0
    private var running = 0
    private var failure: (any Error)?
    private let size: (borrowing Part) -> Int

    /// `size` ranks the waiting parts.
    init(size: @escaping (borrowing Part) -> Int) { self.size = size }

    func add(_ part: consuming Part) {
        let partSize = size(part)
        condition.lock()
        let slot: Int
        if let free = freeSlots.popLast() { slot = free; slots[free] = consume part } else { slot = slots.count; slots.append(consume part) }
        heap.append(Key(size: partSize, sequence: added, slot: slot))
        added += 1
        siftUp(heap.count - 1)
        condition.signal(); condition.unlock()
    }

    /// Processes parts, the largest waiting first, until none waits and none is being processed, or a part failed.
    /// Each part is handed over (moved, not shared).
    func drain(_ process: (consuming Part) throws -> Void) {
        while true {
            condition.lock()
            while heap.isEmpty && running > 0 && failure == nil { condition.wait() }
            guard failure == nil, let part = takeLargest() else {
                condition.broadcast(); condition.unlock(); return
            }
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

    /// The largest waiting part, moved out of its slot (under the lock).
    private func takeLargest() -> Part? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty { heap[0] = last; siftDown(0) }
        freeSlots.append(top.slot)
        return slots[top.slot].take()
    }

    private func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent); child = parent
        }
    }

    private func siftDown(_ start: Int) {
        var parent = start
        while true {
            var first = parent
            let left = 2 * parent + 1, right = left + 1
            if left < heap.count && heap[left].precedes(heap[first]) { first = left }
            if right < heap.count && heap[right].precedes(heap[first]) { first = right }
            if first == parent { return }
            heap.swapAt(parent, first); parent = first
        }
    }
}
