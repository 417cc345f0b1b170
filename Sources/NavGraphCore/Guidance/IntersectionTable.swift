import Foundation

/// The intersections of one leg's steps, stored flat: one fixed-size record per intersection, and the bearings and
/// entry flags of all their roads in two shared arrays, so that a leg's steps own a handful of arrays instead of two
/// or three per intersection passed. Filled once by `IntersectionTable.Builder.finish(into:)` before any step that
/// refers to it is handed out, and immutable from then on (which is what makes it safe to share between threads);
/// steps read it through `StepIntersections` and `Intersection`.
public final class IntersectionTable: @unchecked Sendable {
    /// The fixed part of one intersection.
    struct Record: Sendable {
        package var location: Coordinate
        /// Index of `location` in the leg's coordinates.
        package var geometryIndex: Int32
        /// Where the intersection's roads start in `bearings` / `entries`, and how many there are.
        var firstRoad: Int32
        var roadCount: Int32
        /// Indices into the intersection's roads, -1 for none.
        package var inIndex: Int32
        package var outIndex: Int32
        /// Index into `lanes`, -1 when the approach has no `turn:lanes`.
        package var lanes: Int32
        /// `NodeControl` bits of the junction.
        package var control: UInt8
        /// The roads whole (`IntersectionMemo.PackedRoads`) instead of in `bearings` / `entries`, 0 when they are there.
        var packedRoads: UInt64 = 0
    }

    /// One block from `malloc` holding the records, then the bearings, then the entry flags (nil when empty),
    /// freed with the table.
    private var block: UnsafeMutableRawPointer?
    /// The records, in leg order.
    private(set) var records = UnsafeBufferPointer<Record>(start: nil, count: 0)
    /// Wire bearings (0...359) of every intersection's roads, clockwise from north, ascending per intersection.
    private(set) var bearings = UnsafeBufferPointer<UInt16>(start: nil, count: 0)
    /// Whether each road in `bearings` may be entered.
    private(set) var entries = UnsafeBufferPointer<Bool>(start: nil, count: 0)
    /// Lane lists of the intersections that have them.
    private(set) var lanes = ContiguousArray<[Lane]>()

    package init() {}

    deinit { free(block) }

    /// Takes a copy of `recordCount` records and `roadCount` roads, in one exactly sized block (one allocation per
    /// leg, whatever the builder's capacity), and the lane lists; only called once, before the table is shared.
    fileprivate func fill(records source: UnsafePointer<Record>, recordCount: Int, bearings roadBearings: UnsafePointer<UInt16>,
                          entries roadEntries: UnsafePointer<Bool>, roadCount: Int, lanes laneLists: ContiguousArray<[Lane]>) {
        lanes = laneLists
        let recordBytes = recordCount * MemoryLayout<Record>.stride, bearingBytes = roadCount * MemoryLayout<UInt16>.stride
        let total = recordBytes + bearingBytes + roadCount
        guard total > 0 else { return }
        guard let raw = malloc(total) else { fatalError("out of memory for an intersection table of \(total) bytes") }
        block = raw
        let recordStart = raw.bindMemory(to: Record.self, capacity: recordCount)
        recordStart.initialize(from: source, count: recordCount)
        let bearingStart = (raw + recordBytes).bindMemory(to: UInt16.self, capacity: roadCount)
        bearingStart.initialize(from: roadBearings, count: roadCount)
        let entryStart = (raw + recordBytes + bearingBytes).bindMemory(to: Bool.self, capacity: roadCount)
        entryStart.initialize(from: roadEntries, count: roadCount)
        records = UnsafeBufferPointer(start: recordStart, count: recordCount)
        bearings = UnsafeBufferPointer(start: bearingStart, count: roadCount)
        entries = UnsafeBufferPointer(start: entryStart, count: roadCount)
    }

    /// A table of the given intersections (copies their fields), for steps made by hand.
    package static func of(_ list: [Intersection]) -> IntersectionTable {
        let builder = Builder()
        for intersection in list {
            builder.append(location: intersection.location, geometryIndex: intersection.geometryIndex,
                           inIndex: intersection.inIndex, outIndex: intersection.outIndex,
                           lanes: intersection.lanes, control: intersection.control)
            for (bearing, entry) in zip(intersection.bearings, intersection.entry) { builder.appendRoad(bearing: bearing, entry: entry) }
        }
        return builder.finish()
    }

