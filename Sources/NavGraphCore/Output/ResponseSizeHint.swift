import Foundation

/// The size of the documents the current thread wrote lately, so that its next buffer is reserved at once instead of
/// growing by doubling (a copy and fresh pages at each step). Kept per thread in a pthread key: server workers each
/// write their own stream of responses.
package enum ResponseSizeHint {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Bytes to reserve for the next document on this thread (at least 1 KB).
    package static var reserve: Int {
        let last = Int(bitPattern: pthread_getspecific(key))
        return max(1024, last + last / 16 + 64)
    }

    /// Records a finished document's size; a smaller one lowers the hint by an eighth at a time, so an occasional
    /// short answer (an error) does not shrink the buffers of the long ones.
    package static func record(_ size: Int) {
        let last = Int(bitPattern: pthread_getspecific(key))
        let next = max(size, last - last / 8)
        if next != last { pthread_setspecific(key, UnsafeRawPointer(bitPattern: next)) }
    }
}
