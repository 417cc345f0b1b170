import Foundation

/// Layout constants of the navgraph file: a header, a section table, then 64-byte aligned sections.
public enum GraphFileFormat {
    public static let magic: [UInt8] = Array("NAVGRAPH".utf8)
    /// 3: guidance sections (traffic controls, exit numbers, lanes, destinations, junction adjacency).
    /// 5: vehicle profiles (per-profile times, flags, turn costs and metrics; truck limits; the cycling/walking road set).
    /// 6: localized street names (`name:XX` of the guidance languages, per way).
    /// 7: metrics without middle nodes; the hierarchy's downward arcs (`cch.firstDown`, `cch.downArcs`).
    /// 8: a middle hint per metric, arc and direction (`metric.hint`, `CCHMetric.middleHint`).
    public static let version: UInt32 = 8
    public static let alignment = 64
    public static let nameLength = 24
    /// Header: magic (8), version (4), section count (4), table CRC (4), reserved (4).
    public static let headerSize = 24
    /// Table entry: name (24), offset (8), length (8), CRC (4), element size (4).
    public static let entrySize = 48

    /// `value` rounded up to the section alignment.
    package static func aligned(_ value: Int) -> Int { (value + alignment - 1) / alignment * alignment }
}

/// Collects named sections and writes them as one checksummed file, atomically (see GraphFileStream). The importer
/// streams its sections instead (StreamedSections); this writer is for small files made in one go (traffic).
public struct GraphFileWriter {
    /// One section waiting to be written: its bytes stay in the caller's array (shared, not copied) until written.
    private struct PendingSection {
        package let name: String
        package let elementSize: Int
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

    /// Writes the sections, in the order added, as one file (through GraphFileStream: atomically, checksummed).
    public func write(to path: String) throws {
        let stream = try GraphFileStream(path: path, tableCapacity: sections.count)
        var table: [GraphFileSection] = []
        do {
            for section in sections {
                // Straight from the caller's array: no copy of the section in memory.
                try section.withBytes { table.append(try stream.append(name: section.name, elementSize: section.elementSize, bytes: $0)) }
            }
        } catch {
            stream.abandon()
            throw error
        }
        try stream.commit(table)
    }
}
