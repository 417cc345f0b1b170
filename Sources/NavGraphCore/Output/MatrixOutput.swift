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
            if let exact = matrix.exactDuration {
                parts += table(matrix) { index, out in
                    matrix.cost[index] == TravelMatrix.unreachable ? DecimalWriter.literal("null", to: out) : DecimalWriter.fixed(exact[index], decimals: 3, to: out)
                }
            } else {
                // Seconds straight from the integer milliseconds of the cost.
                parts += table(matrix) { index, out in
                    let cost = matrix.cost[index]
                    return cost == TravelMatrix.unreachable ? DecimalWriter.literal("null", to: out)
                        : DecimalWriter.thousandths(UInt64(TurnCosts.duration(ofSearchCost: cost)), to: out)
                }
            }
        }
        if annotations.contains("distance") {
            parts.append(bytes(",\"distances\":"))
            parts += table(matrix) { index, out in
                guard matrix.cost[index] != TravelMatrix.unreachable, let metres = matrix.distance?[index] else { return DecimalWriter.literal("null", to: out) }
                return DecimalWriter.fixed(metres, decimals: 2, to: out)
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
        let columns = matrix.destinationCount
        let cellBytes = 2 * DecimalWriter.maxIntegerBytes + 2 * DecimalWriter.maxFixedBytes + 4
        let blocks = rowBlocks(matrix.sourceCount, rowBytes: columns * cellBytes) { row, out in
            var count = 0
            for column in 0..<columns {
                count += DecimalWriter.integer(UInt64(row), to: out + count); out[count] = UInt8(ascii: ","); count += 1
                count += DecimalWriter.integer(UInt64(column), to: out + count); out[count] = UInt8(ascii: ","); count += 1
                if durations, let seconds = matrix.duration(row, column) { count += DecimalWriter.fixed(seconds, decimals: 3, to: out + count) }
                out[count] = UInt8(ascii: ","); count += 1
                if distances, let metres = matrix.metres(row, column) { count += DecimalWriter.fixed(metres, decimals: 2, to: out + count) }
                out[count] = UInt8(ascii: "\n"); count += 1
            }
            return count
        }
        return joined([bytes("source,destination,duration_s,distance_m\n")] + blocks)
    }

    /// Renders rows in blocks on all cores, each block straight into one buffer of at most `rowBytes` per row
    /// (`render` writes a row at the pointer and returns its length); the blocks in row order.
    private static func rowBlocks(_ rows: Int, rowBytes: Int, render: (Int, UnsafeMutablePointer<UInt8>) -> Int) -> [Bytes] {
        let workers = Parallel.workerCount
        let blockCount = max(1, min(rows, workers * 8))
        var blocks = [Bytes](repeating: Bytes(), count: blockCount)
        blocks.withUnsafeMutableBufferPointer { buffer in
            let shared = SharedBuffer(buffer)
            Parallel.run(min(workers, blockCount)) { worker in
                var block = worker
                while block < blockCount {
                    let range = rows * block / blockCount..<rows * (block + 1) / blockCount
                    shared.pointer[block] = Bytes(unsafeUninitializedCapacity: max(1, range.count * rowBytes)) { buffer, count in
                        guard let base = buffer.baseAddress else { return }
                        for row in range { count += render(row, base + count) }
                    }
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

    /// `[[cell, …], …]` as blocks of rows rendered on all cores; `cell` writes the cell of a row-major index.
    private static func table(_ matrix: TravelMatrix, cell: (Int, UnsafeMutablePointer<UInt8>) -> Int) -> [Bytes] {
        let columns = matrix.destinationCount
        let blocks = rowBlocks(matrix.sourceCount, rowBytes: columns * (DecimalWriter.maxFixedBytes + 1) + 3) { row, out in
            var count = 0
            if row > 0 { out[count] = UInt8(ascii: ","); count += 1 }
            out[count] = UInt8(ascii: "["); count += 1
            for column in 0..<columns {
                if column > 0 { out[count] = UInt8(ascii: ","); count += 1 }
                count += cell(row * columns + column, out + count)
            }
            out[count] = UInt8(ascii: "]"); count += 1
            return count
        }
        return [bytes("[")] + blocks + [bytes("]")]
    }

    private static func append(_ text: String, to out: inout ContiguousArray<UInt8>) { out.append(contentsOf: text.utf8) }
}
