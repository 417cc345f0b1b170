import CCRC32
import Foundation

/// A navgraph file mapped read-only into memory; sections are read in place, never parsed, and checksummed
/// before their first use.
public final class MappedGraphFile: @unchecked Sendable {
    /// One entry of the section table.
    public struct Section: Sendable {
        public let name: String
        public let offset: Int
        public let length: Int
        public let crc: UInt32
        public let elementSize: Int
    }

    public let path: String
    public let sections: [String: Section]
    public let sectionOrder: [Section]
    public let fileSize: Int
    private let base: UnsafeMutableRawPointer

    /// Whether sections are checksummed before their first use.
    public let verifiesChecksums: Bool
    private let verifiedLock = NSLock()
    private var verified: Set<String> = []

    /// Maps the file and checks magic, version, sizes and the section table's checksum. With `verifyChecksums`,
    /// a section's checksum is checked before its first use (`verify`, `array`, `bytes`), so a command reads and
    /// checks only the sections it uses; a mismatch throws there, naming the section.
    public init(path: String, verifyChecksums: Bool = true) throws {
        self.path = path
        verifiesChecksums = verifyChecksums
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw NavGraphError("\(path): cannot open graph file (\(String(cString: strerror(errno))))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw NavGraphError("\(path): cannot stat graph file") }
        fileSize = Int(status.st_size)
        guard fileSize >= GraphFileFormat.headerSize else {
            throw NavGraphError("\(path): not a navgraph file (only \(fileSize) bytes, truncated?)")
        }
        guard let mapping = mmap(nil, fileSize, PROT_READ, MAP_PRIVATE, descriptor, 0), mapping != MAP_FAILED else {
            throw NavGraphError("\(path): mmap failed")
        }
        base = mapping
        do {
            (sections, sectionOrder) = try Self.readTable(base: UnsafeRawPointer(mapping), fileSize: fileSize, path: path)
        } catch {
            munmap(mapping, fileSize)
            throw error
        }
    }

    deinit { munmap(base, fileSize) }

    /// Checks the checksums of the named sections (those not checked yet; unknown names are left to `array`),
    /// on all cores. Throws for the first mismatching section in file order. Does nothing without verification.
    public func verify(_ names: [String]) throws {
        guard verifiesChecksums else { return }
        verifiedLock.lock()
        let wanted = Set(names).subtracting(verified)
        verifiedLock.unlock()
        let pending = sectionOrder.filter { wanted.contains($0.name) }
        if pending.isEmpty { return }
        let computed = Self.checksums(of: pending, base: UnsafeRawPointer(base))
        for (section, actual) in zip(pending, computed) where actual != section.crc {
            throw NavGraphError("\(path): checksum mismatch in section '\(section.name)' (stored \(String(section.crc, radix: 16)), computed \(String(actual, radix: 16))); the file is corrupt")
        }
        verifiedLock.lock()
        verified.formUnion(pending.map(\.name))
        verifiedLock.unlock()
    }

    /// Checks every section's checksum (what a reader that uses all of them would check).
    public func verifyAll() throws { try verify(sectionOrder.map(\.name)) }

    /// CRC-32 of every given section, on all cores: sections are cut into pieces of at most `pieceSize` bytes, the
    /// pieces dealt out to the workers in turn, and each section's pieces combined.
    package static func checksums(of sections: [Section], base: UnsafeRawPointer) -> [UInt32] {
        let pieceSize = 1 << 20
        var pieces: [(section: Int, offset: Int, length: Int)] = []
        for (index, section) in sections.enumerated() {
            var offset = 0
            repeat {
                let length = min(pieceSize, section.length - offset)
                pieces.append((index, section.offset + offset, length))
                offset += length
            } while offset < section.length
        }
        var pieceCRC = [UInt32](repeating: 0, count: pieces.count)
        pieceCRC.withUnsafeMutableBufferPointer { buffer in
            let out = SharedBuffer(buffer), workers = min(Parallel.workerCount, pieces.count)
            Parallel.run(workers) { worker in
                for index in stride(from: worker, to: pieces.count, by: workers) {
                    out.pointer[index] = navgraph_crc32(0, base + pieces[index].offset, pieces[index].length)
                }
            }
        }
        var result = [UInt32](repeating: 0, count: sections.count)
        var first = [Bool](repeating: true, count: sections.count)
        for (piece, crc) in zip(pieces, pieceCRC) {
            result[piece.section] = first[piece.section] ? crc : navgraph_crc32_combine(result[piece.section], crc, piece.length)
            first[piece.section] = false
        }
        return result
    }

    private static func readTable(base: UnsafeRawPointer, fileSize: Int, path: String) throws -> ([String: Section], [Section]) {
        let magic = Array(UnsafeRawBufferPointer(start: base, count: 8))
        guard magic == GraphFileFormat.magic else { throw NavGraphError("\(path): not a navgraph file (bad magic)") }
        let version = base.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
        guard version == GraphFileFormat.version else {
            throw NavGraphError("\(path): graph file format version \(version), this navgraph reads version \(GraphFileFormat.version); re-import the OSM file with navgraph import", code: .badFile)
        }
        let count = Int(base.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian)
        let tableCRC = base.loadUnaligned(fromByteOffset: 16, as: UInt32.self).littleEndian
        let tableSize = count * GraphFileFormat.entrySize
        guard count < 10_000, GraphFileFormat.headerSize + tableSize <= fileSize else {
            throw NavGraphError("\(path): section table runs past the end of the file (truncated?)")
        }
        let table = UnsafeRawBufferPointer(start: base + GraphFileFormat.headerSize, count: tableSize)
        guard navgraph_crc32(0, table.baseAddress, table.count) == tableCRC else { throw NavGraphError("\(path): checksum mismatch in the section table; the file is corrupt") }
        var byName: [String: Section] = [:]
        var order: [Section] = []
        for index in 0..<count {
            let entry = base + GraphFileFormat.headerSize + index * GraphFileFormat.entrySize
            let nameBytes = UnsafeRawBufferPointer(start: entry, count: GraphFileFormat.nameLength).prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            let offset = Int(entry.loadUnaligned(fromByteOffset: 24, as: UInt64.self).littleEndian)
            let length = Int(entry.loadUnaligned(fromByteOffset: 32, as: UInt64.self).littleEndian)
            let crc = entry.loadUnaligned(fromByteOffset: 40, as: UInt32.self).littleEndian
            let elementSize = Int(entry.loadUnaligned(fromByteOffset: 44, as: UInt32.self).littleEndian)
            guard offset >= 0, length >= 0, offset % GraphFileFormat.alignment == 0, offset + length <= fileSize else {
                throw NavGraphError("\(path): section '\(name)' runs past the end of the file (\(offset + length) > \(fileSize) bytes); the file is truncated")
            }
            let section = Section(name: name, offset: offset, length: length, crc: crc, elementSize: elementSize)
            byName[name] = section
            order.append(section)
        }
        return (byName, order)
    }

    /// Typed view of a section; throws if it is missing or its size does not fit the element type.
    public func array<Element: BitwiseCopyable>(_ name: String, of type: Element.Type = Element.self) throws -> UnsafeBufferPointer<Element> {
        guard let section = sections[name] else { throw NavGraphError("\(path): missing section '\(name)'") }
        try verify([name])
        let stride = MemoryLayout<Element>.stride
        guard section.elementSize == stride, section.length % stride == 0 else {
            throw NavGraphError("\(path): section '\(name)' has element size \(section.elementSize), expected \(stride)")
        }
        let start = (base + section.offset).assumingMemoryBound(to: Element.self)
        return UnsafeBufferPointer(start: UnsafePointer(start), count: section.length / stride)
    }

    /// Raw bytes of a section.
    public func bytes(_ name: String) throws -> UnsafeRawBufferPointer {
        guard let section = sections[name] else { throw NavGraphError("\(path): missing section '\(name)'") }
        try verify([name])
        return UnsafeRawBufferPointer(start: base + section.offset, count: section.length)
    }
}
