import Dispatch
import Foundation

/// How the road sets of one import share the machine. They are built side by side on two threads (their road
/// networks at once, while the OSM arrays are held). With `motorFirst` (the default) the other road sets then wait,
/// their networks already written and freed, until the motor road set's import has ended before they order their
/// turn graphs, so that the heaviest stretches of the two (an order and its customizations) do not overlap; with
/// `overlap` each runs on as fast as it can (as before; NAVGRAPH_ROAD_SET_SCHEDULE=overlap, benchmarks).
enum RoadSetSchedule: String, Sendable {
    case motorFirst = "motor-first"
    case overlap

    /// The schedule NAVGRAPH_ROAD_SET_SCHEDULE names, `motorFirst` when it is unset; a value it does not know is named on
    /// stderr and ignored.
    static let configured: RoadSetSchedule = {
        guard let text = ProcessInfo.processInfo.environment["NAVGRAPH_ROAD_SET_SCHEDULE"] else { return .motorFirst }
        guard let schedule = RoadSetSchedule(rawValue: text) else {
            FileHandle.standardError.write(Data("navgraph: NAVGRAPH_ROAD_SET_SCHEDULE: expected motor-first or overlap, got '\(text)'; using motor-first\n".utf8))
            return .motorFirst
        }
        return schedule
    }()
}

/// A one-way door between two road sets' threads: `open` once when the first is done (however it ended), after which
/// every `wait` returns at once. Sendable because its only state is a `DispatchSemaphore`, which is itself thread-safe.
final class RoadSetGate: @unchecked Sendable {
    private let opened = DispatchSemaphore(value: 0)

    func open() { opened.signal() }

    /// Blocks until `open`; returns the seconds waited.
    func wait() -> Double {
        let start = Date()
        opened.wait()
        opened.signal()  // for any later waiter
        return Date().timeIntervalSince(start)
    }
}
