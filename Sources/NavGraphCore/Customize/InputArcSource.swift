/// The input arcs of one customization, turn arc by turn arc: the routing node each enters (the turn graph's head),
/// where it lands in the hierarchy (CCHTopology.inputArc) and its turn cost. Each array is held in memory or is a
/// section already written to the graph file being streamed, read back in pieces: the import's customizations then
/// run without the turn graph resident, only the hierarchy and the metric.
package struct InputArcSource: Sendable {
    /// One per-turn-arc array: in memory, or a section of `stream`.
    package enum Column: Sendable {
        case memory(ContiguousArray<UInt32>)
        case written(GraphFileSection)
    }

    package let count: Int
    package let head: Column, code: Column, cost: Column
    package let stream: GraphFileStream?

    /// Turn arcs per piece read back (three pieces of 4 MB resident at a time).
    static let pieceSize = 1 << 20

    /// Calls `body` with consecutive pieces of the heads, hierarchy arc codes and turn costs (equal counts), in turn-arc order.
    package func forEachPiece(_ body: (UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>, UnsafeBufferPointer<UInt32>) -> Void) throws {
        let buffers = (0..<3).map { _ in UnsafeMutableBufferPointer<UInt32>.allocate(capacity: Self.pieceSize) }
        defer { buffers.forEach { $0.deallocate() } }
        let columns = [head, code, cost]
        for first in stride(from: 0, to: count, by: Self.pieceSize) {
            let length = min(Self.pieceSize, count - first)
            for (column, buffer) in zip(columns, buffers) {
                try fill(UnsafeMutableBufferPointer(rebasing: buffer[0..<length]), from: column, at: first)
            }
            body(UnsafeBufferPointer(rebasing: buffers[0][0..<length]), UnsafeBufferPointer(rebasing: buffers[1][0..<length]),
                 UnsafeBufferPointer(rebasing: buffers[2][0..<length]))
        }
    }

    private func fill(_ buffer: UnsafeMutableBufferPointer<UInt32>, from column: Column, at first: Int) throws {
        switch column {
        case .memory(let values):
            guard first + buffer.count <= values.count else { throw Self.short(values.count) }
            values.withUnsafeBufferPointer { _ = buffer.initialize(from: $0[first..<(first + buffer.count)]) }
        case .written(let section):
            guard let stream, section.length == count * MemoryLayout<UInt32>.stride else { throw Self.short(section.length / 4) }
            try stream.read(section, from: first, into: buffer)
        }
    }

    private static func short(_ found: Int) -> NavGraphError {
        NavGraphError("customization input: a per-turn array has \(found) entries, fewer than the turn arcs", code: .ioFailure)
    }

    /// The memberwise initializer, for the other modules of the package.
    package init(count: Int, head: Column, code: Column, cost: Column, stream: GraphFileStream?) {
        self.count = count
        self.head = head
        self.code = code
        self.cost = cost
        self.stream = stream
    }
}
