/// Many-to-many fastest paths on the hierarchy with buckets: an upward search from every target leaves
/// (target, label) entries in a bucket at each node it reaches; an upward search from every source then scans
/// the buckets of the nodes it reaches. Both run in parallel on all cores, one `BucketWorker` per core.
///
/// Each cell equals the leg `Router.legPath` finds between the same snaps: the searches relax nodes in the
/// same order as `CCHSearch`, and each source picks the lowest-ranked meeting node among the cheapest, as it does.
/// Nodes whose label is not exact are left out of buckets and scans (`UpwardSearch.dropInexactLabels`).
/// Targets go through in chunks so that bucket memory stays bounded whatever the number of targets.
public final class BucketManyToMany {
    private let router: Router
    private let metric: RoutingMetric
    private let attributes: PathAttributes?
    private let kinds: PathAttributeSet
    /// Targets per bucket pass (bounds bucket memory to chunk × search-space size).
    public var chunkSize = 2048
    /// Which algorithm computes the table.
    public var strategy = MatrixStrategy.automatic
    /// Search state and bucket memory, made on the first bucket table and reused by every later one (map matching
    /// computes one small table per trace step).
    /// Threads a table uses (one per core; map matching's tables of a few cells use one).
    public var threads = Parallel.workerCount
    /// With a bound, the searches stop relaxing beyond it and skip `UpwardSearch.dropInexactLabels`: every cell
    /// whose cost is at most the bound is exact, its attributes those of one of its cheapest paths (legs may take
    /// another of equal cost); a cell above the bound is left unreachable. Cells of one edge come from the buckets
    /// too (a meeting that would drive the edge backwards is skipped), not from a leg search each. Map matching
    /// bounds each step's table by the longest transition it can accept. Bounded tables need path attributes.
    package var costBound: UInt32?
    private lazy var workers = (0..<max(1, threads)).map { _ in BucketWorker(graph: router.graph, attributes: attributes) }
    private lazy var buckets = BucketStore(nodeCount: router.graph.routingNodeCount, width: attributes?.width ?? 0)

    /// How a table is computed: CCH buckets, or one restricted elimination-tree sweep per source (RPHAST, costs
    /// only: it is used when no path attributes are carried), or whichever the sizes favour.
    public enum MatrixStrategy: Sendable { case automatic, buckets, sweep }

    /// Sources up to which `automatic` considers sweeps (each source sweeps the whole restricted set).
    static let sweepSourceLimit = 64

    /// A matrix engine for one metric; `attributes` names what to carry besides the cost (distance, exact duration).
    public init(router: Router, metric: RoutingMetric, attributes: PathAttributeSet) {
        self.router = router
        self.metric = metric
        kinds = attributes
        self.attributes = attributes.isEmpty ? nil : PathAttributes(graph: router.graph, metric: metric, kinds: attributes)
    }

    /// The table between snapped points; nil snaps give unreachable rows or columns.
    public func compute(sources: [Snap?], destinations: [Snap?]) -> TravelMatrix {
        let planner = RoutePlanner(graph: router.graph, costs: router.costs)
        let sourcePoints = matrixPoints(sources, planner: planner)
        let targetPoints = Self.samePoints(sources, destinations) ? sourcePoints : matrixPoints(destinations, planner: planner)
        return compute(sourcePoints: sourcePoints, targetPoints: targetPoints, planner: planner)
    }

    /// The search starts of a snap for this engine's metric and attributes, for callers that reuse a point in many
    /// tables (map matching uses each candidate in two steps); `segmentLengths` as `MatrixPoint` takes them.
    func point(_ snap: Snap, planner: RoutePlanner, segmentLengths: UnsafeBufferPointer<Double>? = nil) -> MatrixPoint {
        MatrixPoint(snap: snap, metric: metric, planner: planner, attributes: attributes, segmentLengths: segmentLengths)
    }

