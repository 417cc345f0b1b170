import Dispatch
import Foundation
import NavGraphCore

/// How the road sets of one import share the machine. Each runs on its own thread. With `motorFirst` (the default)
/// their road networks are built at once, while the OSM arrays are held; the other road sets then wait, their networks
/// already written and freed, until the motor road set's order has ended before they order their turn graphs, and
/// until its import has ended before they customize, so that two orders, or two road sets' customizations (the
/// heaviest stretches), do not overlap; an order does overlap the motor set's customizations, whose second core is
/// partly idle. `networksInTurn` builds
/// the road networks one after the other, the motor set's first, and no set goes on until the last is built, so that
/// one network build's working arrays are resident at a time, and then goes on as `motorFirst`
/// (NAVGRAPH_ROAD_SET_SCHEDULE=networks-in-turn; on milan-9x9 it lowered that phase's peak by 0.16 GB in one run, within
/// the run-to-run spread, and cost the ~45 s the two builds overlapped: Benchmarks/IMPORT.md, "Design, phase by phase"; with the
/// smaller build transient of the ninth part its road networks peaked higher than motor-first's, 3,279 against 3,137 MB).
/// With `overlap` each runs on as fast as it can.
package enum RoadSetSchedule: String, Sendable {
    case motorFirst = "motor-first"
    case networksInTurn = "networks-in-turn"
    case overlap

    /// The schedule NAVGRAPH_ROAD_SET_SCHEDULE names, `motorFirst` when it is unset; a value it does not know is named on
    /// stderr and ignored.
    package static let configured: RoadSetSchedule = {
        guard let text = ProcessInfo.processInfo.environment["NAVGRAPH_ROAD_SET_SCHEDULE"] else { return .motorFirst }
        guard let schedule = RoadSetSchedule(rawValue: text) else {
            FileHandle.standardError.write(Data("navgraph: NAVGRAPH_ROAD_SET_SCHEDULE: expected motor-first, networks-in-turn or overlap, got '\(text)'; using motor-first\n".utf8))
            return .motorFirst
        }
        return schedule
    }()

    /// Whether the other road sets wait for the motor set (its order before theirs, its customizations before theirs).
    package var motorOrdersFirst: Bool { self != .overlap }
}

/// What one road set's import waits for or signals at its steps (RoadSetSchedule); each does nothing by default.
package struct RoadSetWaits {
    /// Just before the order.
    package var beforeOrder: () -> Void = {}
    /// Just after the order.
    package var afterOrder: () -> Void = {}
    /// Just before the customizations.
    package var beforeCustomize: () -> Void = {}
}

/// The turns of a number of road sets at building their road networks one after the other (RoadSetSchedule): road
/// set i builds once road set i-1 is done with its network (however that ended), and each waits after its own until
/// the last is done. Sendable because its only state is immutable gates.
package final class RoadNetworkTurns: Sendable {
    private let built: [RoadSetGate]
    /// Index of the road set that builds its network last.
    package var lastIndex: Int { built.count - 1 }

    /// Nil when there is nothing to take turns at, or when the road sets would not all run at once (fewer threads
    /// than road sets: a set waiting for a later one would then wait for ever).
    package init?(roadSetCount: Int, threadCount: Int) {
        guard roadSetCount > 1, threadCount >= roadSetCount else { return nil }
        built = (0..<roadSetCount).map { _ in RoadSetGate() }
    }

    /// Blocks until road set `index` may build its network; returns the seconds waited.
    package func waitForTurn(_ index: Int) -> Double { index == 0 ? 0 : built[index - 1].wait() }

    /// Road set `index` is done with its network (built or failed).
    package func done(_ index: Int) { built[index].open() }

    /// Blocks until every road set is done with its network; returns the seconds waited.
    package func waitForAll() -> Double { built[built.count - 1].wait() }
}

/// A one-way door between two road sets' threads: `open` once when the first is done (however it ended), after which
/// every `wait` returns at once. Sendable because its only state is a `DispatchSemaphore`, which is itself thread-safe.
package final class RoadSetGate: @unchecked Sendable {
    private let opened = DispatchSemaphore(value: 0)

    package func open() { opened.signal() }

    /// Blocks until `open`; returns the seconds waited.
    package func wait() -> Double {
        let start = Date()
        opened.wait()
        opened.signal()  // for any later waiter
        return Date().timeIntervalSince(start)
    }
}
