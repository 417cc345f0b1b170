import CChecksum
import Foundation

/// Layout constants of the navgraph file: a header, a section table, then 64-byte aligned sections.
public enum GraphFileFormat {
    public static let magic: [UInt8] = Array("NAVGRAPH".utf8)
    /// 3: guidance sections (traffic controls, exit numbers, lanes, destinations, junction adjacency).
    /// 5: vehicle profiles (per-profile times, flags, turn costs and metrics; truck limits; the cycling/walking road set).
    /// 6: localized street names (`name:XX` of the guidance languages, per way).
    public static let version: UInt32 = 6
    public static let alignment = 64
    public static let nameLength = 24
    /// Header: magic (8), version (4), section count (4), table CRC (4), reserved (4).
    public static let headerSize = 24
    /// Table entry: name (24), offset (8), length (8), CRC (4), element size (4).
    public static let entrySize = 48
}

/// Collects named sections and writes them as one checksummed file, atomically (see AtomicFileOutput).
public struct GraphFileWriter {
    /// One section waiting to be written: its bytes stay in the caller's array (shared, not copied) until written.
    private struct PendingSection {
        let name: String
        let elementSize: Int
        let byteCount: Int
        let withBytes: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    }
    private var sections: [PendingSection] = []
    /// Maps the names given to `add` onto the names written (a road set's prefix); identity by default.
    public var rename: (String) -> String = { $0 }

    public init() {}

    public mutating func add<Element: BitwiseCopyable>(_ given: String, _ values: ContiguousArray<Element>) {
        let name = rename(given)
        // A name may fill all 24 bytes (no terminating zero; the reader stops at 24): restriction.viaPathFirst does.
        precondition(name.utf8.count <= GraphFileFormat.nameLength, "section name too long: \(name)")
        sections.append(PendingSection(name: name, elementSize: MemoryLayout<Element>.stride,
                                       byteCount: values.count * MemoryLayout<Element>.stride,
                                       withBytes: { body in try values.withUnsafeBytes { try body($0) } }))
    }

    /// Adds a section from memory that `owner` keeps alive (held here until written), without copying it.
    public mutating func add<Element: BitwiseCopyable>(_ given: String, _ values: UnsafeBufferPointer<Element>, owner: AnyObject) {
        let name = rename(given)
        precondition(name.utf8.count <= GraphFileFormat.nameLength, "section name too long: \(name)")
        sections.append(PendingSection(name: name, elementSize: MemoryLayout<Element>.stride,
                                       byteCount: values.count * MemoryLayout<Element>.stride,
                                       withBytes: { body in try withExtendedLifetime(owner) { try body(UnsafeRawBufferPointer(values)) } }))
    }

    public mutating func addData(_ given: String, _ bytes: Data) {
        let name = rename(given)
        precondition(name.utf8.count <= GraphFileFormat.nameLength, "section name too long: \(name)")
        sections.append(PendingSection(name: name, elementSize: 1, byteCount: bytes.count,
                                       withBytes: { body in try bytes.withUnsafeBytes { try body($0) } }))
    }

    /// Adds another writer's sections after these, in their order.
    public mutating func append(_ other: GraphFileWriter) {
        sections.append(contentsOf: other.sections)
    }

    public func write(to path: String) throws {
        let tableSize = GraphFileFormat.headerSize + sections.count * GraphFileFormat.entrySize
        var offset = align(tableSize)
        var table = Data()
        var layout: [(offset: Int, section: PendingSection)] = []
        // The checksums (a CPU second per GB) are computed on concurrent threads, the largest sections first.
        let checksums = SectionChecksums(count: sections.count)
        let bySize = sections.indices.sorted { sections[$0].byteCount > sections[$1].byteCount }
        PhaseWorkers.run(sections.count) { rank in
            let index = bySize[rank]
            do { try sections[index].withBytes { checksums.values[index] = navgraph_crc32(0, $0.baseAddress, $0.count) } } catch { checksums.fail(error) }
        }
        if let error = checksums.error { throw error }
        for (index, section) in sections.enumerated() {
            var name = Array(section.name.utf8)
            name += [UInt8](repeating: 0, count: GraphFileFormat.nameLength - name.count)
            table.append(contentsOf: name)
            appendInteger(UInt64(offset), to: &table)
            appendInteger(UInt64(section.byteCount), to: &table)
            appendInteger(checksums.values[index], to: &table)
            appendInteger(UInt32(section.elementSize), to: &table)
            layout.append((offset, section))
            offset = align(offset + section.byteCount)
        }
        var header = Data(GraphFileFormat.magic)
        appendInteger(GraphFileFormat.version, to: &header)
        appendInteger(UInt32(sections.count), to: &header)
        appendInteger(table.withUnsafeBytes { navgraph_crc32(0, $0.baseAddress, $0.count) }, to: &header)
        appendInteger(UInt32(0), to: &header)

        var output = try AtomicFileOutput(path: path)
        do {
            var position = 0
            func write(_ data: Data) throws {
                try output.write(data)
                position += data.count
            }
            try write(header)
            try write(table)
            for (sectionOffset, section) in layout {
                if sectionOffset > position { try write(Data(count: sectionOffset - position)) }
                // Straight from the caller's array: no copy of the section in memory.
                try section.withBytes { buffer in
                    guard let base = buffer.baseAddress, buffer.count > 0 else { return }
                    try write(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: buffer.count, deallocator: .none))
                }
            }
            if align(position) > position { try write(Data(count: align(position) - position)) }
        } catch {
            output.abandon()
            throw error
        }
        try output.commit()
    }

    private func align(_ value: Int) -> Int {
        (value + GraphFileFormat.alignment - 1) / GraphFileFormat.alignment * GraphFileFormat.alignment
    }

    private func appendInteger<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}

/// Each section's CRC-32 (or the error reading it), written by the checksum threads at disjoint indices.
private final class SectionChecksums: @unchecked Sendable {
    let values: UnsafeMutableBufferPointer<UInt32>
    private let lock = NSLock()
    private var failure: (any Error)?
    var error: (any Error)? { lock.withLock { failure } }

    init(count: Int) {
        values = .allocate(capacity: max(1, count))
        values.initialize(repeating: 0)
    }
    deinit { values.deallocate() }

    func fail(_ error: any Error) { lock.withLock { if failure == nil { failure = error } } }
}