    /// The table between points made by `point(_:planner:)` (or `matrixPoints`); nil points give unreachable rows or columns.
    /// A bounded table leaves unreachable the cells whose path must leave the edge and come back to it when that
    /// path would be longer than `loopMetres` (its part on the edge alone is): map matching accepts no transition
    /// longer than its limit, and its search for a fix just behind the previous one wants no loop at all.
    func compute(sourcePoints: [MatrixPoint?], targetPoints: [MatrixPoint?], planner: RoutePlanner,
                         loopMetres: Double = .infinity) -> TravelMatrix {
        let rows = sourcePoints.count, columns = targetPoints.count
        let width = attributes?.width ?? 0
        var cost = ContiguousArray<UInt32>(repeating: TravelMatrix.unreachable, count: rows * columns)
        var values = ContiguousArray<Double>(repeating: 0, count: rows * columns * width)
        if let sweep = chosenSweep(rows: rows, targets: targetPoints, width: width) {
            sweep.prepare(down: metric.hierarchy.backward)
            sweepCells(sweep, sourcePoints, targetPoints, cost: &cost)
            var matrix = TravelMatrix(sourceCount: rows, destinationCount: columns, cost: cost, distance: nil, exactDuration: nil,
                                      algorithm: "RPHAST sweeps (\(Parallel.workerCount) threads, \(sweep.nodes.count) nodes, \(sweep.arcCount) arcs per source)")
            sameEdgeCells(sourcePoints, targetPoints, planner: planner, cost: &matrix.cost, values: &values, width: 0)
            return matrix
        }
        let workers = self.workers, buckets = self.buckets
        let forward = metric.hierarchy.forward, backward = metric.hierarchy.backward
        let chunk = max(1, chunkSize)
        // With attributes: the bucket entry each cell met its target's search at, per row of the current chunk.
        var meeting = ContiguousArray<UInt32>(repeating: UInt32.max, count: width > 0 ? rows * min(chunk, columns) : 0)
        cost.withUnsafeMutableBufferPointer { costBuffer in
            values.withUnsafeMutableBufferPointer { valueBuffer in
                meeting.withUnsafeMutableBufferPointer { meetingBuffer in
                    let costOut = SharedBuffer(costBuffer), valueOut = SharedBuffer(valueBuffer), meetOut = SharedBuffer(meetingBuffer)
                    var chunkStart = 0
                    while chunkStart < columns {
                        let chunkEnd = min(columns, chunkStart + chunk), chunkWidth = chunkEnd - chunkStart
                        Parallel.run(workers.count) { index in
                            let worker = workers[index]
                            worker.clear()
                            var column = chunkStart + index
                            while column < chunkEnd {
                                if let point = targetPoints[column], !point.targets.isEmpty {
                                    worker.collect(point, target: UInt32(column - chunkStart), weights: backward, down: forward, bound: costBound)
                                }
                                column += workers.count
                            }
                        }
                        buckets.fill(from: workers)
                        var shifts = ContiguousArray<UInt32>(repeating: 0, count: chunkWidth)
                        for column in chunkStart..<chunkEnd { shifts[column - chunkStart] = targetPoints[column]?.shift ?? 0 }
                        if width > 0 { for index in 0..<meetOut.count { meetOut.pointer[index] = UInt32.max } }
                        Parallel.run(workers.count) { index in
                            let worker = workers[index]
                            var row = index
                            while row < rows {
                                if let point = sourcePoints[row], !point.sources.isEmpty {
                                    worker.scan(point, buckets: buckets, shifts: shifts, weights: forward, down: backward, bound: costBound,
                                                row: row, firstColumn: chunkStart, columns: columns, costOut: costOut, valueOut: valueOut, meetOut: meetOut)
                                }
                                row += workers.count
                            }
                        }
                        if width > 0 {
                            // Each target's part of the paths, summed on demand along its search tree; one core per target.
                            Parallel.run(workers.count) { index in
                                let worker = workers[index]
                                var column = index
                                while column < chunkWidth {
                                    for row in 0..<rows {
                                        let entry = meetOut.pointer[row * chunkWidth + column]
                                        if entry == UInt32.max { continue }
                                        let down = buckets.treeValue(Int(entry), memo: worker.memo, scratch: &worker.chain)
                                        let cell = (row * columns + chunkStart + column) * width
                                        for k in 0..<width { valueOut.pointer[cell + k] = valueOut.pointer[cell + k] + down[k] }
                                    }
                                    column += workers.count
                                }
                            }
                        }
                        chunkStart = chunkEnd
                    }
                }
            }
        }
        var matrix = TravelMatrix(sourceCount: rows, destinationCount: columns, cost: cost, distance: nil, exactDuration: nil,
                                  algorithm: "CCH buckets (\(workers.count) threads, \((columns + chunk - 1) / chunk) bucket pass(es))")
        let bounded = costBound != nil && width > 0
        if loopMetres > 0 || !bounded {
            sameEdgeCells(sourcePoints, targetPoints, planner: planner, cost: &matrix.cost, values: &values, width: width,
                          loopMetres: bounded ? loopMetres : nil)
        }
        if width > 0 {
            if kinds.contains(.distance) {
                matrix.distance = ContiguousArray((0..<(rows * columns)).lazy.map { values[$0 * width] })
            }
            if kinds.contains(.duration) {
                let slot = width - 1
                matrix.exactDuration = ContiguousArray((0..<(rows * columns)).lazy.map { values[$0 * width + slot] / 1000 })
            }
        }
        return matrix
    }

