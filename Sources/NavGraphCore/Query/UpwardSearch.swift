/// A start of an upward search: a routing node, its initial cost (ms) and its initial path attributes.
struct SearchStart: Sendable {
    package var node: Int
    package var cost: UInt32
    package var values: (Double, Double) = (0, 0)
}

/// Reusable state of one elimination-tree upward search that can give path attributes along the chosen arcs.
///
/// Lifetime and threads: one instance per worker thread, reused for every search of a many-to-many query or
/// isochrone; never shared between threads while searching. After the first searches no search allocates.
/// The search relaxes ancestors in increasing rank with a strict `<`, exactly as `CCHSearch` does, so labels,
/// the chosen predecessors and hence the attributes are those of the paths legs take. Attributes are summed on
/// demand along the search tree (`pathValue`), for the meeting nodes a table actually uses.
final class UpwardSearch {
    private let cch: CCHView
    /// Cost to reach each node (UInt32.max where not reached), valid for `nodes` after `run`.
    package let label: UnsafeMutableBufferPointer<UInt32>
    /// Attributes of the chosen path to each node, `width` values per node.
    package let values: UnsafeMutableBufferPointer<Double>
    package let width: Int
    private let valueBase: UnsafeMutablePointer<Double>
    private let marked: UnsafeMutableBufferPointer<Bool>
    /// The arc each node's label came through (-1 for a start) and that arc's lower end, when `parents` is asked for.
    package let parentArc: UnsafeMutableBufferPointer<Int32>
    let parentNode: UnsafeMutableBufferPointer<Int32>
    /// Whether `values` holds the node's path attributes already (starts, and nodes `pathValue` has summed).
    private let summed: UnsafeMutableBufferPointer<Bool>
    private var chain = ContiguousArray<Int32>()
    /// Exact costs over the search space, filled by `dropInexactLabels`.
    private let exact: UnsafeMutableBufferPointer<UInt32>
    /// Ancestors of the last search's starts, in increasing rank.
    private(set) var nodes = ContiguousArray<Int32>()

    package init(graph: RoutingGraph, width: Int) {
        cch = graph.cch
        self.width = width
        let count = max(1, cch.nodeCount)
        label = .allocate(capacity: count); label.initialize(repeating: UInt32.max)
        valueBase = .allocate(capacity: max(1, count * width))
        values = UnsafeMutableBufferPointer(start: valueBase, count: max(1, count * width)); values.initialize(repeating: 0)
        marked = .allocate(capacity: count); marked.initialize(repeating: false)
        exact = .allocate(capacity: count); exact.initialize(repeating: UInt32.max)
        parentArc = .allocate(capacity: width > 0 ? count : 1); parentArc.initialize(repeating: -1)
        parentNode = .allocate(capacity: width > 0 ? count : 1); parentNode.initialize(repeating: -1)
        summed = .allocate(capacity: width > 0 ? count : 1); summed.initialize(repeating: false)
    }

    deinit {
        label.deallocate(); values.deallocate(); marked.deallocate(); exact.deallocate(); parentArc.deallocate(); parentNode.deallocate(); summed.deallocate()
    }

    /// Clears the labels of the previous search.
    func reset() {
        if width > 0 {
            for node in nodes { label[Int(node)] = UInt32.max; marked[Int(node)] = false; summed[Int(node)] = false }
        } else {
            for node in nodes { label[Int(node)] = UInt32.max; marked[Int(node)] = false }
        }
        nodes.removeAll(keepingCapacity: true)
    }

    /// Sets to UInt32.max every label that is not the exact cost of its node (a path that goes down and up again
    /// is cheaper): such a node can never be where a shortest path's up and down parts meet, because the
    /// meeting node of a shortest path is its highest node, and both its labels are exact there. Removing them
    /// changes neither the cheapest total nor which meeting node gives it first. `down` are the weights of going
    /// from an upper neighbour back to the node in this search's direction (backward weights for a forward search).
    func dropInexactLabels(down: UnsafeBufferPointer<UInt32>) {
        let firstUp = cch.firstUp, upHead = cch.upHead
        var index = nodes.count - 1
        while index >= 0 {
            let node = Int(nodes[index])
            var best = label[node]
            for arc in Int(firstUp[node])..<Int(firstUp[node + 1]) {
                let above = exact[Int(upHead[arc])], weight = down[arc]
                if above >= CCHMetric.infinity || weight >= CCHMetric.infinity { continue }
                let candidate = above &+ weight
                if candidate < best { best = candidate }
            }
            exact[node] = best
            if best < label[node] { label[node] = UInt32.max }
            index -= 1
        }
    }

    /// Upward search from `starts` over `weights` (the hierarchy's forward weights for a forward search,
    /// backward weights for a backward one). With `parents` (and a width), also each node's chosen arc, for
    /// `pathValue` and for callers that keep the search tree. With a `bound`, nodes whose label exceeds it are not
    /// relaxed from: labels up to the bound stay exact, higher ones are not.
    package func run(_ starts: ArraySlice<SearchStart>, weights: UnsafeBufferPointer<UInt32>, parents: Bool = false,
                     bound: UInt32 = CCHMetric.infinity - 1) {
        reset()
        let parent = cch.parent
        for start in starts {
            var node = start.node
            while node >= 0 && !marked[node] {
                marked[node] = true
                nodes.append(Int32(node))
                node = Int(parent[node])
            }
        }
        if starts.count > 1 { nodes.sort() }
        let tracking = parents && width > 0
        for start in starts where start.cost < label[start.node] {
            label[start.node] = start.cost
            if tracking {
                parentArc[start.node] = -1
                values[start.node * width] = start.values.0
                if width > 1 { values[start.node * width + 1] = start.values.1 }
            }
        }
        if tracking {
            let parentArc = self.parentArc, parentNode = self.parentNode
            cch.relaxUpward(nodes, labels: label, weights: weights, bound: bound) { head, arc, tail in
                parentArc[head] = Int32(arc)
                parentNode[head] = tail
            }
            for start in starts where parentArc[start.node] < 0 { summed[start.node] = true }
        } else {
            cch.relaxUpward(nodes, labels: label, weights: weights, bound: bound) { _, _, _ in }
        }
    }

    /// Attributes of the chosen path to reached node `node` (`width` values) after a `run` with parents: summed
    /// from the nearest summed ancestor in the tree, arc by arc as `values[parent] + arc`, each node once per search.
    /// `up` says how the arcs are driven: up for a forward search, down for a backward one.
    func pathValue(of node: Int, memo: ArcValueMemo, up: Bool) -> UnsafePointer<Double> {
        let values = valueBase, width = self.width, summed = self.summed, parentArc = self.parentArc, parentNode = self.parentNode
        sumDownTree(from: node, chain: &chain, parent: { summed[$0] || parentArc[$0] < 0 ? nil : Int(parentNode[$0]) }) { child in
            let low = Int(parentNode[child])
            memo.add(arc: Int(parentArc[child]), low: low, up: up, to: values + low * width, into: values + child * width)
            summed[child] = true
        }
        return UnsafePointer(values + node * width)
    }
}
