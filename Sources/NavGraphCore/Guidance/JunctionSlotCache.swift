import CMemoryAccess
import Foundation

/// What guidance reads about one road leaving a junction, kept per slot of the graph's junction adjacency
/// (`junctionOut`), so that all the roads of a junction sit side by side in memory: a junction view touches one or
/// two cache lines instead of a handful of scattered edge and turn arrays. A junction's slots are kept in bearing order.
struct JunctionSlot {
    /// Directed edge leaving the junction (as `junctionOut`).
    package var leaving: Int32
    /// Routing node of the plain (unrestricted) directed edge, -1 when it cannot be driven.
    package var routing: Int32
    /// Bearing from the junction along the road, 0..<360.
    package var bearing: Double
    /// For a car arriving along this road on its plain routing node: bit j set when it may turn onto the junction's
    /// j-th slot (in this bearing order). Valid when the junction has at most `maskedDegree` roads.
    var plainEntry: UInt32
    /// Routing node of the plain directed edge arriving along this road (the reverse of `leaving`), -1 when none.
    var arrivingRouting: Int32
    /// `turn:lanes` string id for a car arriving at the junction along this road (0 when untagged).
    var arrivingLanes: UInt32
    /// The junction's `junction:ref` string id and `NodeControl` bits (the same in each of its slots).
    package var exitRef: UInt32
    package var flags: UInt16
    package var roadClass: UInt8
    package var control: UInt8
    /// 1 once the junction's slots are filled.
    package var ready: UInt8
    /// `bearing` as the Directions API writes it (`Bearing.wire`; last, where it fits in the record's padding).
    var wire: UInt16

    /// Junctions with more roads than this have no entry masks (a view scans the turn arcs instead).
    static let maskedDegree = 32

    /// Whether a junction's intersection lists this road: tracks are no way on for a driver (OSRM's car profile
    /// drops them; private roads it keeps as restricted), unless the route arrives or leaves by them.
    @inline(__always) func isListed(routeUses: Bool) -> Bool {
        routeUses || roadClass != RoadClass.track.rawValue
    }
}

/// Junction slots filled on first use (a junction at a time) and kept for the graph's lifetime, so a junction
/// view costs no trigonometry, sorting or scattered reads for junctions already seen by an earlier query of the router.
final class JunctionSlotCache: @unchecked Sendable {
    private var slots: UnsafeMutablePointer<JunctionSlot>
    private let count: Int

    package init(slotCount: Int) {
        count = slotCount
        slots = zeroedMemory(count: max(slotCount, 1))
    }

    deinit { free(slots) }

    /// Starts loading the cache lines of the slots `range` (one junction's), so that a view built soon after finds
    /// them in cache: the leg's junctions are then fetched side by side instead of one miss after another.
    @inline(__always) func prefetch(_ range: Range<Int>) {
        guard range.lowerBound >= 0, range.upperBound <= count, !range.isEmpty else { return }
        let end = UnsafeRawPointer(slots + range.upperBound)
        var line = UnsafeRawPointer(slots + range.lowerBound)
        while line < end {
            navgraph_prefetch(line)
            line += 64
        }
        navgraph_prefetch(end - 1)
    }

    /// The slots `range` (one junction's), filled by `fill` the first time.
    @inline(__always) package func junction(_ range: Range<Int>, fill: (UnsafeMutableBufferPointer<JunctionSlot>) -> Void)
        -> UnsafeBufferPointer<JunctionSlot> {
        if let first = range.first, slots[first].ready == 0 {
            fill(UnsafeMutableBufferPointer(start: slots + first, count: range.count))
        }
        return UnsafeBufferPointer(start: slots + range.lowerBound, count: range.count)
    }
}

/// What the step builder needs to know about the head of each directed edge before looking at its junction, one
/// word per directed edge (filled on first use): where the junction's slots start, its road count, and whether the
/// route simply goes on there, so that a leg's walk reads a dense per-edge array (consecutive edges of a route
/// mostly have nearby ids) instead of the junction index and adjacency.
final class EdgeHeadCache: @unchecked Sendable {
    private var words: UnsafeMutablePointer<UInt64>
    private let count: Int
    /// Set when the head joins just two roads and the other one goes on with the same name, ref, class and
    /// roundabout, ferry and toll state (the `isPlainJoint` conditions that do not depend on the route).
    static let goesOn: UInt64 = 1 << 40
    package static let known: UInt64 = 1 << 41
    /// Road counts from this value up are read from the graph.
    static let degreeLimit = 0x7f

    package init(directedEdgeCount: Int) {
        count = directedEdgeCount
        words = zeroedMemory(count: max(directedEdgeCount, 1))
    }

    deinit { free(words) }

    /// Starts loading the word of directed edge d.
    @inline(__always) func prefetch(_ d: Int) {
        if d >= 0 && d < count { navgraph_prefetch(words + d) }
    }

    /// The word of directed edge d (first slot in bits 0-31, road count in bits 32-38, then `goesOn`, `known`),
    /// made by `fill` the first time.
    @inline(__always) package func head(_ d: Int, fill: (Int) -> UInt64) -> UInt64 {
        guard d >= 0 && d < count else { return fill(d) }
        let word = words[d]
        if word & Self.known != 0 { return word }
        let made = fill(d) | Self.known
        words[d] = made
        return made
    }
}

/// Room for `count` values whose bytes are all zero (a slot not yet filled, a word not yet known), from `calloc`:
/// the system hands out zero pages and only those written to take memory, so a cache the size of a country's graph
/// costs what its routes touch. Released with `free`; stops the process when the system has no memory left.
func zeroedMemory<Value>(count: Int) -> UnsafeMutablePointer<Value> {
    guard let raw = calloc(count, MemoryLayout<Value>.stride) else {
        fatalError("out of memory for a guidance cache of \(count) values")
    }
    return raw.bindMemory(to: Value.self, capacity: count)
}
