import Foundation
import FuzzMain
import FuzzSupport
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// Mutated small PBFs through the whole importer (libosmium, profile, turn graph, METIS, contraction, file
/// writer); whatever imports is loaded and routed on. A broken file must be an error, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOSMPBF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzSupport.write(data, size, name: "input.osm.pbf")
    let output = FuzzSupport.directory + "/imported.navgraph"
    guard let metadata = try? Importer.run(input: input, output: output, log: ProgressLog(quiet: true)),
          let graph = try? RoutingGraph(path: output) else { return 0 }
    precondition(graph.edgeCount == metadata.edgeCount)
    let box = metadata.bbox
    FuzzSupport.routeAndCheck(Router(graph: graph), [Coordinate(lat: box.minLat, lon: box.minLon), Coordinate(lat: box.maxLat, lon: box.maxLon)])
    return 0
}