    /// Each snap's search starts, computed on all cores.
    private func matrixPoints(_ snaps: [Snap?], planner: RoutePlanner) -> [MatrixPoint?] {
        var points = [MatrixPoint?](repeating: nil, count: snaps.count)
        points.withUnsafeMutableBufferPointer { buffer in
            let out = SharedBuffer(buffer), workers = min(max(1, threads), max(1, snaps.count))
            Parallel.run(workers) { worker in
                for index in stride(from: worker, to: snaps.count, by: workers) {
                    out.pointer[index] = snaps[index].map { MatrixPoint(snap: $0, metric: metric, planner: planner, attributes: attributes) }
                }
            }
        }
        return points
    }

    /// Whether the destinations are the sources (a square table of one point list): their search starts are shared.
    private static func samePoints(_ sources: [Snap?], _ destinations: [Snap?]) -> Bool {
        sources.count == destinations.count && zip(sources, destinations).allSatisfy { a, b in
            guard let a, let b else { return a == nil && b == nil }
            return a.edge == b.edge && a.directions == b.directions && a.segment == b.segment && a.offset == b.offset && a.point.lat == b.point.lat && a.point.lon == b.point.lon
        }
    }

    /// The sweep engine when it is asked for or, under `automatic`, when its cost (every source sweeps the
    /// restricted set) is below the buckets' (every point's search, bucket entries and their scans); nil for buckets.
    private func chosenSweep(rows: Int, targets: [MatrixPoint?], width: Int) -> TargetSweep? {
        guard width == 0, strategy != .buckets, rows > 0, !targets.isEmpty else { return nil }
        if strategy == .automatic && rows > Self.sweepSourceLimit { return nil }
        let sweep = TargetSweep(graph: router.graph, targets: targets)
        if strategy == .sweep { return sweep }
        let searchArcs = sweep.targetSearchArcs / max(1, targets.count)
        let bucketCost = (rows + targets.count) * searchArcs * 3 + rows * targets.count
        let sweepCost = rows * sweep.arcCount + sweep.arcCount * 2
        return sweepCost < bucketCost ? sweep : nil
    }

