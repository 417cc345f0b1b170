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

    /// A matrix engine for one metric; `attributes` names what to carry besides the cost (distance, exact duration).
    public init(router: Router, metric: RoutingMetric, attributes: PathAttributeSet) {
        self.router = router
        self.metric = metric
        kinds = attributes
        self.attributes = attributes.isEmpty ? nil : PathAttributes(graph: router.graph, metric: metric, kinds: attributes)
    }

    /// The table between snapped points; nil snaps give unreachable rows or columns.
    public func compute(sources: [Snap?], destinations: [Snap?]) -> TravelMatrix {
        let graph = router.graph
        let planner = RoutePlanner(graph: graph, costs: router.costs)
        let sourcePoints = sources.map { $0.map { MatrixPoint(snap: $0, metric: metric, planner: planner, attributes: attributes) } }
        let targetPoints = destinations.map { $0.map { MatrixPoint(snap: $0, metric: metric, planner: planner, attributes: attributes) } }
        let rows = sources.count, columns = destinations.count
        let width = attributes?.width ?? 0
        var cost = ContiguousArray<UInt32>(repeating: TravelMatrix.unreachable, count: rows * columns)
        var values = ContiguousArray<Double>(repeating: 0, count: rows * columns * width)
        let workers = (0..<Parallel.workerCount).map { _ in BucketWorker(graph: graph, width: width) }
        let buckets = BucketStore(nodeCount: graph.routingNodeCount, width: width)
        let forward = metric.hierarchy.forward, backward = metric.hierarchy.backward
        let chunk = max(1, chunkSize)
        cost.withUnsafeMutableBufferPointer { costBuffer in
            values.withUnsafeMutableBufferPointer { valueBuffer in
                let costOut = SharedBuffer(costBuffer), valueOut = SharedBuffer(valueBuffer)
                var chunkStart = 0
                while chunkStart < columns {
                    let chunkEnd = min(columns, chunkStart + chunk)
                    Parallel.run(workers.count) { index in
                        let worker = workers[index]
                        worker.entries.removeAll(keepingCapacity: true)
                        worker.entryValues.removeAll(keepingCapacity: true)
                        var column = chunkStart + index
                        while column < chunkEnd {
                            if let point = targetPoints[column], !point.targets.isEmpty {
                                worker.collect(point, target: UInt32(column - chunkStart), weights: backward, down: forward, arcValues: attributes?.down)
                            }
                            column += workers.count
                        }
                    }
                    buckets.fill(from: workers)
                    var shifts = ContiguousArray<UInt32>(repeating: 0, count: chunkEnd - chunkStart)
                    for column in chunkStart..<chunkEnd { shifts[column - chunkStart] = targetPoints[column]?.shift ?? 0 }
                    Parallel.run(workers.count) { index in
                        let worker = workers[index]
                        var row = index
                        while row < rows {
                            if let point = sourcePoints[row], !point.sources.isEmpty {
                                worker.scan(point, buckets: buckets, shifts: shifts, weights: forward, down: backward, arcValues: attributes?.up,
                                            row: row, firstColumn: chunkStart, columns: columns, costOut: costOut, valueOut: valueOut)
                            }
                            row += workers.count
                        }
                    }
                    chunkStart = chunkEnd
                }
            }
        }
        var matrix = TravelMatrix(sourceCount: rows, destinationCount: columns, cost: cost, distance: nil, exactDuration: nil,
                                  algorithm: "CCH buckets (\(workers.count) threads, \((columns + chunk - 1) / chunk) bucket pass(es))")
        sameEdgeCells(sourcePoints, targetPoints, planner: planner, cost: &matrix.cost, values: &values, width: width)
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

    /// Cells whose source and destination lie on the same road edge, computed as legs do: driving straight
    /// along the edge when the destination lies ahead (nothing else can be faster), else the general search
    /// that first leaves the edge (`Router.legPath`).
    private func sameEdgeCells(_ sources: [MatrixPoint?], _ targets: [MatrixPoint?], planner: RoutePlanner,
                               cost: inout ContiguousArray<UInt32>, values: inout ContiguousArray<Double>, width: Int) {
        var targetsByEdge: [Int: [Int]] = [:]
        for (column, point) in targets.enumerated() { if let point { targetsByEdge[point.snap.edge, default: []].append(column) } }
        let columns = targets.count
        for (row, source) in sources.enumerated() {
            guard let source, let columnsOnEdge = targetsByEdge[source.snap.edge] else { continue }
            for column in columnsOnEdge {
                guard let target = targets[column] else { continue }
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
                guard let found, found.cost >= 0, found.cost < Int(CCHMetric.infinity) else {
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

/// Bucket entries of one chunk of targets in compressed rows by node: entries of node v are
/// `start[v]..<start[v + 1]`. Reused for every chunk (its node-sized array is allocated once).
final class BucketStore: @unchecked Sendable {
    let width: Int
    var start: ContiguousArray<UInt32>
    var target = ContiguousArray<UInt32>()
    var label = ContiguousArray<UInt32>()
    var values = ContiguousArray<Double>()

    init(nodeCount: Int, width: Int) {
        self.width = width
        start = ContiguousArray(repeating: 0, count: nodeCount + 1)
    }

    /// Sorts the workers' entries into buckets by node (counting sort).
    func fill(from workers: [BucketWorker]) {
        let nodeCount = start.count - 1
        for node in 0...nodeCount { start[node] = 0 }
        var total = 0
        for worker in workers {
            for entry in worker.entries { start[Int(entry.node) + 1] += 1 }
            total += worker.entries.count
        }
        for node in 0..<nodeCount { start[node + 1] += start[node] }
        target = ContiguousArray(repeating: 0, count: total)
        label = ContiguousArray(repeating: 0, count: total)
        values = ContiguousArray(repeating: 0, count: total * width)
        var cursor = start
        for worker in workers {
            for (index, entry) in worker.entries.enumerated() {
                let slot = Int(cursor[Int(entry.node)])
                cursor[Int(entry.node)] += 1
                target[slot] = entry.target
                label[slot] = entry.label
                for k in 0..<width { values[slot * width + k] = worker.entryValues[index * width + k] }
            }
        }
    }
}

/// One core's reusable state for the bucket many-to-many: its search, its bucket entries and its row of
/// best costs. Lifetime: one `compute` call; used by one thread at a time.
final class BucketWorker: @unchecked Sendable {
    struct Entry { var node: UInt32; var target: UInt32; var label: UInt32 }
    let search: UpwardSearch
    let width: Int
    var entries = ContiguousArray<Entry>()
    var entryValues = ContiguousArray<Double>()
    private var best = ContiguousArray<UInt64>()
    private var bestValues = ContiguousArray<Double>()

    init(graph: RoutingGraph, width: Int) {
        search = UpwardSearch(graph: graph, width: width)
        self.width = width
    }

    /// Backward upward search from a target; appends an entry for every node it reaches.
    func collect(_ point: MatrixPoint, target: UInt32, weights: UnsafeBufferPointer<UInt32>, down: UnsafeBufferPointer<UInt32>,
                 arcValues: ContiguousArray<Double>?) {
        search.run(point.targets[...], weights: weights, arcValues: arcValues)
        search.dropInexactLabels(down: down)
        for node32 in search.nodes {
            let node = Int(node32)
            let value = search.label[node]
            if value == UInt32.max { continue }
            entries.append(Entry(node: UInt32(node), target: target, label: value))
            for k in 0..<width { entryValues.append(search.values[node * width + k]) }
        }
    }

    /// Forward upward search from a source, then the buckets of every node it reached; writes the row's cells
    /// of the current chunk.
    func scan(_ point: MatrixPoint, buckets: BucketStore, shifts: ContiguousArray<UInt32>, weights: UnsafeBufferPointer<UInt32>,
              down: UnsafeBufferPointer<UInt32>, arcValues: ContiguousArray<Double>?, row: Int, firstColumn: Int, columns: Int,
              costOut: SharedBuffer<UInt32>, valueOut: SharedBuffer<Double>) {
        search.run(point.sources[...], weights: weights, arcValues: arcValues)
        search.dropInexactLabels(down: down)
        let count = shifts.count
        if best.count < count {
            best = ContiguousArray(repeating: UInt64.max, count: count)
            bestValues = ContiguousArray(repeating: 0, count: count * max(1, width))
        }
        for column in 0..<count { best[column] = UInt64.max }
        let label = search.label, values = search.values
        buckets.start.withUnsafeBufferPointer { start in
            buckets.target.withUnsafeBufferPointer { target in
                buckets.label.withUnsafeBufferPointer { entryLabel in
                    buckets.values.withUnsafeBufferPointer { entryValues in
                        best.withUnsafeMutableBufferPointer { best in
                            bestValues.withUnsafeMutableBufferPointer { bestValues in
                                for node32 in search.nodes {
                                    let node = Int(node32)
                                    let forward = label[node]
                                    if forward == UInt32.max { continue }
                                    let begin = Int(start[node]), end = Int(start[node + 1])
                                    if begin == end { continue }
                                    let base = UInt64(forward)
                                    if width == 0 {
                                        for entry in begin..<end {
                                            let total = base + UInt64(entryLabel[entry])
                                            let column = Int(target[entry])
                                            if total < best[column] { best[column] = total }
                                        }
                                    } else {
                                        for entry in begin..<end {
                                            let total = base + UInt64(entryLabel[entry])
                                            let column = Int(target[entry])
                                            if total < best[column] {
                                                best[column] = total
                                                for k in 0..<width { bestValues[column * width + k] = values[node * width + k] + entryValues[entry * width + k] }
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
            guard total != UInt64.max, total < infinity + shift, total >= shift else { continue }
            costOut.pointer[index] = UInt32(total - shift)
            for k in 0..<width { valueOut.pointer[index * width + k] = bestValues[column * width + k] }
        }
    }
}
