import Foundation
import FuzzMain
import FuzzSupport
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// Mutated pairs and points files through the shared reader; the first pairs are routed on the crafted town.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPairsCSV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = FuzzSupport.write(data, size, name: "pairs.csv")
    _ = try? CoordinateCSV.readCoordinates(path: path)
    guard let pairs = try? CoordinateCSV.readPairs(path: path) else { return 0 }
    for pair in pairs.prefix(4) { FuzzSupport.routeAndCheck(FuzzSupport.router, [pair.source, pair.target]) }
    return 0
}
