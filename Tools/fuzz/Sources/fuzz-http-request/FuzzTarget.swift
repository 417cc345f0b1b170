import Foundation
import FuzzMain
import FuzzSupport
import NavGraph

/// Route requests until the server lands: the bytes are a `navgraph route` argument list (one argument per line),
/// parsed by the CLI's own option table and parsers (symlinked from Sources/navgraph) and routed on the crafted town.
/// Options naming files are left out (they would read arbitrary paths).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouteRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let raw = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let arguments = try? Arguments(raw, spec: RouteCommand.spec) else { return 0 }
    for file in ["output", "style", "theme", "traffic", "pairs"] where arguments.options[file] != nil { return 0 }
    guard var options = try? RouteCommand.routeOptions(arguments), let output = try? RouteCommand.outputOptions(arguments) else { return 0 }
    if let depart = arguments.options["depart"] { _ = try? parseDeparture(depart) }
    guard let waypoints = try? arguments.positionals.map({ try parseCoordinate($0, what: "waypoint") }) else { return 0 }
    options.alternatives = min(options.alternatives, 2)
    FuzzSupport.routeAndCheck(FuzzSupport.router, Array(waypoints.prefix(5)), options: options)
    if let response = try? FuzzSupport.router.route(Array(waypoints.prefix(5)), options: options) {
        _ = RouteCommand.summary(response, output: output)
        _ = RouteGeoJSON.make(response, output)
        _ = MapLibreStyle.make(response, output)
    }
    return 0
}
