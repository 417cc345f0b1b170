import Foundation

/// Reads a GPS trace from GPX (`trkpt`/`rtept` with `lat`, `lon` and an ISO 8601 `time`), CSV (a header naming
/// `lat`/`latitude`, `lon`/`lng`/`longitude` and optionally `time`/`timestamp` in Unix seconds or ISO 8601) or GeoJSON
/// (a LineString, MultiPoint, or Point features with a `time`/`timestamp` property).
public enum TraceFile {
    /// The trace in the file; the format follows the extension (`.gpx`, `.csv`, `.geojson`/`.json`).
    public static func read(path: String) throws -> [TracePoint] {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw NavGraphError("cannot read trace \(path): \(error.localizedDescription)", code: .ioFailure)
        }
        let text = String(decoding: data, as: UTF8.self)
        let points: [TracePoint]
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "gpx": points = try gpx(text, path: path)
        case "csv": points = try csv(text, path: path)
        case "geojson", "json": points = try geojson(data, path: path)
        default: throw NavGraphError("trace \(path): unknown format (use .gpx, .csv or .geojson)", code: .invalidInput)
        }
        guard points.count >= 2 else { throw NavGraphError("trace \(path) has \(points.count) point(s); a trace needs at least 2", code: .invalidInput) }
        for (index, point) in points.enumerated() where !point.coordinate.isValid {
            throw NavGraphError("trace \(path): point \(index) (\(point.coordinate.lat),\(point.coordinate.lon)) is not a valid coordinate", code: .invalidInput)
        }
        return points
    }

    /// Unix seconds of a number or an ISO 8601 time.
    package static func time(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds.isFinite { return seconds }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: trimmed) { return date.timeIntervalSince1970 }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: trimmed)?.timeIntervalSince1970
    }

    /// The value of `name="..."` (or single quotes) in a tag's text.
    static func attribute(_ name: String, in tag: Substring) -> Double? {
        for quote in ["\"", "'"] {
            guard let start = tag.range(of: " \(name)=\(quote)") else { continue }
            let rest = tag[start.upperBound...]
            guard let end = rest.firstIndex(of: Character(quote)) else { return nil }
            return Double(rest[..<end])
        }
        return nil
    }

    package static func gpx(_ text: String, path: String) throws -> [TracePoint] {
        var points: [TracePoint] = []
        var rest = Substring(text)
        while let open = rest.range(of: "<trkpt") ?? rest.range(of: "<rtept") {
            let tail = rest[open.upperBound...]
            guard let close = tail.firstIndex(of: ">") else { break }
            let tag = tail[..<close]
            guard let lat = attribute("lat", in: tag), let lon = attribute("lon", in: tag) else {
                throw NavGraphError("trace \(path): a track point without lat and lon", code: .invalidInput)
            }
            var point = TracePoint(coordinate: Coordinate(lat: lat, lon: lon))
            // The point's own elements end at its closing tag (or the next point, for a self-closed one).
            let body = tail[close...]
            let end = body.range(of: "</trkpt>")?.lowerBound ?? body.range(of: "</rtept>")?.lowerBound ?? body.endIndex
            if let timeOpen = body[..<end].range(of: "<time>"), let timeClose = body[timeOpen.upperBound..<end].range(of: "</time>") {
                point.timestamp = time(String(body[timeOpen.upperBound..<timeClose.lowerBound]))
            }
            points.append(point)
            rest = body[end...]
            if rest.isEmpty { break }
            rest = rest.dropFirst()
        }
        return points
    }

    package static func csv(_ text: String, path: String) throws -> [TracePoint] {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard let header = lines.first else { return [] }
        let names = header.lowercased().split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let latColumn = names.firstIndex { $0 == "lat" || $0 == "latitude" }
        let lonColumn = names.firstIndex { $0 == "lon" || $0 == "lng" || $0 == "longitude" }
        let timeColumn = names.firstIndex { $0 == "time" || $0 == "timestamp" }
        guard let latColumn, let lonColumn else {
            throw NavGraphError("trace \(path): the CSV header must name lat and lon columns (got '\(header)')", code: .invalidInput)
        }
        return try lines.dropFirst().enumerated().map { row, line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let lat = fields[safe: latColumn].flatMap(Double.init), let lon = fields[safe: lonColumn].flatMap(Double.init) else {
                throw NavGraphError("trace \(path): row \(row + 2) ('\(line)') has no numeric lat and lon", code: .invalidInput)
            }
            return TracePoint(coordinate: Coordinate(lat: lat, lon: lon), timestamp: timeColumn.flatMap { fields[safe: $0] }.flatMap(time))
        }
    }

    package static func geojson(_ data: Data, path: String) throws -> [TracePoint] {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw NavGraphError("trace \(path) is not a GeoJSON object", code: .invalidInput)
        }
        func position(_ value: Any?) -> Coordinate? {
            guard let pair = value as? [Any], pair.count >= 2, let lon = (pair[0] as? NSNumber)?.doubleValue,
                  let lat = (pair[1] as? NSNumber)?.doubleValue else { return nil }
            return Coordinate(lat: lat, lon: lon)
        }
        func stamp(_ properties: Any?) -> Double? {
            guard let properties = properties as? [String: Any] else { return nil }
            for key in ["timestamp", "time"] {
                if let number = properties[key] as? NSNumber { return number.doubleValue }
                if let text = properties[key] as? String { return time(text) }
            }
            return nil
        }
        var points: [TracePoint] = []
        func visit(_ object: [String: Any], properties: Any?) {
            switch object["type"] as? String {
            case "FeatureCollection": for feature in object["features"] as? [[String: Any]] ?? [] { visit(feature, properties: nil) }
            case "Feature": if let geometry = object["geometry"] as? [String: Any] { visit(geometry, properties: object["properties"]) }
            case "LineString", "MultiPoint":
                guard points.isEmpty else { return }   // the first line is the trace
                let times = (properties as? [String: Any])?["coordTimes"] as? [Any]
                for (index, item) in (object["coordinates"] as? [Any] ?? []).enumerated() {
                    guard let c = position(item) else { continue }
                    let t = times?[safe: index].flatMap { ($0 as? NSNumber)?.doubleValue ?? ($0 as? String).flatMap(time) }
                    points.append(TracePoint(coordinate: c, timestamp: t))
                }
            case "Point": if let c = position(object["coordinates"]) { points.append(TracePoint(coordinate: c, timestamp: stamp(properties))) }
            default: break
            }
        }
        visit(root, properties: nil)
        return points
    }
}
