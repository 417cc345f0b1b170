/// The metres a leg drives on each named road (by string id of its name, else of its ref), with an edge of that road
/// to localize its name, in the order the roads are first met. Consecutive edges mostly share a name, so the road
/// used last is tried first; others are searched in the list while it holds at most `scannedInPlace` roads, and
/// through an index built once it holds more (a long leg through many towns stays linear).
///
/// Lifetime: one per leg being built. Thread safety: a value, used by one thread.
struct RoadLengths {
    /// Roads searched in the list before they are indexed.
    static let scannedInPlace = 48

    private(set) var roads: [(name: UInt32, metres: Double, edge: Int)] = []
    private var slotByName: [UInt32: Int] = [:]
    private var lastSlot = -1

    /// Adds `metres` to the road `name` (non-zero), met on `edge` if it is new.
    mutating func add(_ metres: Double, name: UInt32, edge: Int) {
        if lastSlot < 0 || roads[lastSlot].name != name { lastSlot = slot(of: name, edge: edge) }
        roads[lastSlot].metres += metres
    }

    /// The road's slot in `roads`, appended (with no metres yet) when it is new.
    private mutating func slot(of name: UInt32, edge: Int) -> Int {
        let found: Int?
        if roads.count <= Self.scannedInPlace {
            found = roads.lastIndex { $0.name == name }
        } else {
            if slotByName.isEmpty { for (slot, road) in roads.enumerated() { slotByName[road.name] = slot } }
            found = slotByName[name]
        }
        if let found { return found }
        if !slotByName.isEmpty { slotByName[name] = roads.count }
        roads.append((name, 0, edge))
        return roads.count - 1
    }

    /// The `count` longest roads, longest first; equal lengths (a leg of no length) by name id, so the order never
    /// depends on hashing.
    func longest(_ count: Int) -> ArraySlice<(name: UInt32, metres: Double, edge: Int)> {
        roads.sorted { $0.metres > $1.metres || ($0.metres == $1.metres && $0.name < $1.name) }.prefix(count)
    }
}
