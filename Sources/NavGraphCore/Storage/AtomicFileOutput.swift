import CFileWriteback
import Foundation

/// An output file that appears at its path only when complete. On Linux it is written with no name at all
/// (O_TMPFILE) and linked in at the end, so a process killed mid-write leaves nothing behind; elsewhere, or where
/// the file system lacks O_TMPFILE, it is written under a hidden temporary name and renamed.
/// Errors name the path and the system's reason (permission denied, no space left on device).
package struct AtomicFileOutput {
    package let path: String
    private let descriptor: Int32
    /// The hidden name written to when O_TMPFILE is unavailable.
    private let namedTemporary: String?
    /// Writes large appends around the page cache, where the file system allows it; opened at the first large append.
    private var direct: DirectAppender?
    private var directOpened = false
    private(set) var bytesWritten = 0
    /// Whether large appends went around the page cache: the file system took the direct descriptor and has refused
    /// no direct write so far (false before the first large append).
    package var writesAroundPageCache: Bool { direct?.isEnabled ?? false }

    /// A hidden name in the output's folder, unique per write (concurrent writers of one path never share one).
    private static func temporaryName(for path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        let unique = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        return (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).tmp-\(getpid())-\(unique)"
    }

    private static func reason() -> String { String(cString: strerror(errno)) }

    package init(path: String) throws {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        #if os(Linux)
        // O_TMPFILE is __O_TMPFILE | O_DIRECTORY; Glibc's macro does not import into Swift.
        let unnamed = open(directory.isEmpty ? "." : directory, Int32(0o20000000) | O_DIRECTORY | O_RDWR | O_CLOEXEC, 0o644)
        #else
        let unnamed: Int32 = -1
        #endif
        if unnamed >= 0 {
            descriptor = unnamed
            namedTemporary = nil
            return
        }
        if errno == EACCES || errno == EROFS || errno == ENOENT || errno == ENOTDIR {
            throw NavGraphError("\(path): cannot create the output file (\(Self.reason()))", code: .ioFailure)
        }
        let temporary = Self.temporaryName(for: path)
        let named = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard named >= 0 else { throw NavGraphError("\(path): cannot create the output file (\(Self.reason()))", code: .ioFailure) }
        descriptor = named
        namedTemporary = temporary
    }

    package mutating func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write($0) }
    }

    /// Appends `buffer` at the end of what was written. Large appends go around the page cache (DirectAppender),
    /// apart from their unaligned first and last bytes.
    package mutating func write(_ buffer: UnsafeRawBufferPointer) throws {
        guard buffer.count >= DirectAppender.minimumCount else { return try appendBuffered(buffer) }
        if !directOpened {
            directOpened = true
            direct = DirectAppender(of: descriptor)
        }
        guard let direct, direct.isEnabled else { return try appendBuffered(buffer) }
        let block = DirectAppender.blockSize
        let head = min(buffer.count, (block - bytesWritten % block) % block)
        try appendBuffered(UnsafeRawBufferPointer(rebasing: buffer[0..<head]))
        let whole = (buffer.count - head) / block * block
        let done = direct.write(UnsafeRawBufferPointer(rebasing: buffer[head..<(head + whole)]), at: bytesWritten)
        if done > 0 {
            bytesWritten += done
            guard lseek(descriptor, off_t(bytesWritten), SEEK_SET) == off_t(bytesWritten) else {
                throw NavGraphError("\(path): cannot move to byte \(bytesWritten) (\(Self.reason()))", code: .ioFailure)
            }
        }
        try appendBuffered(UnsafeRawBufferPointer(rebasing: buffer[(head + done)...]))
    }

    /// Appends `buffer` through the page cache.
    private mutating func appendBuffered(_ buffer: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < buffer.count {
            let count = Foundation.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw NavGraphError("\(path): writing failed after \(bytesWritten + offset) bytes (\(Self.reason()))", code: .ioFailure)
            }
            offset += count
        }
        bytesWritten += buffer.count
    }

    /// Appends `count` bytes of room at the next multiple of `alignment` (a page size, so that the room can be mapped)
    /// with its disk blocks allocated, so that writing through a mapping cannot fail for want of space, and returns
    /// where the room starts. The room reads as zeros until written.
    package mutating func reserve(_ count: Int, alignment: Int) throws -> Int {
        let position = (bytesWritten + alignment - 1) / alignment * alignment
        let end = position + count
        let status = posix_fallocate(descriptor, off_t(bytesWritten), off_t(end - bytesWritten))
        guard status == 0 else {
            throw NavGraphError("\(path): writing failed after \(bytesWritten) bytes (room for \(count) more could not be allocated: "
                                + "\(String(cString: strerror(status))))", code: .ioFailure)
        }
        guard lseek(descriptor, off_t(end), SEEK_SET) == off_t(end) else {
            throw NavGraphError("\(path): cannot move to byte \(end) (\(Self.reason()))", code: .ioFailure)
        }
        bytesWritten = end
        return position
    }

    /// Maps `count` bytes written or reserved at `position` (a multiple of the page size) for writing; the caller
    /// unmaps them.
    package func map(at position: Int, count: Int) throws -> UnsafeMutableRawBufferPointer {
        precondition(position + count <= bytesWritten, "mapping past the end of the written bytes")
        guard count > 0 else { return UnsafeMutableRawBufferPointer(start: nil, count: 0) }
        let address = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, off_t(position))
        guard let address, address != MAP_FAILED else {
            throw NavGraphError("\(path): cannot map \(count) bytes at byte \(position) for writing (\(Self.reason()))", code: .ioFailure)
        }
        return UnsafeMutableRawBufferPointer(start: address, count: count)
    }

    /// Starts writing bytes already written (or written through a mapping) to disk without waiting for it: a hint,
    /// so that the final flush in `commit` has less to wait for; a failure shows there.
    func startWriteback(at position: Int, count: Int) {
        _ = navgraph_start_writeback(descriptor, Int64(position), Int64(count))
    }

    /// Overwrites bytes already written (a header reserved ahead), leaving the end of the file where it is.
    package func write(_ data: Data, at position: Int) throws {
        precondition(position + data.count <= bytesWritten, "overwrite past the end of the written bytes")
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            try transferAll(buffer.count, at: position, failing: "writing failed") { offset in
                pwrite(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, off_t(position + offset))
            }
        }
    }

    /// Reads back bytes already written at `position` (opened for reading too: a section written ahead read in pieces).
    package func read(into buffer: UnsafeMutableRawBufferPointer, at position: Int) throws {
        precondition(position + buffer.count <= bytesWritten, "read past the end of the written bytes")
        try transferAll(buffer.count, at: position, failing: "reading back failed") { offset in
            pread(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, off_t(position + offset))
        }
    }

    /// Repeats a positional read or write (`transfer(offset)` moves the bytes from `offset` on and says how many, -1
    /// on error) until `count` bytes are done, again after an interrupted call; a failed or empty one throws
    /// "`failure` at byte N" with the system's reason.
    private func transferAll(_ count: Int, at position: Int, failing failure: String, _ transfer: (Int) -> Int) throws {
        var offset = 0
        while offset < count {
            let done = transfer(offset)
            if done < 0 && errno == EINTR { continue }
            guard done > 0 else {
                throw NavGraphError("\(path): \(failure) at byte \(position + offset) (\(Self.reason()))", code: .ioFailure)
            }
            offset += done
        }
    }

    /// Flushes the file to disk and gives it its name, replacing any file there.
    package func commit() throws {
        direct?.close()
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            let message = "\(path): writing failed at the final flush (\(Self.reason()))"
            abandonName()
            throw NavGraphError(message, code: .ioFailure)
        }
        let temporary: String
        if let namedTemporary {
            temporary = namedTemporary
        } else {
            temporary = Self.temporaryName(for: path)
            guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, temporary, AT_SYMLINK_FOLLOW) == 0 else {
                throw NavGraphError("\(path): cannot give the finished file a name (\(Self.reason()))", code: .ioFailure)
            }
        }
        guard rename(temporary, path) == 0 else {
            let message = "\(path): cannot move the finished file into place (\(Self.reason()))"
            unlink(temporary)
            throw NavGraphError(message, code: .ioFailure)
        }
    }

    /// Closes without publishing: an unnamed file vanishes, a named temporary is removed.
    package func abandon() {
        direct?.close()
        close(descriptor)
        abandonName()
    }

    private func abandonName() {
        if let namedTemporary { unlink(namedTemporary) }
    }
}

