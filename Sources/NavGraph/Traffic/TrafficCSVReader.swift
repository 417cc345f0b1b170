import Foundation

/// Reads traffic CSV files keyed by consecutive OSM node ids and maps them onto a graph.
///
/// Two forms, told apart by an optional header line:
/// - OSRM's segment-speed form `from_osm_id,to_osm_id,speed_kmh[,rate]` (the default without a header; rate is ignored);
/// - the congestion form, header `from_osm_id,to_osm_id,congestion`, values 0–100 or low/moderate/heavy/severe.
/// A last header column `hour_of_day` (0–23) or `hour_of_week` (0–167 from Monday 00:00) makes rows time-dependent.
/// A speed of 0 closes the segment; a congestion value c slows it to TrafficTable.speedShare(c) of free flow.
public enum TrafficCSVReader {
    public static let maximumSpeedKmh = 300.0

    public static func read(path: String, graph: RoutingGraph) throws -> TrafficTable {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw NavGraphError("\(path): cannot read traffic file")
        }
        let segments = segmentIndex(graph)
        var table = TrafficTable()
        var congestionForm = false
        var slotColumn: Int?
        var valueColumns = 0
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            let lineNumber = index + 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if table.rowsRead == 0 && valueColumns == 0 && Int64(fields[0]) == nil {
                guard fields.count >= 3, fields[0] == "from_osm_id", fields[1] == "to_osm_id" else {
                    throw NavGraphError("\(path):\(lineNumber): header must start with from_osm_id,to_osm_id, got '\(line)'")
                }
                congestionForm = fields[2] == "congestion"
                guard congestionForm || fields[2] == "speed_kmh" else {
                    throw NavGraphError("\(path):\(lineNumber): third column must be speed_kmh or congestion, got '\(fields[2])'")
                }
                if let last = fields.last, let kind = TrafficTable.SlotKind(rawValue: last), kind != .none {
                    table.slotKind = kind
                    slotColumn = fields.count - 1
                }
                valueColumns = fields.count
                continue
            }
            if valueColumns == 0 { valueColumns = -1 }
            try readRow(fields, line: line, lineNumber: lineNumber, path: path, congestionForm: congestionForm,
                        slotColumn: slotColumn, graph: graph, segments: segments, table: &table)
        }
        return table
    }

    private static func readRow(_ fields: [String], line: String, lineNumber: Int, path: String, congestionForm: Bool,
                                slotColumn: Int?, graph: RoutingGraph, segments: [SegmentPair: Int], table: inout TrafficTable) throws {
        func fail(_ problem: String) -> NavGraphError { NavGraphError("\(path):\(lineNumber): \(problem) in '\(line)'") }
        let expected = slotColumn.map { $0 + 1 }
        guard fields.count >= 3, expected.map({ fields.count == $0 }) ?? (fields.count <= 4) else {
            throw fail("expected \(expected ?? 3) columns, got \(fields.count)")
        }
        guard let from = Int64(fields[0]), let to = Int64(fields[1]) else { throw fail("node ids must be integers") }
        var slot: Int16 = -1
        if let slotColumn {
            let limit = table.slotKind == .hourOfDay ? 23 : 167
            guard let value = Int16(fields[slotColumn]), value >= 0, Int(value) <= limit else {
                throw fail("\(table.slotKind.rawValue) must be 0–\(limit), got '\(fields[slotColumn])'")
            }
            slot = value
        }
        table.rowsRead += 1
        guard let key = segments[SegmentPair(from: from, to: to)] else {
            table.unknownPairs += 1
            return
        }
        let factor: Double, congestion: UInt8
        if congestionForm {
            let value: Int
            if let named = TrafficTable.namedLevels[fields[2].lowercased()] { value = named } else if let number = Int(fields[2]) { value = number } else {
                throw fail("congestion must be 0–100 or low/moderate/heavy/severe, got '\(fields[2])'")
            }
            guard (0...100).contains(value) else { throw fail("congestion \(value) is outside 0–100") }
            factor = 1 / TrafficTable.speedShare(congestion: value)
            congestion = UInt8(value)
        } else {
            guard let speed = Double(fields[2]), speed.isFinite else { throw fail("speed must be a number, got '\(fields[2])'") }
            guard speed >= 0, speed <= maximumSpeedKmh else { throw fail("speed \(fields[2]) km/h is outside 0–\(Int(maximumSpeedKmh))") }
            if fields.count == 4 && slotColumn == nil { guard Double(fields[3]) != nil else { throw fail("rate must be a number") } }
            let d = segmentDirectedEdge(key: key, graph: graph)
            let time = graph.freeFlowTime(directedEdge: d)
            let length = graph.edgeLength[d >> 1]
            let freeFlowKmh = time == RoadNetwork.forbidden || time == 0 ? speed : length / (Double(time) / 1000) * 3.6
            if speed == 0 {
                factor = .infinity
                congestion = 100
            } else {
                factor = freeFlowKmh / speed
                congestion = TrafficTable.congestion(speedShare: speed / freeFlowKmh)
            }
        }
        table.segmentKey.append(Int64(key))
        table.slot.append(slot)
        table.timeFactor.append(factor)
        table.congestion.append(congestion)
    }

    /// A consecutive OSM node pair in driving order.
    struct SegmentPair: Hashable {
        var from: Int64
        var to: Int64
    }

    /// Every segment of the graph under both of its node orders, to its TrafficOverlay key.
    static func segmentIndex(_ graph: RoutingGraph) -> [SegmentPair: Int] {
        var index: [SegmentPair: Int] = [:]
        index.reserveCapacity(graph.shapeOSMNode.count * 2)
        for edge in 0..<graph.edgeCount {
            for point in Int(graph.edgeShapeFirst[edge])..<(Int(graph.edgeShapeFirst[edge + 1]) - 1) {
                let a = graph.shapeOSMNode[point], b = graph.shapeOSMNode[point + 1]
                index[SegmentPair(from: a, to: b)] = TrafficOverlay.key(segment: point, direction: 0)
                index[SegmentPair(from: b, to: a)] = TrafficOverlay.key(segment: point, direction: 1)
            }
        }
        return index
    }

    static func segmentDirectedEdge(key: Int, graph: RoutingGraph) -> Int {
        2 * graph.edge(ofShapePoint: key >> 1) + (key & 1)
    }
}
