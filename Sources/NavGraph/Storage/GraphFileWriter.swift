import Foundation

/// Layout constants of the navgraph file: a header, a section table, then 64-byte aligned sections.
public enum GraphFileFormat {
    public static let magic: [UInt8] = Array("NAVGRAPH".utf8)
    /// 3: guidance sections (traffic controls, exit numbers, lanes, destinations, junction adjacency).
    public static let version: UInt32 = 4
    public static let alignment = 64
    public static let nameLength = 24
    /// Header: magic (8), version (4), section count (4), table CRC (4), reserved (4).
    public static let headerSize = 24
    /// Table entry: name (24), offset (8), length (8), CRC (4), element size (4).
    public static let entrySize = 48
}

/// Collects named sections and writes them as one checksummed file, atomically (see AtomicFileOutput).
public struct GraphFileWriter {
    private var sections: [(name: String, elementSize: Int, bytes: Data)] = []

    public init() {}

    public mutating func add<Element: BitwiseCopyable>(_ name: String, _ values: ContiguousArray<Element>) {
        // A name may fill all 24 bytes (no terminating zero; the reader stops at 24). restriction.viaPathFirst does,
        // and `<` here trapped every import in checked (debug) builds while -Ounchecked release builds skipped it.
        precondition(name.utf8.count <= GraphFileFormat.nameLength, "section name too long: \(name)")
        let bytes = values.withUnsafeBytes { Data($0) }
        sections.append((name, MemoryLayout<Element>.stride, bytes))
    }

    public mutating func addData(_ name: String, _ bytes: Data) {
        precondition(name.utf8.count <= GraphFileFormat.nameLength, "section name too long: \(name)")
        sections.append((name, 1, bytes))
    }

    public func write(to path: String) throws {
        let tableSize = GraphFileFormat.headerSize + sections.count * GraphFileFormat.entrySize
        var offset = align(tableSize)
        var table = Data()
        var layout: [(offset: Int, bytes: Data)] = []
        for section in sections {
            var name = Array(section.name.utf8)
            name += [UInt8](repeating: 0, count: GraphFileFormat.nameLength - name.count)
            table.append(contentsOf: name)
            appendInteger(UInt64(offset), to: &table)
            appendInteger(UInt64(section.bytes.count), to: &table)
            appendInteger(section.bytes.withUnsafeBytes { crc32($0) }, to: &table)
            appendInteger(UInt32(section.elementSize), to: &table)
            layout.append((offset, section.bytes))
            offset = align(offset + section.bytes.count)
        }
        var header = Data(GraphFileFormat.magic)
        appendInteger(GraphFileFormat.version, to: &header)
        appendInteger(UInt32(sections.count), to: &header)
        appendInteger(table.withUnsafeBytes { crc32($0) }, to: &header)
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
            for (sectionOffset, bytes) in layout {
                if sectionOffset > position { try write(Data(count: sectionOffset - position)) }
                try write(bytes)
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