    /// Costs of every cell by one upward search and one restricted sweep per source, rows on all cores.
    private func sweepCells(_ sweep: TargetSweep, _ sources: [MatrixPoint?], _ targets: [MatrixPoint?], cost: inout ContiguousArray<UInt32>) {
        let graph = router.graph, forward = metric.hierarchy.forward
        let rows = sources.count, columns = targets.count
        let workers = min(Parallel.workerCount, rows)
        let infinity = UInt64(CCHMetric.infinity)
        cost.withUnsafeMutableBufferPointer { costBuffer in
            let costOut = SharedBuffer(costBuffer)
            Parallel.run(workers) { worker in
                let search = UpwardSearch(graph: graph, width: 0)
                let best = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: max(1, sweep.nodes.count))
                defer { best.deallocate() }
                let labels = UnsafeMutableBufferPointer(rebasing: best[0..<sweep.nodes.count])
                var row = worker
                while row < rows {
                    defer { row += workers }
                    guard let point = sources[row], !point.sources.isEmpty else { continue }
                    search.run(point.sources[...], weights: forward)
                    sweep.sweep(from: search, into: labels)
                    for (column, target) in targets.enumerated() {
                        guard let target else { continue }
                        var total = UInt64.max
                        for start in target.targets {
                            let index = sweep.index(of: start.node)
                            guard index >= 0, labels[index] < CCHMetric.infinity else { continue }
                            total = min(total, UInt64(labels[index]) + UInt64(start.cost))
                        }
                        let shift = UInt64(target.shift)
                        guard total != UInt64.max, total < infinity + shift, total >= shift else { continue }
                        costOut.pointer[row * columns + column] = UInt32(total - shift)
                    }
                }
            }
        }
    }

    /// Cells whose source and destination lie on the same road edge, computed as legs do: driving straight
    /// along the edge when the destination lies ahead (nothing else can be faster), else the general search
    /// that first leaves the edge (`Router.legPath`).
    /// With `loopMetres` (bounded tables, whose buckets give every other same-edge cell), only the cells whose
    /// target lies behind the source on a direction they share: their path leaves the edge and comes back to it,
    /// which no pair of upward searches from that one routing node can describe; and of those only the ones whose
    /// part on the edge (from the source to its end, from its start to the target) is at most `loopMetres`.
    private func sameEdgeCells(_ sources: [MatrixPoint?], _ targets: [MatrixPoint?], planner: RoutePlanner,
                               cost: inout ContiguousArray<UInt32>, values: inout ContiguousArray<Double>, width: Int,
                               loopMetres: Double? = nil) {
        var targetsByEdge: [Int: [Int]] = [:]
        for (column, point) in targets.enumerated() { if let point { targetsByEdge[point.snap.edge, default: []].append(column) } }
        let columns = targets.count
        for (row, source) in sources.enumerated() {
            guard let source, let columnsOnEdge = targetsByEdge[source.snap.edge] else { continue }
            for column in columnsOnEdge {
                guard let target = targets[column] else { continue }
                if let loopMetres, !source.partial.contains(where: { departure in
                    target.partial.contains { arrival in
                        guard arrival.node == departure.node && arrival.cost < departure.cost else { return false }
                        let d = Int(router.graph.routingEdge[arrival.node])
                        let onEdge = router.graph.edgeLength[d >> 1] - planner.position(of: source.snap, onDirectedEdge: d)
                            + planner.position(of: target.snap, onDirectedEdge: d)
                        return onEdge <= loopMetres
                    }
                }) { continue }
                let index = row * columns + column
                var found: (cost: Int, values: (Double, Double))?
                var direct: (cost: Int, node: Int)?
                for (node, departure) in source.partial {
                    guard let arrival = target.partial.first(where: { $0.node == node })?.cost, arrival >= departure else { continue }
                    if direct.map({ Int(arrival - departure) < $0.cost }) ?? true { direct = (Int(arrival - departure), node) }
                }
                if let direct {
                    var piece = (0.0, 0.0)
                    if let attributes {
                        let d = Int(router.graph.routingEdge[direct.node])
                        attributes.piece(directedEdge: d, from: planner.position(of: source.snap, onDirectedEdge: d),
                                         to: planner.position(of: target.snap, onDirectedEdge: d), into: &piece)
                    }
                    found = (direct.cost, piece)
                } else if let leg = router.legPath(from: source.snap, to: target.snap, metric: metric, algorithm: .hierarchy) {
                    found = (leg.cost, attributes?.path(leg.nodes, source: source.snap, target: target.snap, planner: planner) ?? (0, 0))
                }
                guard let found, found.cost >= 0, found.cost < Int(CCHMetric.infinity), found.cost <= Int(costBound ?? UInt32.max) else {
                    cost[index] = TravelMatrix.unreachable
                    continue
                }
                cost[index] = UInt32(found.cost)
                if width > 0 { values[index * width] = found.values.0 }
                if width > 1 { values[index * width + 1] = found.values.1 }
            }
        }
    }
}

