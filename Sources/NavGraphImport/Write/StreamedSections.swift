import Foundation
import NavGraphCore

/// One road set's part of a graph file being streamed (GraphFileStream): `add` writes a section at once and keeps only
/// its table entry, so the section's array can be freed as soon as the caller drops it. `entries` lists the sections
/// in the order added (the order of the file's section table); `write` writes one without an entry, for a section
/// made early (a metric right after its customization) whose entry is `record`ed later at its place in the table;
/// `addAhead` writes one early whose entry the `add` of the same name (its array may be empty by then) or `place` puts in
/// its place.
package struct StreamedSections {
    package let stream: GraphFileStream
    /// Maps the names given to `add` onto the names written (a road set's prefix); identity by default.
    package var rename: (String) -> String = { $0 }
    private(set) var entries: [GraphFileSection] = []
    /// Sections written by `addAhead` and not yet placed in the table, by the name given.
    private(set) var ahead: [String: GraphFileSection] = [:]

    package init(stream: GraphFileStream) { self.stream = stream }

    package mutating func add<Element: BitwiseCopyable>(_ given: String, _ values: ContiguousArray<Element>) throws {
        if let written = ahead.removeValue(forKey: given) { entries.append(written); return }
        entries.append(try write(given, values))
    }

    /// Writes a section now; the later `add` of the same name puts its entry in the table instead of writing it again.
    @discardableResult
    package mutating func addAhead<Element: BitwiseCopyable>(_ given: String, _ values: ContiguousArray<Element>) throws -> GraphFileSection {
        let section = try write(given, values)
        ahead[given] = section
        return section
    }

    package mutating func addData(_ given: String, _ bytes: Data) throws {
        let name = rename(given)
        entries.append(try bytes.withUnsafeBytes { try stream.append(name: name, elementSize: 1, bytes: $0) })
    }

    /// Takes a section written by `write` (on another thread) as written ahead, as `addAhead` would.
    package mutating func noteAhead(_ given: String, _ section: GraphFileSection) { ahead[given] = section }

    /// Writes a section now; its entry is the caller's to `record`.
    package func write<Element: BitwiseCopyable>(_ given: String, _ values: ContiguousArray<Element>) throws -> GraphFileSection {
        let name = rename(given)
        return try values.withUnsafeBytes { try stream.append(name: name, elementSize: MemoryLayout<Element>.stride, bytes: $0) }
    }

    /// Writes a section from memory the caller keeps alive for the call.
    package func write<Element: BitwiseCopyable>(_ given: String, _ values: UnsafeBufferPointer<Element>) throws -> GraphFileSection {
        try stream.append(name: rename(given), elementSize: MemoryLayout<Element>.stride, bytes: UnsafeRawBufferPointer(values))
    }

    /// Room for a section written in place (GraphFileStream.reserve); its entry, from `stream.finish`, is the caller's
    /// to `record`.
    package func reserve<Element: BitwiseCopyable>(_ given: String, count: Int, of type: Element.Type) throws -> MappedSection<Element> {
        try stream.reserve(name: rename(given), count: count, of: type)
    }

    /// Puts the entry of a section written by `addAhead` into the table here; a section never written ahead fails.
    package mutating func place(_ given: String) throws {
        guard let written = ahead.removeValue(forKey: given) else {
            throw NavGraphError("\(stream.path): section '\(rename(given))' was not written ahead", code: .ioFailure)
        }
        entries.append(written)
    }

    /// Whether a section of this name was written by `addAhead` and not placed yet.
    package func isAhead(_ given: String) -> Bool { ahead[given] != nil }

    /// Puts sections written earlier into the table here.
    package mutating func record(_ written: [GraphFileSection]) { entries.append(contentsOf: written) }
}
