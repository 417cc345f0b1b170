import COsmiumShim
import Foundation
import NavGraphCore

/// Reads 9th DIMACS challenge graphs (`p sp N M`, then `a u v w` arcs; plain or gzipped) into a RoadNetwork.
/// They have no coordinates: every node sits at (0, 0), each arc becomes a one-way edge whose travel time is
/// the arc weight in milliseconds, and routing takes node ids (`navgraph route --nodes S,T`).
public enum DimacsReader {
    public static let profileName = "dimacs"

    public static func read(path: String) throws -> RoadNetwork {
        guard FileManager.default.fileExists(atPath: path) else { throw NavGraphError("\(path): no such file") }
        var length = 0
        var errorPointer: UnsafeMutablePointer<CChar>?
        guard let bytes = nav_read_maybe_gzipped(path, &length, &errorPointer) else {
            let message = errorPointer.map { String(cString: $0) } ?? "unknown error"
            nav_free_error(errorPointer)
            throw NavGraphError("\(path): cannot read DIMACS graph (\(message))")
        }
        defer { nav_free_error(bytes) }
        let buffer = UnsafeRawBufferPointer(start: bytes, count: length).bindMemory(to: UInt8.self)
        var network = RoadNetwork()
        var declaredNodes = -1, declaredArcs = 0
        var cursor = 0, lineNumber = 0
        func readInteger() -> Int? {
            while cursor < length && (buffer[cursor] == 32 || buffer[cursor] == 9) { cursor += 1 }
            var value = 0, digits = 0
            while cursor < length, buffer[cursor] >= 48, buffer[cursor] <= 57 {
                value = value * 10 + Int(buffer[cursor] - 48)
                cursor += 1; digits += 1
            }
            return digits > 0 ? value : nil
        }
        func skipLine() { while cursor < length && buffer[cursor] != 10 { cursor += 1 }; cursor += 1 }
        while cursor < length {
            lineNumber += 1
            let kind = buffer[cursor]
            switch kind {
            case UInt8(ascii: "c"), 10, 13:
                skipLine()
            case UInt8(ascii: "p"):
                cursor += 1
                while cursor < length && buffer[cursor] == 32 { cursor += 1 }
                while cursor < length && buffer[cursor] >= 97 && buffer[cursor] <= 122 { cursor += 1 }
                guard let nodes = readInteger(), let arcs = readInteger(), nodes > 0 else {
                    throw NavGraphError("\(path):\(lineNumber): expected 'p sp NODES ARCS'")
                }
                declaredNodes = nodes; declaredArcs = arcs
                network.nodeOSMID = ContiguousArray((1...nodes).map(Int64.init))
                network.edgeFrom.reserveCapacity(arcs); network.edgeTo.reserveCapacity(arcs)
                skipLine()
            case UInt8(ascii: "a"):
                cursor += 1
                guard declaredNodes > 0 else { throw NavGraphError("\(path):\(lineNumber): arc before the 'p sp' line") }
                guard let from = readInteger(), let to = readInteger(), let weight = readInteger() else {
                    throw NavGraphError("\(path):\(lineNumber): expected 'a FROM TO WEIGHT'")
                }
                guard (1...declaredNodes).contains(from), (1...declaredNodes).contains(to) else {
                    throw NavGraphError("\(path):\(lineNumber): node id out of range 1...\(declaredNodes)")
                }
                guard weight < Int(CCHMetric.infinity) / 4 else { throw NavGraphError("\(path):\(lineNumber): weight \(weight) too large") }
                skipLine()
                if from == to { continue }
                network.edgeFrom.append(UInt32(from - 1)); network.edgeTo.append(UInt32(to - 1))
                network.edgeTimeForward.append(UInt32(max(1, weight))); network.edgeTimeBackward.append(RoadNetwork.forbidden)
                network.edgeLength.append(Double(weight))
                network.shapeLatE7 += [0, 0]; network.shapeLonE7 += [0, 0]
                network.shapeOSMNode += [Int64(from), Int64(to)]
                network.edgeShapeFirst.append(UInt32(network.shapeLatE7.count))
                network.edgeClass.append(RoadClass.unclassified.rawValue)
                network.edgeFlags.append(EdgeFlags.oneway.rawValue)
                network.edgeMaxspeed.append(0)
                network.edgeName.append(0); network.edgeRef.append(0); network.edgeWay.append(Int64(network.edgeWay.count + 1))
            default:
                throw NavGraphError("\(path):\(lineNumber): not a DIMACS graph line")
            }
        }
        guard declaredNodes > 0, network.edgeCount > 0 else { throw NavGraphError("\(path): no 'p sp' line or no arcs; not a DIMACS graph") }
        if network.edgeCount + 100 < declaredArcs / 2 {
            throw NavGraphError("\(path): only \(network.edgeCount) of \(declaredArcs) declared arcs (truncated?)")
        }
        return network
    }
}