/// The O_DIRECT side of an AtomicFileOutput: whole blocks copied into an aligned buffer of its own and written from
/// there, around the page cache. On the machines measured here a buffered write of gigabytes runs at about 0.4 GB/s
/// (the kernel copies each byte into fresh page-cache memory), a direct one at about 1.5 GB/s with no copy in the
/// kernel (Benchmarks/IMPORT.md, "Design, phase by phase"; the measurements are in git history). Lives as long as its output; not thread-safe (GraphFileStream
/// writes under its lock).
package final class DirectAppender: @unchecked Sendable {
    /// Offsets, sizes and the buffer's address are multiples of this (a page: a multiple of any device block).
    static let blockSize = 4096
    /// Appends smaller than this go through the page cache.
    static let minimumCount = 1 << 20
    private static let bufferSize = 8 << 20
    private let descriptor: Int32
    private let buffer: UnsafeMutableRawPointer
    private var closed = false
    /// False once a direct write was refused or failed: the output then writes buffered.
    private(set) var isEnabled = true

    package init?(of file: Int32) {
        let descriptor = navgraph_open_direct(file)
        guard descriptor >= 0 else { return nil }
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, Self.blockSize, Self.bufferSize) == 0, let memory else {
            Foundation.close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        buffer = memory
    }

    deinit {
        close()
        free(buffer)
    }

    /// Writes `bytes` (a multiple of the block size) at `position` (a multiple of the block size) and returns how many
    /// bytes it wrote: all of them, or fewer when a direct write was refused (a file system without O_DIRECT), cut
    /// short or failed (a full disk, a file size limit). The appender is then disabled, and the caller writes the rest
    /// through the page cache, where a real failure shows with the usual message.
    package func write(_ bytes: UnsafeRawBufferPointer, at position: Int) -> Int {
        precondition(bytes.count % Self.blockSize == 0 && position % Self.blockSize == 0, "direct write not block-aligned")
        var done = 0
        while done < bytes.count && isEnabled {
            let chunk = min(Self.bufferSize, bytes.count - done)
            if let source = bytes.baseAddress { buffer.copyMemory(from: source + done, byteCount: chunk) }
            var written = 0
            while written < chunk {
                let count = pwrite(descriptor, buffer + written, chunk - written, off_t(position + done + written))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { isEnabled = false; return done + written }
                written += count
                if count % Self.blockSize != 0 && written < chunk { isEnabled = false; return done + written }
            }
            done += chunk
        }
        return done
    }

    /// Closes the direct descriptor (the output's own stays open).
    package func close() {
        guard !closed else { return }
        closed = true
        Foundation.close(descriptor)
    }
}
