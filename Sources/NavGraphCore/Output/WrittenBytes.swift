import Foundation

/// A finished document in a malloc'd buffer that this object frees: handed to the socket layer, or viewed as `Data`,
/// without a copy. Immutable once made.
package final class WrittenBytes: @unchecked Sendable {
    package let base: UnsafeMutableRawPointer
    package let count: Int

    /// Takes ownership of `base` (from malloc or realloc), which holds `count` bytes.
    package init(taking base: UnsafeMutableRawPointer, count: Int) {
        self.base = base
        self.count = count
    }

    deinit { free(base) }

    /// The bytes as `Data`, sharing this buffer (the `Data` keeps it alive).
    package var data: Data {
        guard count > 0 else { return Data() }
        return Data(bytesNoCopy: base, count: count, deallocator: .custom { _, _ in withExtendedLifetime(self) {} })
    }
}