/// Bucket entries of one chunk of targets in compressed rows by the nodes that hold any: node v's entries are
/// `start[k]..<start[k + 1]` where `nodeSlot[v]` names slot k under the current fill's stamp. Filling costs the
/// entries, not the graph's size, so the small tables of map matching stay cheap. Reused for every chunk (its
/// node-sized array is allocated once).
final class BucketStore: @unchecked Sendable {
    package let width: Int
    /// Per routing node: the fill's stamp (high 32 bits) and the node's slot (low 32 bits); a node whose stamp is
    /// not the current one has no entries.
    var nodeSlot: ContiguousArray<UInt64>
    package var stamp: UInt32 = 0
    package var start = ContiguousArray<UInt32>()
    package var target = ContiguousArray<UInt32>()
    package var label = ContiguousArray<UInt32>()
    /// Tree node of each entry (with attributes).
    package var tree = ContiguousArray<UInt32>()
    /// The targets' search trees: parent tree node (-1 at a root), the arc from it and its lower end.
    private var treeParent = ContiguousArray<Int32>()
    private var treeArc = ContiguousArray<Int32>()
    private var treeLow = ContiguousArray<Int32>()
    /// Path values (`width` per tree node), valid where `treeSummed`.
    private var treeValues: UnsafeMutablePointer<Double>
    private var treeSummed: UnsafeMutablePointer<Bool>
    private var treeCapacity = 0

    package init(nodeCount: Int, width: Int) {
        self.width = width
        nodeSlot = ContiguousArray(repeating: 0, count: max(1, nodeCount))
        treeValues = .allocate(capacity: 1)
        treeSummed = .allocate(capacity: 1)
    }

    deinit {
        treeValues.deallocate()
        treeSummed.deallocate()
    }

    /// Sorts the workers' entries into buckets by node (counting sort over the nodes that hold entries) and joins
    /// their trees.
    package func fill(from workers: [BucketWorker]) {
        stamp &+= 1
        if stamp == 0 {
            // The stamp wrapped: clear every node's slot once, so that no old slot reads as current.
            nodeSlot.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            stamp = 1
        }
        let current = UInt64(stamp) << 32
        var total = 0
        start.removeAll(keepingCapacity: true)
        start.append(0)
        nodeSlot.withUnsafeMutableBufferPointer { nodeSlot in
            for worker in workers {
                total += worker.entries.count
                worker.entries.withUnsafeBufferPointer { entries in
                    for entry in entries {
                        let node = Int(entry.node)
                        if nodeSlot[node] & 0xFFFF_FFFF_0000_0000 != current {
                            nodeSlot[node] = current | UInt64(start.count - 1)
                            start.append(0)
                        }
                        start[Int(nodeSlot[node] & 0xFFFF_FFFF) + 1] += 1
                    }
                }
            }
        }
        let slots = start.count - 1
        start.withUnsafeMutableBufferPointer { start in
            for slot in 0..<slots { start[slot + 1] += start[slot] }
        }
        target = ContiguousArray(repeating: 0, count: total)
        label = ContiguousArray(repeating: 0, count: total)
        if width > 0 { joinTrees(workers, entries: total) }
        var cursor = start
        var treeOffset = 0
        let tracking = width > 0
        nodeSlot.withUnsafeBufferPointer { nodeSlot in
            cursor.withUnsafeMutableBufferPointer { cursor in
                target.withUnsafeMutableBufferPointer { target in
                    label.withUnsafeMutableBufferPointer { label in
                        tree.withUnsafeMutableBufferPointer { tree in
                            for worker in workers {
                                worker.entries.withUnsafeBufferPointer { entries in
                                    for entry in entries {
                                        let slot = Int(nodeSlot[Int(entry.node)] & 0xFFFF_FFFF)
                                        let index = Int(cursor[slot])
                                        cursor[slot] += 1
                                        target[index] = entry.target
                                        label[index] = entry.label
                                        if tracking { tree[index] = entry.tree + UInt32(treeOffset) }
                                    }
                                }
                                treeOffset += worker.treeParent.count
                            }
                        }
                    }
                }
            }
        }
    }

