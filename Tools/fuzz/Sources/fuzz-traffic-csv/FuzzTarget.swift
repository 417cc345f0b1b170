import Foundation
import FuzzMain
import FuzzSupport
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// Mutated traffic CSVs read against the crafted town (OSM nodes 1...16), then customized and routed on.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrafficCSV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = FuzzSupport.write(data, size, name: "traffic.csv")
    guard let table = try? TrafficCSVReader.read(path: path, graph: FuzzSupport.graph) else { return 0 }
    precondition(table.segmentKey.count == table.timeFactor.count && table.slot.count == table.segmentKey.count)
    var options = RouteOptions()
    options.traffic = table.overlay(slot: table.slotKind == .none ? nil : 0, label: "fuzz")
    FuzzSupport.routeAndCheck(FuzzSupport.router, [Coordinate(lat: 45.0, lon: 7.0), Coordinate(lat: 45.0027, lon: 7.0038)], options: options)
    return 0
}