    /// Collects a leg's intersections in buffers kept from leg to leg (one per step builder), and copies them
    /// into a table when the leg is done: appending is a pointer write, with no per-element checks.
    final class Builder {
        private var records: UnsafeMutablePointer<Record>
        private var recordCapacity = 64
        private(set) var count = 0
        private var bearings: UnsafeMutablePointer<UInt16>
        private var entries: UnsafeMutablePointer<Bool>
        private var roadCapacity = 256
        private var roadCount = 0
        private var lanes = ContiguousArray<[Lane]>()

        package init() {
            records = .allocate(capacity: recordCapacity)
            bearings = .allocate(capacity: roadCapacity)
            entries = .allocate(capacity: roadCapacity)
        }

        deinit {
            records.deallocate(); bearings.deallocate(); entries.deallocate()
        }

        /// Starts an intersection; its roads follow with `appendRoad` or `appendRoads`.
        package func append(location: Coordinate, geometryIndex: Int, inIndex: Int?, outIndex: Int?, lanes laneList: [Lane]?,
                    control: UInt8) {
            if count == recordCapacity { growRecords() }
            var lanesIndex: Int32 = -1
            if let laneList {
                lanesIndex = Int32(lanes.count)
                lanes.append(laneList)
            }
            (records + count).initialize(to: Record(location: location, geometryIndex: Int32(geometryIndex), firstRoad: Int32(roadCount),
                                                    roadCount: 0, inIndex: Int32(inIndex ?? -1), outIndex: Int32(outIndex ?? -1),
                                                    lanes: lanesIndex, control: control))
            count += 1
        }

        /// Twice the room for records.
        private func growRecords() {
            let grown = UnsafeMutablePointer<Record>.allocate(capacity: 2 * recordCapacity)
            grown.moveInitialize(from: records, count: count)
            records.deallocate()
            records = grown
            recordCapacity *= 2
        }

        /// Room for `more` roads.
        private func reserveRoads(_ more: Int) {
            guard roadCount + more > roadCapacity else { return }
            let capacity = max(2 * roadCapacity, roadCount + more)
            let grownBearings = UnsafeMutablePointer<UInt16>.allocate(capacity: capacity)
            grownBearings.moveInitialize(from: bearings, count: roadCount)
            bearings.deallocate()
            bearings = grownBearings
            let grownEntries = UnsafeMutablePointer<Bool>.allocate(capacity: capacity)
            grownEntries.moveInitialize(from: entries, count: roadCount)
            entries.deallocate()
            entries = grownEntries
            roadCapacity = capacity
        }

        /// One road of the intersection started last.
        func appendRoad(bearing: Int, entry: Bool) {
            reserveRoads(1)
            (bearings + roadCount).initialize(to: UInt16(truncatingIfNeeded: bearing))
            (entries + roadCount).initialize(to: entry)
            roadCount += 1
            records[count - 1].roadCount += 1
        }

        /// Room for `capacity` roads after the last one appended, written before their intersection is started
        /// (`append`) and kept with `commitStaged`; roads staged and not committed are overwritten by the next ones.
        func stageRoads(_ capacity: Int) -> (bearings: UnsafeMutablePointer<UInt16>, entries: UnsafeMutablePointer<Bool>) {
            reserveRoads(capacity)
            return (bearings + roadCount, entries + roadCount)
        }

        /// Keeps the first `staged` roads written at `stageRoads` as the roads of the intersection started last.
        func commitStaged(_ staged: Int) {
            roadCount += staged
            records[count - 1].roadCount += Int32(staged)
        }

        /// An intersection without lanes whose roads are the `listed` slots of a junction (bit per slot position,
        /// bearing order), `entryBits` saying which may be entered (bit per listed road, in order).
        func appendListed(slots base: UnsafePointer<JunctionSlot>, listed: UInt32, entryBits: UInt32, location: Coordinate,
                          geometryIndex: Int, inIndex: Int, outIndex: Int, control: UInt8) {
            if count == recordCapacity { growRecords() }
            // At most one road per slot bit (counted as written: no popcount on the baseline target).
            if roadCount + JunctionSlot.maskedDegree > roadCapacity { reserveRoads(JunctionSlot.maskedDegree) }
            let roadBearings = bearings + roadCount, roadEntries = entries + roadCount
            var remaining = listed, entriesLeft = entryBits, index = 0
            while remaining != 0 {
                let position = remaining.trailingZeroBitCount
                remaining &= remaining - 1
                roadBearings[index] = base[position].wire
                roadEntries[index] = entriesLeft & 1 != 0
                entriesLeft >>= 1
                index += 1
            }
            (records + count).initialize(to: Record(location: location, geometryIndex: Int32(geometryIndex), firstRoad: Int32(roadCount),
                                                    roadCount: Int32(index), inIndex: Int32(inIndex), outIndex: Int32(outIndex),
                                                    lanes: -1, control: control))
            count += 1
            roadCount += index
        }

