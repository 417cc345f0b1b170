import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Large appends to an output file go around the page cache (O_DIRECT, DirectAppender) in whole blocks, with the
/// unaligned bytes around them written buffered. What is read back must be exactly what was written, wherever the
/// appends start and end.
@Suite struct CraftedDirectWriteTests {
    /// Bytes that differ from one position to the next (so that a block written at the wrong offset shows).
    func pattern(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    /// Whether the file system of `path`'s folder gives a direct descriptor (DirectAppender) for a file there.
    func directWritesOffered(beside path: String) -> Bool {
        let probe = path + ".probe"
        let descriptor = open(probe, O_RDWR | O_CREAT | O_TRUNC, 0o644)
        defer { if descriptor >= 0 { close(descriptor) }; unlink(probe) }
        return descriptor >= 0 && DirectAppender(of: descriptor) != nil
    }

    @Test func largeAppendsAtUnalignedOffsetsReadBackWhole() throws {
        let path = Fixtures.workDirectory.appendingPathComponent("direct-write.bin").path
        try? FileManager.default.removeItem(atPath: path)
        // 100 bytes, then more than one 8 MB bounce buffer starting at byte 100, then a small tail, then an exactly
        // block-aligned large append.
        let pieces = [pattern(100, seed: 1), pattern((9 << 20) + 123, seed: 2), pattern(7, seed: 3),
                      pattern(4096 - ((100 + (9 << 20) + 123 + 7) % 4096), seed: 4), pattern(2 << 20, seed: 5)]
        var output = try AtomicFileOutput(path: path)
        #expect(!output.writesAroundPageCache, "the direct descriptor is opened at the first large append only")
        for piece in pieces { try piece.withUnsafeBytes { try output.write($0) } }
        // A file system that offers O_DIRECT (a probe file beside the output takes a direct descriptor) must also have
        // taken every direct write (offsets, sizes and the buffer aligned).
        #expect(output.writesAroundPageCache == directWritesOffered(beside: path))
        #expect(output.bytesWritten == pieces.reduce(0) { $0 + $1.count })
        try output.commit()
        let written = try #require(FileManager.default.contents(atPath: path))
        #expect(written == Data(pieces.joined()))
        try FileManager.default.removeItem(atPath: path)
    }

    @Test func anAbandonedOutputLeavesNothing() throws {
        let directory = Fixtures.workDirectory.appendingPathComponent("direct-abandon")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var output = try AtomicFileOutput(path: directory.appendingPathComponent("out.bin").path)
        try pattern(3 << 20, seed: 6).withUnsafeBytes { try output.write($0) }
        output.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
