import Dispatch
import Foundation

/// Runs a fixed number of workers on all cores (one per core); each worker owns its own query state.
enum Parallel {
    /// Workers to use: one per active core.
    static var workerCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Calls `body(worker)` for worker 0..<count concurrently and returns when all are done.
    static func run(_ count: Int, _ body: (Int) -> Void) {
        if count <= 1 { body(0); return }
        withoutActuallyEscaping(body) { body in
            let box = UncheckedBody(body: body)
            DispatchQueue.concurrentPerform(iterations: count) { box.body($0) }
        }
    }

    /// The workers' closure; callers give each worker its own state and write only to disjoint indices.
    private struct UncheckedBody: @unchecked Sendable { let body: (Int) -> Void }
}

/// A mutable buffer that workers write to at disjoint indices (the caller guarantees they never overlap).
struct SharedBuffer<Element>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Element>
    let count: Int
    init(_ buffer: UnsafeMutableBufferPointer<Element>) {
        pointer = buffer.baseAddress ?? UnsafeMutablePointer<Element>.allocate(capacity: 1)
        count = buffer.count
    }
}
