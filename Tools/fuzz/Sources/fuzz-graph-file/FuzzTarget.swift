import Foundation
import FuzzMain
import FuzzSupport
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// Mutated graph files: loaded with checksums off (so mutations reach the structural checks behind them) and on,
/// then described and queried. Loading may fail with an error; it must never crash or read out of bounds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGraphFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = FuzzSupport.write(data, size, name: "input.navgraph")
    let checked = (try? RoutingGraph(path: path)) != nil
    guard let graph = try? RoutingGraph(path: path, verifyChecksums: false) else { return 0 }
    _ = GraphSummary(graph: graph).text
    let router = Router(graph: graph)
    let bounds = graph.metadata.bbox
    let south = bounds.minLat, west = bounds.minLon, north = bounds.maxLat, east = bounds.maxLon
    FuzzSupport.routeAndCheck(router, [Coordinate(lat: south, lon: west), Coordinate(lat: north, lon: east),
                                       Coordinate(lat: (south + north) / 2, lon: (west + east) / 2)], checkValues: checked)
    return 0
}
