import Foundation

/// Traffic data mapped onto a graph's segments: one row per (segment, direction, time slot).
public struct TrafficTable: Sendable {
    /// How the optional time column is read.
    public enum SlotKind: String, Codable, Sendable {
        /// No time column: every row always applies.
        case none
        /// 0–23, local hour of the day.
        case hourOfDay = "hour_of_day"
        /// 0–167, hours since Monday 00:00 local time.
        case hourOfWeek = "hour_of_week"
    }

    /// Segment key (shape point * 2 + direction), as TrafficOverlay uses.
    public var segmentKey = ContiguousArray<Int64>()
    /// Time slot of the row, or -1 when it applies at all times.
    public var slot = ContiguousArray<Int16>()
    /// Multiplies the free-flow travel time; infinity closes the segment.
    public var timeFactor = ContiguousArray<Double>()
    /// 0–100 congestion, 255 when unknown.
    public var congestion = ContiguousArray<UInt8>()
    public var slotKind: SlotKind = .none
    /// Rows whose node pair is not a segment of the graph.
    public var unknownPairs = 0
    public var rowsRead = 0

    public init() {}

    /// Speed of free flow as a share of the posted congestion: ≤ 20 is free flow, 100 is a fifth of free-flow speed.
    public static func speedShare(congestion: Int) -> Double {
        congestion <= 20 ? 1 : 1 - Double(congestion - 20) / 100
    }

    /// Congestion value implied by a speed share (the inverse of speedShare), clamped to 0–100.
    public static func congestion(speedShare: Double) -> UInt8 {
        UInt8(max(0, min(100, (20 + 100 * (1 - speedShare)).rounded())))
    }

    /// Representative values of named levels.
    public static let namedLevels: [String: Int] = ["low": 20, "moderate": 50, "heavy": 70, "severe": 90]

    /// Slot of a departure time in local calendar terms, for this table's slot kind.
    public func slot(for departure: DateComponents) -> Int16? {
        switch slotKind {
        case .none: return nil
        case .hourOfDay: return Int16(departure.hour ?? 0)
        case .hourOfWeek:
            // DateComponents.weekday: 1 = Sunday ... 7 = Saturday; slot 0 is Monday 00:00.
            let mondayBased = ((departure.weekday ?? 2) + 5) % 7
            return Int16(mondayBased * 24 + (departure.hour ?? 0))
        }
    }

    /// The overlay for a departure: rows without a slot, then rows of the matching slot on top.
    public func overlay(slot wanted: Int16?, label: String) -> TrafficOverlay {
        let overlay = TrafficOverlay(label: label)
        for pass in 0..<2 {
            for row in 0..<segmentKey.count {
                let matches = pass == 0 ? slot[row] < 0 : (wanted != nil && slot[row] == wanted)
                guard matches else { continue }
                let key = Int(segmentKey[row])
                overlay.set(segment: key >> 1, direction: key & 1, timeFactor: timeFactor[row],
                            congestion: congestion[row] == 255 ? nil : congestion[row])
            }
        }
        return overlay
    }
}
