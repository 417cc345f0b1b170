import Foundation

/// Reads traffic CSV files keyed by consecutive OSM node ids and maps them onto a graph.
///
/// Two forms, told apart by an optional header line:
/// - OSRM's segment-speed form `from_osm_id,to_osm_id,speed_kmh[,rate]` (the default without a header; rate is ignored);
/// - the congestion form, header `from_osm_id,to_osm_id,congestion`, values 0–100 or low/moderate/heavy/severe.
/// A last header column `hour_of_day` (0–23) or `hour_of_week` (0–167 from Monday 00:00) makes rows time-dependent.
/// A speed of 0 closes the segment; a congestion value c slows it to TrafficTable.speedShare(c) of free flow.
///
/// The file is parsed as bytes by `DelimitedLineReader` (CRLF, BOM, comments, blank lines), every row is checked, and the rows' node pairs go into an open-addressing table
/// that one pass over the graph's segments resolves; nothing is allocated per segment.
public enum TrafficCSVReader {
    public static let maximumSpeedKmh = 300.0

    /// A data row as read, before it is mapped onto the graph.
    private struct Row {
        package var from: Int64
        package var to: Int64
        package var slot: Int16
        /// Congestion 0–100 in the congestion form, km/h in the speed form.
        package var value: Double
    }