    /// The entries of `node` in the current fill (empty where it holds none).
    @inline(__always)
    package static func entries(of node: Int, nodeSlot: UnsafeBufferPointer<UInt64>, stamp: UInt64,
                                start: UnsafeBufferPointer<UInt32>) -> Range<Int> {
        let value = nodeSlot[node]
        guard value & 0xFFFF_FFFF_0000_0000 == stamp else { return 0..<0 }
        let slot = Int(value & 0xFFFF_FFFF)
        return Int(start[slot])..<Int(start[slot + 1])
    }

    private func joinTrees(_ workers: [BucketWorker], entries: Int) {
        tree = ContiguousArray(repeating: 0, count: entries)
        let count = workers.reduce(0) { $0 + $1.treeParent.count }
        var treeParent = ContiguousArray<Int32>(), treeArc = ContiguousArray<Int32>(), treeLow = ContiguousArray<Int32>()
        swap(&treeParent, &self.treeParent); swap(&treeArc, &self.treeArc); swap(&treeLow, &self.treeLow)
        defer { swap(&treeParent, &self.treeParent); swap(&treeArc, &self.treeArc); swap(&treeLow, &self.treeLow) }
        treeParent.removeAll(keepingCapacity: true); treeArc.removeAll(keepingCapacity: true); treeLow.removeAll(keepingCapacity: true)
        if count > treeCapacity {
            treeValues.deallocate(); treeSummed.deallocate()
            treeCapacity = count
            treeValues = .allocate(capacity: max(1, count * width))
            treeSummed = .allocate(capacity: max(1, count))
        }
        let treeValues = self.treeValues, treeSummed = self.treeSummed, width = self.width
        var offset = 0
        for worker in workers {
            worker.treeParent.withUnsafeBufferPointer { parents in
                worker.treeArc.withUnsafeBufferPointer { arcs in
                    worker.treeLow.withUnsafeBufferPointer { lows in
                        worker.rootValues.withUnsafeBufferPointer { rootValues in
                            for (index, parent) in parents.enumerated() {
                                treeParent.append(parent < 0 ? -1 : parent + Int32(offset))
                                treeArc.append(arcs[index])
                                treeLow.append(lows[index])
                                let root = parent < 0
                                treeSummed[offset + index] = root
                                if root { for k in 0..<width { treeValues[(offset + index) * width + k] = rootValues[index * width + k] } }
                            }
                        }
                    }
                }
            }
            offset += worker.treeParent.count
        }
    }

    /// Path value of tree node `node` (its target's path from the node down to the target), summed on demand.
    /// Only one thread at a time may ask for the nodes of one target's tree.
    func treeValue(_ node: Int, memo: ArcValueMemo?, scratch chain: inout ContiguousArray<Int32>) -> UnsafePointer<Double> {
        if let memo, !treeSummed[node] {
            let treeParent = self.treeParent, treeArc = self.treeArc, treeLow = self.treeLow
            let treeSummed = self.treeSummed, treeValues = self.treeValues, width = self.width
            sumDownTree(from: node, chain: &chain, parent: { treeSummed[$0] || treeParent[$0] < 0 ? nil : Int(treeParent[$0]) }) { child in
                let parent = Int(treeParent[child])
                memo.add(arc: Int(treeArc[child]), low: Int(treeLow[child]), up: false, to: treeValues + parent * width, into: treeValues + child * width)
                treeSummed[child] = true
            }
        }
        return UnsafePointer(treeValues + node * width)
    }
}

/// One core's reusable state for the bucket many-to-many: its search, its bucket entries (and, with attributes,
/// its targets' search trees) and its row of best costs. Lifetime: one `compute` call; one thread at a time.
final class BucketWorker: @unchecked Sendable {
    struct Entry { var node: UInt32; var target: UInt32; var label: UInt32; var tree: UInt32 }
    package let search: UpwardSearch
    package let width: Int
    package var entries = ContiguousArray<Entry>()
    /// Search trees of this worker's targets in this chunk: parent tree node (-1 at a root), arc, its lower end,
    /// and a root's start values (`width` per node, meaningful at roots only).
    var treeParent = ContiguousArray<Int32>()
    var treeArc = ContiguousArray<Int32>()
    var treeLow = ContiguousArray<Int32>()
    var rootValues = ContiguousArray<Double>()
    /// Arc attributes this worker has computed (nil when only costs are asked for).
    package let memo: ArcValueMemo?
    package var chain = ContiguousArray<Int32>()
    /// Tree node of each routing node in the current search, valid where `stamp` is the current search's.
    private var treeNodeOf: ContiguousArray<Int32>
    private var stamp: ContiguousArray<UInt32>
    private var serial: UInt32 = 0
    private var best = ContiguousArray<UInt64>()
    private var bestEntry = ContiguousArray<UInt32>()
    private var bestNode = ContiguousArray<Int32>()

