import Foundation

/// Writes a TravelMatrix as OSRM-table-shaped JSON or long-form CSV, formatting numbers without Foundation
/// (tables reach millions of cells).
public enum MatrixOutput {
    /// `{"code":"Ok","algorithm":"…","durations":[[s…]…],"distances":[[m…]…],"sources":[…],"destinations":[…]}`
    /// (`algorithm`: how navgraph computed the table; OSRM clients ignore it): seconds with
    /// 3 decimals (the metric's millisecond resolution), metres with 2; `null` for unreachable cells and for
    /// unsnapped points.
    public static func json(_ matrix: TravelMatrix, sources: [Snap?], destinations: [Snap?], graph: RoutingGraph,
                            annotations: Set<String>) -> Data {
        var out = ContiguousArray<UInt8>()
        append("{\"code\":\"Ok\",\"algorithm\":", to: &out)
        out.append(contentsOf: JSON.string(matrix.algorithm).data(pretty: false))
        var parts = [out]
        if annotations.contains("duration") {
            parts.append(bytes(",\"durations\":"))
            parts += table(matrix) { row, column, out in
                guard let seconds = matrix.duration(row, column) else { append("null", to: &out); return }
                fixed(seconds, decimals: 3, to: &out)
            }
        }
        if annotations.contains("distance") {
            parts.append(bytes(",\"distances\":"))
            parts += table(matrix) { row, column, out in
                guard let metres = matrix.metres(row, column) else { append("null", to: &out); return }
                fixed(metres, decimals: 2, to: &out)
            }
        }
        out.removeAll(keepingCapacity: false)
        func waypoints(_ snaps: [Snap?]) -> JSON {
            .array(snaps.map { snap in
                guard let snap else { return .null }
                return .object([("location", .position(snap.point)), ("name", .string(graph.string(graph.edgeName[snap.edge]))),
                                ("distance", .number(snap.distance, decimals: 2))])
            })
        }
        append(",\"sources\":", to: &out)
        out.append(contentsOf: waypoints(sources).data(pretty: false))
        append(",\"destinations\":", to: &out)
        out.append(contentsOf: waypoints(destinations).data(pretty: false))
        append("}\n", to: &out)
        parts.append(out)
        return joined(parts)
    }

    /// `source,destination,duration_s,distance_m` with 0-based indices; empty fields for unreachable cells
    /// and for annotations not asked for.
    public static func csv(_ matrix: TravelMatrix, annotations: Set<String>) -> Data {
        let durations = annotations.contains("duration"), distances = annotations.contains("distance")
        let blocks = rowBlocks(matrix.sourceCount) { rows, out in
            for row in rows {
                for column in 0..<matrix.destinationCount {
                    integer(row, to: &out); out.append(UInt8(ascii: ","))
                    integer(column, to: &out); out.append(UInt8(ascii: ","))
                    if durations, let seconds = matrix.duration(row, column) { fixed(seconds, decimals: 3, to: &out) }
                    out.append(UInt8(ascii: ","))
                    if distances, let metres = matrix.metres(row, column) { fixed(metres, decimals: 2, to: &out) }
                    out.append(UInt8(ascii: "\n"))
                }
            }
        }
        return joined([bytes("source,destination,duration_s,distance_m\n")] + blocks)
    }

    /// Renders rows in blocks on all cores; the blocks in row order.
    private static func rowBlocks(_ rows: Int, render: (Range<Int>, inout ContiguousArray<UInt8>) -> Void) -> [Bytes] {
        let workers = Parallel.workerCount
        let blockCount = max(1, min(rows, workers * 8))
        var blocks = [Bytes](repeating: Bytes(), count: blockCount)
        blocks.withUnsafeMutableBufferPointer { buffer in
            let shared = SharedBuffer(buffer)
            Parallel.run(min(workers, blockCount)) { worker in
                var block = worker
                while block < blockCount {
                    render(rows * block / blockCount..<rows * (block + 1) / blockCount, &shared.pointer[block])
                    block += workers
                }
            }
        }
        return blocks
    }

    /// The parts one after the other, copied once.
    private static func joined(_ parts: [Bytes]) -> Data {
        var result = Data(capacity: parts.reduce(0) { $0 + $1.count })
        for part in parts { part.withUnsafeBufferPointer { result.append($0) } }
        return result
    }

    private typealias Bytes = ContiguousArray<UInt8>

    private static func bytes(_ text: String) -> Bytes { Bytes(text.utf8) }

    /// `[[cell, …], …]` as blocks of rows rendered on all cores.
    private static func table(_ matrix: TravelMatrix, cell: (Int, Int, inout ContiguousArray<UInt8>) -> Void) -> [Bytes] {
        let columns = matrix.destinationCount
        let blocks = rowBlocks(matrix.sourceCount) { rows, out in
            for row in rows {
                if row > 0 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "["))
                for column in 0..<columns {
                    if column > 0 { out.append(UInt8(ascii: ",")) }
                    cell(row, column, &out)
                }
                out.append(UInt8(ascii: "]"))
            }
        }
        return [bytes("[")] + blocks + [bytes("]")]
    }

    private static func append(_ text: String, to out: inout ContiguousArray<UInt8>) { out.append(contentsOf: text.utf8) }

    /// A non-negative integer in decimal.
    private static func integer(_ value: Int, to out: inout ContiguousArray<UInt8>) {
        if value < 10 { out.append(UInt8(ascii: "0") + UInt8(value)); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0, rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 && count < 20 { buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10); rest /= 10; count += 1 }
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[index]) }
        }
    }

    /// A finite value rounded to `decimals` places, trailing zeros dropped ("12.5", "7").
    private static func fixed(_ value: Double, decimals: Int, to out: inout ContiguousArray<UInt8>) {
        guard value.isFinite else { append("null", to: &out); return }
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        var scaled = Int((abs(value) * Double(scale)).rounded())
        if value < 0 && scaled > 0 { out.append(UInt8(ascii: "-")) }
        integer(scaled / scale, to: &out)
        scaled %= scale
        guard scaled > 0 else { return }
        out.append(UInt8(ascii: "."))
        var divisor = scale / 10
        while scaled > 0 && divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(scaled / divisor))
            scaled %= divisor
            divisor /= 10
        }
    }
}
