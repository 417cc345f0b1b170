import Foundation

/// The traffic the server routes with, replaced atomically: a request takes a snapshot when it starts and
/// finishes on it, whatever is loaded meanwhile.
///
/// Lifetime: one per service. Thread safety: the current snapshot is swapped under a lock; snapshots are immutable
/// apart from their lock-guarded cache of per-hour overlays.
public final class LiveTraffic: @unchecked Sendable {
    /// One loaded traffic table and the overlays made from it.
    public final class Snapshot: @unchecked Sendable {
        public let table: TrafficTable
        public let label: String
        /// The overlay requests without `depart_at` use (the slot of the load time for hourly tables).
        public let current: TrafficOverlay
        private let lock = NSLock()
        private var bySlot: [Int16: TrafficOverlay] = [:]

        package init(table: TrafficTable, label: String, now: Date) {
            self.table = table
            self.label = label
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
            current = table.overlay(slot: table.slot(for: calendar.dateComponents([.weekday, .hour], from: now)), label: label)
        }

        /// The overlay of a departure hour (the current one when the table has no hours).
        public func overlay(departure: DateComponents?) -> TrafficOverlay {
            guard let departure, let slot = table.slot(for: departure) else { return current }
            return lock.withLock {
                if let overlay = bySlot[slot] { return overlay }
                let overlay = table.overlay(slot: slot, label: "\(label) slot \(slot)")
                if bySlot.count >= 168 { bySlot.removeAll() }
                bySlot[slot] = overlay
                return overlay
            }
        }
    }

    /// What a load reports.
    public struct LoadReport: Sendable {
        public var segmentRows: Int
        public var unknownPairs: Int
        public var segmentsWithTraffic: Int
        public var generation: UInt64
        public var readSeconds: Double
        public var customizationSeconds: Double
    }

    private let lock = NSLock()
    private var loaded: Snapshot?

    public init() {}

    /// The traffic in force now, or nil for free flow.
    public var snapshot: Snapshot? { lock.withLock { loaded } }

    /// Customizes the free-flow-avoidance metric of a new table on the calling thread, then swaps it in.
    public func load(_ table: TrafficTable, label: String, engine: RoutingEngine, readSeconds: Double = 0) -> LoadReport {
        let start = DispatchTime.now().uptimeNanoseconds
        let next = Snapshot(table: table, label: label, now: Date())
        _ = engine.metric(avoid: [], mode: .strict, traffic: next.current)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        lock.withLock { loaded = next }
        return LoadReport(segmentRows: table.segmentKey.count, unknownPairs: table.unknownPairs,
                          segmentsWithTraffic: next.current.segmentCount, generation: next.current.generation,
                          readSeconds: readSeconds, customizationSeconds: seconds)
    }

    /// Reads a CSV or `.traffic` file and loads it.
    public func load(path: String, engine: RoutingEngine) throws -> LoadReport {
        let start = DispatchTime.now().uptimeNanoseconds
        let table = try TrafficFile.load(path: path, graph: engine.graph)
        return load(table, label: path, engine: engine, readSeconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// Reads CSV text (the `navgraph traffic` format) and loads it.
    public func load(csv: Data, engine: RoutingEngine) throws -> LoadReport {
        let start = DispatchTime.now().uptimeNanoseconds
        let path = NSTemporaryDirectory() + "navgraph-traffic-\(getpid())-\(UUID().uuidString).csv"
        guard FileManager.default.createFile(atPath: path, contents: csv) else {
            throw NavGraphError("\(path): cannot write the posted traffic to a temporary file", code: .ioFailure)
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let table: TrafficTable
        do {
            table = try TrafficCSVReader.read(path: path, graph: engine.graph)
        } catch let error as NavGraphError {
            // Name the request body rather than the temporary file.
            throw NavGraphError(error.message.replacingOccurrences(of: path, with: "POST /traffic body"), code: error.code)
        }
        return load(table, label: "POST /traffic", engine: engine, readSeconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}