    package init(graph: RoutingGraph, attributes: PathAttributes?) {
        width = attributes?.width ?? 0
        search = UpwardSearch(graph: graph, width: width)
        memo = attributes.map { ArcValueMemo(attributes: $0) }
        let nodes = width > 0 ? max(1, graph.routingNodeCount) : 0
        treeNodeOf = ContiguousArray(repeating: -1, count: nodes)
        stamp = ContiguousArray(repeating: 0, count: nodes)
    }

    /// Forgets the previous chunk's entries and trees.
    package func clear() {
        entries.removeAll(keepingCapacity: true)
        treeParent.removeAll(keepingCapacity: true); treeArc.removeAll(keepingCapacity: true)
        treeLow.removeAll(keepingCapacity: true); rootValues.removeAll(keepingCapacity: true)
    }

    /// Backward upward search from a target; appends an entry for every node whose label is exact (and, with
    /// attributes, the node to its tree).
    func collect(_ point: MatrixPoint, target: UInt32, weights: UnsafeBufferPointer<UInt32>, down: UnsafeBufferPointer<UInt32>,
                         bound: UInt32?) {
        let limit = bound.map { UInt64($0) + UInt64(point.shift) } ?? UInt64(UInt32.max - 1)
        search.run(point.targets[...], weights: weights, parents: width > 0, bound: UInt32(min(limit, UInt64(CCHMetric.infinity - 1))))
        if bound == nil { search.dropInexactLabels(down: down) }
        serial &+= 1
        // The lists are moved out of the object for the loop, so that appending to them costs no exclusivity check.
        var entries = ContiguousArray<Entry>(), treeParent = ContiguousArray<Int32>(), treeArc = ContiguousArray<Int32>()
        var treeLow = ContiguousArray<Int32>(), rootValues = ContiguousArray<Double>()
        var treeNodeOf = ContiguousArray<Int32>(), stamp = ContiguousArray<UInt32>()
        swap(&entries, &self.entries); swap(&treeParent, &self.treeParent); swap(&treeArc, &self.treeArc)
        swap(&treeLow, &self.treeLow); swap(&rootValues, &self.rootValues)
        swap(&treeNodeOf, &self.treeNodeOf); swap(&stamp, &self.stamp)
        defer {
            swap(&entries, &self.entries); swap(&treeParent, &self.treeParent); swap(&treeArc, &self.treeArc)
            swap(&treeLow, &self.treeLow); swap(&rootValues, &self.rootValues)
            swap(&treeNodeOf, &self.treeNodeOf); swap(&stamp, &self.stamp)
        }
        let serial = self.serial, width = self.width, search = self.search, label = search.label
        for node32 in search.nodes {
            let node = Int(node32)
            let value = label[node]
            if UInt64(value) > limit { continue }
            guard width > 0, let memo else {
                entries.append(Entry(node: UInt32(node), target: target, label: value, tree: 0))
                continue
            }
            let treeNode = Int32(treeParent.count)
            entries.append(Entry(node: UInt32(node), target: target, label: value, tree: UInt32(treeNode)))
            treeNodeOf[node] = treeNode
            stamp[node] = serial
            let arc = search.parentArc[node], parent = Int(search.parentNode[node])
            if arc >= 0 && stamp[parent] == serial {
                treeParent.append(treeNodeOf[parent]); treeArc.append(arc); treeLow.append(Int32(parent))
                for _ in 0..<width { rootValues.append(0) }
            } else {
                // A start, or (should its parent's label not be exact) a root with its path summed now.
                let values = search.pathValue(of: node, memo: memo, up: false)
                treeParent.append(-1); treeArc.append(-1); treeLow.append(-1)
                for k in 0..<width { rootValues.append(values[k]) }
            }
        }
    }

