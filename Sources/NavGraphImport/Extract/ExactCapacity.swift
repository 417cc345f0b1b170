import NavGraphCore
/// Copies of the importer's append-built arrays without the spare capacity their growth left (up to half of each
/// buffer), made one array at a time so the copy costs at most the largest array for a moment.
extension ContiguousArray {
    /// This array in a buffer of its own length, or itself when its spare capacity is under 1/16.
    package func withExactCapacity() -> ContiguousArray {
        guard capacity - count > count / 16 else { return self }
        return withUnsafeBufferPointer { source in
            ContiguousArray(unsafeUninitializedCapacity: source.count) { target, initialized in
                _ = target.initialize(fromContentsOf: source)
                initialized = source.count
            }
        }
    }
}

extension RoadNetwork {
    /// Room for `edges` more edges and `shapePoints` more shape points in the arrays that the road-network build's
    /// id pass appends to (EdgeGeometry reserves the others), so that none grows by doubling.
    package mutating func reserveTopology(edges: Int, shapePoints: Int) {
        func room<Element>(_ array: inout ContiguousArray<Element>, _ more: Int) { array.reserveCapacity(array.count + more) }
        room(&edgeFrom, edges); room(&edgeTo, edges); room(&edgeName, edges); room(&edgeRef, edges); room(&edgeGuide, edges)
        room(&shapeOSMNode, shapePoints); room(&shapeControl, shapePoints)
    }

    /// Shrinks every array to its exact size (each old buffer is freed as its copy replaces it).
    package mutating func compact() {
        nodeOSMID = nodeOSMID.withExactCapacity()
        edgeFrom = edgeFrom.withExactCapacity()
        edgeTo = edgeTo.withExactCapacity()
        edgeShapeFirst = edgeShapeFirst.withExactCapacity()
        shapeLatE7 = shapeLatE7.withExactCapacity()
        shapeLonE7 = shapeLonE7.withExactCapacity()
        shapeOSMNode = shapeOSMNode.withExactCapacity()
        edgeLength = edgeLength.withExactCapacity()
        edgeTimeForward = edgeTimeForward.withExactCapacity()
        edgeTimeBackward = edgeTimeBackward.withExactCapacity()
        edgeClass = edgeClass.withExactCapacity()
        edgeFlags = edgeFlags.withExactCapacity()
        edgeMaxspeed = edgeMaxspeed.withExactCapacity()
        edgeName = edgeName.withExactCapacity()
        edgeRef = edgeRef.withExactCapacity()
        edgeWay = edgeWay.withExactCapacity()
        nodeControl = nodeControl.withExactCapacity()
        shapeControl = shapeControl.withExactCapacity()
        nodeExitRef = nodeExitRef.withExactCapacity()
        edgeGuide = edgeGuide.withExactCapacity()
        guideFields = guideFields.withExactCapacity()
    }
}

extension TurnGraph {
    /// Shrinks the arrays to their exact size.
    package mutating func compact() {
        directedEdge = directedEdge.withExactCapacity()
        firstOut = firstOut.withExactCapacity()
        head = head.withExactCapacity()
    }
}
