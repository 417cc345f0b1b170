import Foundation

/// Coordinate files through `DelimitedLineReader`: points (`lon,lat` per line) and pairs (`lon,lat,lon,lat`).
///
/// Columns are longitude first unless a header row names latitude first (`lat,lon`, `src_lat,src_lon,...`).
/// A header is recognised by its first field's name (`lon`, `lng`, `longitude`, `src_lon`, `lat`, ...).
/// Values must be finite numbers; their range is left to the router, which names swapped and out-of-range points.
public enum CoordinateCSV {
    /// One origin-destination query of a pairs file, with its line.
    public struct Pair: Sendable {
        public var source: Coordinate
        public var target: Coordinate
        public var lineNumber: Int
    }

    /// One point of a points file, with its line.
    public struct Point: Sendable {
        public var coordinate: Coordinate
        public var lineNumber: Int
    }

    /// The points of a `lon,lat` file, in file order.
    public static func readCoordinates(path: String) throws -> [Coordinate] {
        try readPoints(path: path).map(\.coordinate)
    }

    /// The points of a `lon,lat` file with their lines (none for a file of only headers, comments and blank lines).
    public static func readPoints(path: String) throws -> [Point] {
        var points: [Point] = []
        try read(path: path, what: "points file", columns: 2) { values, line in
            points.append(Point(coordinate: values[0], lineNumber: line))
        }
        return points
    }

    /// The queries of a `lon,lat,lon,lat` pairs file, in file order.
    public static func readPairs(path: String) throws -> [Pair] {
        var pairs: [Pair] = []
        try read(path: path, what: "pairs file", columns: 4) { values, line in
            pairs.append(Pair(source: values[0], target: values[1], lineNumber: line))
        }
        return pairs
    }

    /// Whether a header field names a longitude or latitude column.
    static func coordinateName(_ name: String) -> (isLatitude: Bool, known: Bool) {
        let lower = name.lowercased()
        if lower.contains("lat") || lower == "y" { return (true, true) }
        if lower.contains("lon") || lower.contains("lng") || lower == "x" { return (false, true) }
        return (false, false)
    }

    private static func read(path: String, what: String, columns: Int, _ add: ([Coordinate], Int) -> Void) throws {
        let data = try DelimitedLineReader.contents(path: path, what: what)
        let layout = columns == 2 ? "lon,lat" : "lon,lat,lon,lat"
        var latitudeFirst = false
        var values: [Coordinate] = []
        try DelimitedLineReader.forEachRecord(in: data, path: path, isHeader: { record in
            record.double(0) == nil && coordinateName(record.text(0)).known
        }) { record in
            guard record.count == columns else {
                throw record.error("expected \(columns) columns (\(layout)), got \(record.count)")
            }
            if record.isHeader {
                latitudeFirst = coordinateName(record.text(0)).isLatitude
                for column in 0..<columns {
                    let name = coordinateName(record.text(column))
                    guard name.known else { throw record.error("header column \(column + 1) '\(record.text(column))' is not a lon or lat name") }
                    guard name.isLatitude == (latitudeFirst == (column % 2 == 0)) else {
                        throw record.error("header mixes lon,lat and lat,lon order at column \(column + 1) '\(record.text(column))'")
                    }
                }
                return
            }
            values.removeAll(keepingCapacity: true)
            for column in stride(from: 0, to: columns, by: 2) {
                guard let first = record.double(column) else { throw record.error("'\(record.text(column))' (column \(column + 1)) is not a number") }
                guard let second = record.double(column + 1) else {
                    throw record.error("'\(record.text(column + 1))' (column \(column + 2)) is not a number")
                }
                values.append(latitudeFirst ? Coordinate(lat: first, lon: second) : Coordinate(lat: second, lon: first))
            }
            add(values, record.lineNumber)
        }
    }
}