    /// Forward upward search from a source, then the buckets of every node it reached; writes the row's cells
    /// of the current chunk (with attributes: the source's part of each path and the entry it met).
    package func scan(_ point: MatrixPoint, buckets: BucketStore, shifts: ContiguousArray<UInt32>, weights: UnsafeBufferPointer<UInt32>,
              down: UnsafeBufferPointer<UInt32>, bound: UInt32?, row: Int, firstColumn: Int, columns: Int,
              costOut: SharedBuffer<UInt32>, valueOut: SharedBuffer<Double>, meetOut: SharedBuffer<UInt32>) {
        let limit = bound ?? UInt32.max - 1
        search.run(point.sources[...], weights: weights, parents: width > 0, bound: min(limit, CCHMetric.infinity - 1))
        if bound == nil { search.dropInexactLabels(down: down) }
        let count = shifts.count
        if best.count < count {
            best = ContiguousArray(repeating: UInt64.max, count: count)
            bestEntry = ContiguousArray(repeating: 0, count: count)
            bestNode = ContiguousArray(repeating: 0, count: count)
        }
        for column in 0..<count { best[column] = UInt64.max }
        let label = search.label
        let tracking = width > 0, bounded = bound != nil
        let currentStamp = UInt64(buckets.stamp) << 32
        buckets.nodeSlot.withUnsafeBufferPointer { nodeSlot in
            buckets.start.withUnsafeBufferPointer { start in
                buckets.target.withUnsafeBufferPointer { target in
                    buckets.label.withUnsafeBufferPointer { entryLabel in
                        best.withUnsafeMutableBufferPointer { best in
                            bestEntry.withUnsafeMutableBufferPointer { bestEntry in
                                bestNode.withUnsafeMutableBufferPointer { bestNode in
                                    for node32 in search.nodes {
                                        let node = Int(node32)
                                        let forward = label[node]
                                        if forward == UInt32.max { continue }
                                        let range = BucketStore.entries(of: node, nodeSlot: nodeSlot, stamp: currentStamp, start: start)
                                        let begin = range.lowerBound, end = range.upperBound
                                        if begin == end { continue }
                                        let base = UInt64(forward)
                                        if !tracking {
                                            for entry in begin..<end {
                                                let total = base + UInt64(entryLabel[entry])
                                                let column = Int(target[entry])
                                                if total < best[column] { best[column] = total }
                                            }
                                        } else if bounded {
                                            // A meeting below the column's shift is a target behind the source on one
                                            // edge, met at the edge itself: not a path, so it must not hide the
                                            // cheapest real one (the route around), which the buckets also hold.
                                            for entry in begin..<end {
                                                let total = base + UInt64(entryLabel[entry])
                                                let column = Int(target[entry])
                                                if total < best[column] && total >= UInt64(shifts[column]) {
                                                    best[column] = total
                                                    bestEntry[column] = UInt32(entry)
                                                    bestNode[column] = node32
                                                }
                                            }
                                        } else {
                                            for entry in begin..<end {
                                                let total = base + UInt64(entryLabel[entry])
                                                let column = Int(target[entry])
                                                if total < best[column] {
                                                    best[column] = total
                                                    bestEntry[column] = UInt32(entry)
                                                    bestNode[column] = node32
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        let infinity = UInt64(CCHMetric.infinity)
        for column in 0..<count {
            let index = row * columns + firstColumn + column
            let total = best[column], shift = UInt64(shifts[column])
            guard total != UInt64.max, total < infinity + shift, total >= shift, total - shift <= UInt64(limit) else { continue }
            costOut.pointer[index] = UInt32(total - shift)
            if tracking, let memo {
                let up = search.pathValue(of: Int(bestNode[column]), memo: memo, up: true)
                for k in 0..<width { valueOut.pointer[index * width + k] = up[k] }
                meetOut.pointer[row * count + column] = buckets.tree[Int(bestEntry[column])]
            }
        }
    }
}
