import Foundation

/// One 64-byte cache line per directed edge arriving at a junction, shared by the step builder's `TurnMemo` (bytes
/// 0-15), `IntersectionMemo` (bytes 16-47) and `EdgeBearingMemo` (bytes 48-63), so that passing a junction the
/// builder has seen reads one line for all three. The memory comes zeroed from the system (`zeroedMemory`) and only the lines of edges routed over are ever
/// touched. Owned by the two memos of one step builder (one thread); freed when both are gone.
final class MemoLines {
    /// 64-bit words per line.
    static let wordsPerLine = 8
    /// The first line, aligned to 64 bytes inside `allocation`.
    package let lines: UnsafeMutablePointer<UInt64>
    private let allocation: UnsafeMutablePointer<UInt64>
    /// Number of lines (directed edges), at least 1.
    package let count: Int

    package init(directedEdgeCount: Int) {
        count = max(directedEdgeCount, 1)
        allocation = zeroedMemory(count: Self.wordsPerLine * (count + 1))
        let misalignment = Int(UInt(bitPattern: allocation) % 64)
        lines = allocation + (misalignment == 0 ? 0 : (64 - misalignment) / 8)
    }

    deinit { free(allocation) }

    /// The line of directed edge d (the caller checks `0 <= d < count`).
    @inline(__always) package func line(_ d: Int) -> UnsafeMutablePointer<UInt64> { lines + Self.wordsPerLine * d }
}
