import CCRC32
import Foundation

/// One entry of a graph file's section table: where a written section lies, its size and checksum.
public struct GraphFileSection: Sendable, Equatable {
    public let name: String
    public let offset: Int
    public let length: Int
    public let crc: UInt32
    public let elementSize: Int
}

/// A section of a graph file being streamed, mapped so that it is written in place (GraphFileStream.reserve); the
/// mapping lives until `GraphFileStream.finish` or the object's end. Its elements start out zero.
package final class MappedSection<Element: BitwiseCopyable>: @unchecked Sendable {
    package let name: String
    package let offset: Int
    fileprivate let bytes: UnsafeMutableRawBufferPointer
    private var mapped = true

    fileprivate init(name: String, offset: Int, bytes: UnsafeMutableRawBufferPointer) {
        self.name = name; self.offset = offset; self.bytes = bytes
    }

    /// The elements, writable while mapped.
    package var elements: UnsafeMutableBufferPointer<Element> { bytes.bindMemory(to: Element.self) }

    fileprivate func unmap() {
        guard mapped else { return }
        mapped = false
        if let base = bytes.baseAddress { munmap(base, bytes.count) }
    }

    deinit { unmap() }
}

/// A graph file written section by section, each as soon as it is final, so that no section has to stay in memory
/// until the end. Room for the header and the section table (`tableCapacity` entries) is reserved at the start;
/// sections follow at 64-byte boundaries, each checksummed before it is written; `commit` writes the header and the
/// table, in the order it is given (whatever order the sections were written in), and only then does the file appear
/// at its path (AtomicFileOutput). Threads may append at once: the checksums run on the callers' threads, the writes
/// one at a time. After a failed write every later call throws the same error; a stream that is not committed
/// (an error, or dropped) leaves nothing at the path.
package final class GraphFileStream: @unchecked Sendable {
    package let path: String
    package let tableCapacity: Int
    private let lock = NSLock()
    private var output: AtomicFileOutput
    private var failure: (any Error)?
    private var closed = false

    package init(path: String, tableCapacity: Int) throws {
        self.path = path
        self.tableCapacity = tableCapacity
        output = try AtomicFileOutput(path: path)
        do {
            try output.write(Data(count: GraphFileFormat.aligned(GraphFileFormat.headerSize + tableCapacity * GraphFileFormat.entrySize)))
        } catch {
            output.abandon()
            closed = true
            throw error
        }
    }

    deinit { if !closed { output.abandon() } }

    /// Sections at least this large are handed to the disk as soon as they are written (the final flush waits less).
    static let writebackSize = 1 << 20

    /// The first write error, if a write failed.
    package var error: (any Error)? { lock.withLock { failure } }

    /// Writes one section at the next aligned offset and returns its table entry.
    package func append(name: String, elementSize: Int, bytes: UnsafeRawBufferPointer) throws -> GraphFileSection {
        // A name may fill all 24 bytes (no terminating zero; the reader stops at 24): restriction.viaPathFirst does.
        precondition(name.utf8.count <= GraphFileFormat.nameLength, "section name too long: \(name)")
        let crc = Self.checksum(bytes)
        return try lock.withLock {
            if let failure { throw failure }
            guard !closed else { throw NavGraphError("\(path): section '\(name)' written after the file was closed", code: .ioFailure) }
            do {
                let offset = GraphFileFormat.aligned(output.bytesWritten)
                if offset > output.bytesWritten { try output.write(Data(count: offset - output.bytesWritten)) }
                try output.write(bytes)
                if bytes.count >= Self.writebackSize { output.startWriteback(at: offset, count: bytes.count) }
                return GraphFileSection(name: name, offset: offset, length: bytes.count, crc: crc, elementSize: elementSize)
            } catch {
                failure = error
                throw error
            }
        }
    }

    /// Room for one section of `count` elements, mapped for the caller to write in place (no copy into the file);
    /// `finish` checksums it and gives its table entry. The room lies at a page boundary (a multiple of the 64-byte
    /// section alignment).
    package func reserve<Element: BitwiseCopyable>(name: String, count: Int, of type: Element.Type) throws -> MappedSection<Element> {
        precondition(name.utf8.count <= GraphFileFormat.nameLength, "section name too long: \(name)")
        let length = count * MemoryLayout<Element>.stride
        let (offset, bytes) = try lock.withLock {
            if let failure { throw failure }
            guard !closed else { throw NavGraphError("\(path): section '\(name)' written after the file was closed", code: .ioFailure) }
            do {
                let offset = try output.reserve(length, alignment: Int(sysconf(Int32(_SC_PAGESIZE))))
                return (offset, try output.map(at: offset, count: length))
            } catch {
                failure = error
                throw error
            }
        }
        return MappedSection(name: name, offset: offset, bytes: bytes)
    }

    /// The table entry of a section written in place; its mapping is released.
    package func finish<Element>(_ section: MappedSection<Element>) -> GraphFileSection {
        let bytes = UnsafeRawBufferPointer(section.bytes)
        let entry = GraphFileSection(name: section.name, offset: section.offset, length: bytes.count, crc: Self.checksum(bytes),
                                     elementSize: MemoryLayout<Element>.stride)
        section.unmap()
        lock.withLock { if !closed { output.startWriteback(at: section.offset, count: bytes.count) } }
        return entry
    }

    /// Reads `buffer.count` elements of a section written by this stream, from element `first` on.
    package func read<Element: BitwiseCopyable>(_ section: GraphFileSection, from first: Int, into buffer: UnsafeMutableBufferPointer<Element>) throws {
        precondition(section.elementSize == MemoryLayout<Element>.stride && (first + buffer.count) * section.elementSize <= section.length,
                     "read outside section '\(section.name)'")
        // A copy taken under the lock: its descriptor and written length stay valid for positional reads.
        let written = try lock.withLock {
            if let failure { throw failure }
            guard !closed else { throw NavGraphError("\(path): section '\(section.name)' read after the file was closed", code: .ioFailure) }
            return output
        }
        try written.read(into: UnsafeMutableRawBufferPointer(buffer), at: section.offset + first * section.elementSize)
    }

    /// Writes the header and the section table (`sections` in table order), flushes, and gives the file its name.
    package func commit(_ sections: [GraphFileSection]) throws {
        try lock.withLock {
            if let failure { throw failure }
            guard !closed else { throw NavGraphError("\(path): the graph file was already closed", code: .ioFailure) }
            closed = true
            do {
                guard sections.count <= tableCapacity else {
                    throw NavGraphError("\(path): \(sections.count) sections, room was reserved for \(tableCapacity)", code: .ioFailure)
                }
                let end = GraphFileFormat.aligned(output.bytesWritten)
                if end > output.bytesWritten { try output.write(Data(count: end - output.bytesWritten)) }
                var table = Data()
                for section in sections {
                    var name = Array(section.name.utf8)
                    name += [UInt8](repeating: 0, count: GraphFileFormat.nameLength - name.count)
                    table.append(contentsOf: name)
                    Self.append(UInt64(section.offset), to: &table)
                    Self.append(UInt64(section.length), to: &table)
                    Self.append(section.crc, to: &table)
                    Self.append(UInt32(section.elementSize), to: &table)
                }
                var header = Data(GraphFileFormat.magic)
                Self.append(GraphFileFormat.version, to: &header)
                Self.append(UInt32(sections.count), to: &header)
                Self.append(table.withUnsafeBytes { navgraph_crc32(0, $0.baseAddress, $0.count) }, to: &header)
                Self.append(UInt32(0), to: &header)
                try output.write(header + table, at: 0)
            } catch {
                output.abandon()
                throw error
            }
            try output.commit()
        }
    }

    /// Closes without publishing anything (an error elsewhere ended the import).
    package func abandon() {
        lock.withLock {
            guard !closed else { return }
            closed = true
            output.abandon()
        }
    }

    /// CRC-32 of `bytes`; a large section is cut into pieces checksummed on the workers and combined.
    package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        let pieceSize = 16 << 20
        guard let base = bytes.baseAddress, bytes.count > pieceSize else { return navgraph_crc32(0, bytes.baseAddress, bytes.count) }
        let pieceCount = (bytes.count + pieceSize - 1) / pieceSize
        let pieces = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: pieceCount)
        defer { pieces.deallocate() }
        let out = SharedBuffer(pieces)
        PhaseWorkers.run(pieceCount) { piece in
            let start = piece * pieceSize
            out.pointer[piece] = navgraph_crc32(0, base + start, min(pieceSize, bytes.count - start))
        }
        var crc = pieces[0]
        for piece in 1..<pieceCount {
            crc = navgraph_crc32_combine(crc, pieces[piece], min(pieceSize, bytes.count - piece * pieceSize))
        }
        return crc
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}
