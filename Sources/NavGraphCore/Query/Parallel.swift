import Dispatch
import Foundation

/// Runs a fixed number of workers on all cores (one per core); each worker owns its own query state.
package enum Parallel {
    /// Workers to use: one per active core, or `NAVGRAPH_THREADS` of them (e.g. 1 per Dask worker process).
    package static var workerCount: Int { threadLimit ?? max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// `NAVGRAPH_THREADS` as read on first use (nil: unset or not a number).
    static let threadLimit: Int? = ProcessInfo.processInfo.environment["NAVGRAPH_THREADS"].flatMap { Int($0) }.map { max(1, $0) }

    /// Calls `body(worker)` for worker 0..<count concurrently and returns when all are done.
    package static func run(_ count: Int, _ body: (Int) -> Void) {
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
    package let pointer: UnsafeMutablePointer<Element>
    package let count: Int
    package init(_ buffer: UnsafeMutableBufferPointer<Element>) {
        pointer = buffer.baseAddress ?? UnsafeMutablePointer<Element>.allocate(capacity: 1)
        count = buffer.count
    }
}
