import Foundation

/// One record of a comma-separated text file: its line number and its fields as byte ranges, trimmed.
/// Valid only inside the `DelimitedLineReader.forEachRecord` body that received it.
public struct DelimitedRecord {
    public let bytes: UnsafeBufferPointer<UInt8>
    public let path: String
    /// 1-based line number in the file (blank and comment lines counted).
    public internal(set) var lineNumber = 0
    /// The whole line, trimmed.
    public internal(set) var line: Range<Int> = 0..<0
    public internal(set) var fields: [Range<Int>] = []
    /// Whether this is the file's first record and the format recognised it as a header row.
    public internal(set) var isHeader = false

    public var count: Int { fields.count }

    /// A field as text.
    public func text(_ field: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[fields[field]]), as: UTF8.self) }

    /// A field as a decimal integer with optional sign, or nil (also on overflow).
    public func integer(_ field: Int) -> Int64? {
        let range = fields[field]
        var index = range.lowerBound
        var negative = false
        if index < range.upperBound && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < range.upperBound else { return nil }
        var value: Int64 = 0
        while index < range.upperBound {
            let digit = Int64(bytes[index]) &- 48
            guard digit >= 0 && digit <= 9 else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(digit)
            guard !overflowA && !overflowB else { return nil }
            value = sum
            index += 1
        }
        return negative ? -value : value
    }

    /// A field as a finite decimal number, or nil.
    public func double(_ field: Int) -> Double? {
        guard let value = Double(text(field)), value.isFinite else { return nil }
        return value
    }

    /// The line as text for messages, cut to 120 characters.
    public var lineText: String {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[line]), as: UTF8.self)
        return text.count > 120 ? String(text.prefix(117)) + "..." : text
    }

    /// `path:line: problem in 'line'`.
    public func error(_ problem: String) -> NavGraphError {
        NavGraphError("\(path):\(lineNumber): \(problem) in '\(lineText)'")
    }
}

/// The one reader of comma-separated input files (pairs, points, traffic): LF or CRLF line ends, a UTF-8 BOM,
/// blank lines, `#` comment lines, whitespace (and double quotes) around fields, and an optional header row that
/// the format recognises from the first record. Lines are found in the bytes with memchr; nothing is split as
/// String and the field array is reused, so 600k-line files stay fast.
public enum DelimitedLineReader {
    /// The file's bytes, or a clear error naming the path.
    public static func contents(path: String, what: String) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw NavGraphError("\(path): cannot read \(what) (no such file)", code: .badFile)
        }
        guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path) else {
            throw NavGraphError("\(path): cannot read \(what)\(isDirectory.boolValue ? " (a directory)" : " (permission denied?)")", code: .badFile)
        }
        return data
    }

    /// Calls `body` for every record of `data`; `isHeader` sees the first record and says whether it is a header row.
    public static func forEachRecord(in data: Data, path: String, isHeader: (DelimitedRecord) -> Bool,
                                     _ body: (DelimitedRecord) throws -> Void) throws {
        try data.withUnsafeBytes { raw in
            try forEachRecord(in: raw.bindMemory(to: UInt8.self), path: path, isHeader: isHeader, body)
        }
    }

    /// The same over bytes already in memory.
    public static func forEachRecord(in bytes: UnsafeBufferPointer<UInt8>, path: String, isHeader: (DelimitedRecord) -> Bool,
                                     _ body: (DelimitedRecord) throws -> Void) throws {
        var record = DelimitedRecord(bytes: bytes, path: path)
        guard let base = bytes.baseAddress else { return }
        var lineStart = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { lineStart = 3 }
        var lineNumber = 0, first = true
        while lineStart < bytes.count {
            let lineEnd: Int
            if let newline = memchr(base + lineStart, Int32(UInt8(ascii: "\n")), bytes.count - lineStart) {
                lineEnd = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
            } else {
                lineEnd = bytes.count
            }
            lineNumber += 1
            let line = trimmed(bytes, lineStart..<lineEnd)
            lineStart = lineEnd + 1
            if line.isEmpty || bytes[line.lowerBound] == UInt8(ascii: "#") { continue }
            record.lineNumber = lineNumber
            record.line = line
            record.fields.removeAll(keepingCapacity: true)
            var fieldStart = line.lowerBound
            for index in line where bytes[index] == UInt8(ascii: ",") {
                record.fields.append(unquoted(bytes, trimmed(bytes, fieldStart..<index)))
                fieldStart = index + 1
            }
            record.fields.append(unquoted(bytes, trimmed(bytes, fieldStart..<line.upperBound)))
            record.isHeader = first && isHeader(record)
            first = false
            try body(record)
        }
    }

    /// The range without leading and trailing spaces, tabs and carriage returns.
    @inline(__always)
    package static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        @inline(__always) func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 13 }
        var start = range.lowerBound, end = range.upperBound
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    /// `"2"` as `2` (spreadsheet exports quote fields); quotes inside a field are left alone.
    @inline(__always)
    static func unquoted(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        guard range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "\""), bytes[range.upperBound - 1] == UInt8(ascii: "\"") else { return range }
        return trimmed(bytes, (range.lowerBound + 1)..<(range.upperBound - 1))
    }
}
