import Foundation

/// A navgraph file mapped read-only into memory; sections are read in place, never parsed.
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

    /// Maps the file and checks magic, version, sizes and every checksum.
    public init(path: String, verifyChecksums: Bool = true) throws {
        self.path = path
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
            if verifyChecksums {
                let computed = Self.checksums(of: sectionOrder, base: UnsafeRawPointer(mapping))
                for (section, actual) in zip(sectionOrder, computed) where actual != section.crc {
                    throw NavGraphError("\(path): checksum mismatch in section '\(section.name)' (stored \(String(section.crc, radix: 16)), computed \(String(actual, radix: 16))); the file is corrupt")
                }
            }
        } catch {
            munmap(mapping, fileSize)
            throw error
        }
    }

    deinit { munmap(base, fileSize) }

    /// CRC-32 of every section, on all cores (sections dealt out largest first to the least loaded core).
    private static func checksums(of sections: [Section], base: UnsafeRawPointer) -> [UInt32] {
        let workers = Parallel.workerCount
        var assigned = [[Int]](repeating: [], count: workers), load = [Int](repeating: 0, count: workers)
        for index in sections.indices.sorted(by: { sections[$0].length > sections[$1].length }) {
            let worker = load.indices.min { load[$0] < load[$1] } ?? 0
            assigned[worker].append(index)
            load[worker] += sections[index].length
        }
        var result = [UInt32](repeating: 0, count: sections.count)
        result.withUnsafeMutableBufferPointer { buffer in
            let out = SharedBuffer(buffer)
            Parallel.run(workers) { worker in
                for index in assigned[worker] {
                    out.pointer[index] = crc32(UnsafeRawBufferPointer(start: base + sections[index].offset, count: sections[index].length))
                }
            }
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
        guard crc32(table) == tableCRC else { throw NavGraphError("\(path): checksum mismatch in the section table; the file is corrupt") }
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
        return UnsafeRawBufferPointer(start: base + section.offset, count: section.length)
    }
}