    public static func read(path: String, graph: RoutingGraph) throws -> TrafficTable {
        let data = try DelimitedLineReader.contents(path: path, what: "traffic file")
        var table = TrafficTable()
        let (rows, congestionForm) = try parse(data, path: path, table: &table)
        var pairs = PairTable(capacityFor: rows.count)
        let rowPair = rows.map { pairs.insert(from: $0.from, to: $0.to) }
        var pairKey = [Int](repeating: -1, count: pairs.count)
        for edge in 0..<graph.edgeCount {
            let first = Int(graph.edgeShapeFirst[edge]), end = Int(graph.edgeShapeFirst[edge + 1])
            for point in first..<max(first, end - 1) {
                let a = graph.shapeOSMNode[point], b = graph.shapeOSMNode[point + 1]
                if let pair = pairs.find(from: a, to: b) { pairKey[pair] = TrafficOverlay.key(segment: point, direction: 0) }
                if let pair = pairs.find(from: b, to: a) { pairKey[pair] = TrafficOverlay.key(segment: point, direction: 1) }
            }
        }
        table.segmentKey.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            let key = pairKey[rowPair[index]]
            guard key >= 0 else {
                table.unknownPairs += 1
                continue
            }
            let factor: Double, congestion: UInt8
            if congestionForm {
                factor = 1 / TrafficTable.speedShare(congestion: Int(row.value))
                congestion = UInt8(row.value)
            } else {
                let d = 2 * graph.edge(ofShapePoint: key >> 1) + (key & 1)
                let time = graph.freeFlowTime(directedEdge: d)
                let length = graph.edgeLength[d >> 1]
                let freeFlowKmh = time == RoadNetwork.forbidden || time == 0 ? row.value : length / (Double(time) / 1000) * 3.6
                if row.value == 0 {
                    factor = .infinity
                    congestion = 100
                } else {
                    factor = freeFlowKmh / row.value
                    congestion = TrafficTable.congestion(speedShare: row.value / freeFlowKmh)
                }
            }
            table.segmentKey.append(Int64(key))
            table.slot.append(row.slot)
            table.timeFactor.append(factor)
            table.congestion.append(congestion)
        }
        return table
    }

    /// Checks every line and returns the data rows and whether the file is in the congestion form.
    private static func parse(_ data: Data, path: String, table: inout TrafficTable) throws -> ([Row], Bool) {
        var rows: [Row] = []
        rows.reserveCapacity(data.count / 24)
        var congestionForm = false
        var slotColumn: Int?
        try DelimitedLineReader.forEachRecord(in: data, path: path, isHeader: { $0.integer(0) == nil }) { record in
            if record.isHeader {
                let names = (0..<record.count).map { record.text($0).lowercased() }
                guard names.count >= 3, names[0] == "from_osm_id", names[1] == "to_osm_id" else {
                    throw NavGraphError("\(path):\(record.lineNumber): header must start with from_osm_id,to_osm_id, got '\(record.lineText)'")
                }
                congestionForm = names[2] == "congestion"
                guard congestionForm || names[2] == "speed_kmh" else {
                    throw NavGraphError("\(path):\(record.lineNumber): third column must be speed_kmh or congestion, got '\(names[2])'")
                }
                if let last = names.last, let kind = TrafficTable.SlotKind(rawValue: last), kind != .none {
                    table.slotKind = kind
                    slotColumn = names.count - 1
                }
                return
            }
            let expected = slotColumn.map { $0 + 1 }
            guard record.count >= 3, expected.map({ record.count == $0 }) ?? (record.count <= 4) else {
                throw record.error("expected \(expected ?? 3) columns, got \(record.count)")
            }
            guard let from = record.integer(0), let to = record.integer(1) else {
                let bad = record.integer(0) == nil ? 0 : 1
                throw record.error("node ids must be integers, got '\(record.text(bad))'")
            }
            var slot: Int16 = -1
            if let slotColumn {
                let limit = table.slotKind == .hourOfDay ? 23 : 167
                guard let value = record.integer(slotColumn), value >= 0, value <= limit else {
                    throw record.error("\(table.slotKind.rawValue) must be 0–\(limit), got '\(record.text(slotColumn))'")
                }
                slot = Int16(value)
            }
            let value: Double
            if congestionForm {
                let level: Int64
                if let number = record.integer(2) { level = number } else if let named = TrafficTable.namedLevels[record.text(2).lowercased()] {
                    level = Int64(named)
                } else {
                    throw record.error("congestion must be 0–100 or low/moderate/heavy/severe, got '\(record.text(2))'")
                }
                guard (0...100).contains(level) else { throw record.error("congestion \(level) is outside 0–100") }
                value = Double(level)
            } else {
                guard let speed = record.double(2) else { throw record.error("speed must be a number, got '\(record.text(2))'") }
                guard speed >= 0, speed <= maximumSpeedKmh else { throw record.error("speed \(record.text(2)) km/h is outside 0–\(Int(maximumSpeedKmh))") }
                if record.count == 4 && slotColumn == nil { guard record.double(3) != nil else { throw record.error("rate must be a number, got '\(record.text(3))'") } }
                value = speed
            }
            table.rowsRead += 1
            rows.append(Row(from: from, to: to, slot: slot, value: value))
        }
        return (rows, congestionForm)
    }

    /// Open addressing over the distinct (from, to) node pairs of the rows, with a multiplicative hash.
    private struct PairTable {
        private var slotFrom: [Int64]
        private var slotTo: [Int64]
        /// Pair index stored in each slot, -1 when empty.
        private var slotPair: [Int32]
        private let mask: Int
        private(set) var count = 0

        package init(capacityFor rows: Int) {
            var capacity = 16
            while capacity < 2 * rows { capacity <<= 1 }
            slotFrom = [Int64](repeating: 0, count: capacity)
            slotTo = [Int64](repeating: 0, count: capacity)
            slotPair = [Int32](repeating: -1, count: capacity)
            mask = capacity - 1
        }

        private func home(_ from: Int64, _ to: Int64) -> Int {
            var hash = UInt64(bitPattern: from) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: to) &* 0xC2B2_AE3D_27D4_EB4F
            hash ^= hash >> 29
            return Int(truncatingIfNeeded: hash) & mask
        }

        /// The pair's index, added on first sight.
        package mutating func insert(from: Int64, to: Int64) -> Int {
            var slot = home(from, to)
            while slotPair[slot] >= 0 {
                if slotFrom[slot] == from && slotTo[slot] == to { return Int(slotPair[slot]) }
                slot = (slot + 1) & mask
            }
            slotFrom[slot] = from
            slotTo[slot] = to
            slotPair[slot] = Int32(count)
            count += 1
            return count - 1
        }

        package func find(from: Int64, to: Int64) -> Int? {
            var slot = home(from, to)
            while slotPair[slot] >= 0 {
                if slotFrom[slot] == from && slotTo[slot] == to { return Int(slotPair[slot]) }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }
}