        /// An intersection without lanes whose roads are given whole (`IntersectionMemo.PackedRoads`): kept packed
        /// in its record (eight bytes, read back by `IntersectionBearings` and `IntersectionEntries`).
        @inline(__always) func appendPacked(_ roads: IntersectionMemo.PackedRoads, location: Coordinate, geometryIndex: Int,
                                            inIndex: Int, outIndex: Int, control: UInt8) {
            if count == recordCapacity { growRecords() }
            (records + count).initialize(to: Record(location: location, geometryIndex: Int32(geometryIndex), firstRoad: Int32(roadCount),
                                                    roadCount: Int32(roads.count), inIndex: Int32(inIndex), outIndex: Int32(outIndex),
                                                    lanes: -1, control: control, packedRoads: roads.word))
            count += 1
        }

        /// The roads of a junction view, for the intersection started last.
        func appendRoads(_ roads: UnsafeBufferPointer<JunctionRoad>) {
            reserveRoads(roads.count)
            for index in roads.indices {
                (bearings + roadCount + index).initialize(to: roads[index].wire)
                (entries + roadCount + index).initialize(to: roads[index].entry)
            }
            roadCount += roads.count
            records[count - 1].roadCount += Int32(roads.count)
        }

        /// The table of everything appended since the last `finish`; the builder starts empty again.
        package func finish() -> IntersectionTable {
            let table = IntersectionTable()
            finish(into: table)
            return table
        }

        /// Fills `table` (new, and not yet handed to any other thread) with everything appended since the last
        /// `finish`; the builder starts empty again.
        package func finish(into table: IntersectionTable) {
            table.fill(records: records, recordCount: count, bearings: bearings, entries: entries, roadCount: roadCount, lanes: lanes)
            count = 0
            roadCount = 0
            lanes = []
        }
    }
}

/// The intersections one step passes (its first is the maneuver point), a window onto its leg's `IntersectionTable`.
public struct StepIntersections: RandomAccessCollection, Sendable, Equatable {
    package let table: IntersectionTable
    /// Record indices of the step's intersections in `table`.
    package let records: Range<Int>

    package init(table: IntersectionTable, records: Range<Int>) {
        self.table = table; self.records = records
    }

    /// The given intersections, in a table of their own.
    public init(_ list: [Intersection]) {
        self.init(table: IntersectionTable.of(list), records: 0..<list.count)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { records.count }
    public subscript(position: Int) -> Intersection { Intersection(table: table, record: records.lowerBound + position) }

    public static func == (a: StepIntersections, b: StepIntersections) -> Bool { a.elementsEqual(b) }
}

/// The wire bearings of an intersection's roads (clockwise from north, ascending).
public struct IntersectionBearings: RandomAccessCollection, Sendable, Equatable {
    package let table: IntersectionTable
    package let roads: Range<Int>
    /// The roads packed in the record (`IntersectionTable.Record.packedRoads`), 0 when they are in the table.
    let packed: UInt64
    public var startIndex: Int { 0 }
    public var endIndex: Int { roads.count }
    public subscript(position: Int) -> Int {
        packed != 0 ? Int(IntersectionMemo.PackedRoads(word: packed).bearing(position)) : Int(table.bearings[roads.lowerBound + position])
    }
    public static func == (a: IntersectionBearings, b: IntersectionBearings) -> Bool { a.elementsEqual(b) }
}

/// Whether each road of an intersection (in bearing order) may be entered.
public struct IntersectionEntries: RandomAccessCollection, Sendable, Equatable {
    package let table: IntersectionTable
    package let roads: Range<Int>
    /// As `IntersectionBearings.packed`.
    let packed: UInt64
    public var startIndex: Int { 0 }
    public var endIndex: Int { roads.count }
    public subscript(position: Int) -> Bool {
        packed != 0 ? IntersectionMemo.PackedRoads(word: packed).entry(position) : table.entries[roads.lowerBound + position]
    }
    public static func == (a: IntersectionEntries, b: IntersectionEntries) -> Bool { a.elementsEqual(b) }
}
