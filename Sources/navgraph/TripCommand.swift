import Foundation
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// `navgraph trip`: the shortest round trip (or path from the first to the last stop) through the stops, answered by
/// the server's `/trip/v1` pipeline in process; prints its OSRM JSON.
enum TripCommand {
    static let spec = CommandSpec(
        name: "trip",
        synopsis: ["REGION.navgraph LAT,LON LAT,LON [LAT,LON ...] [--roundtrip true|false] [--source first|any] [--destination last|any] [-o trip.json]"],
        summary: "Orders the stops into the fastest trip (exact up to 12 stops, farthest insertion + 2-opt/Or-opt above) and routes it.",
        options: [
            OptionSpec(name: "roundtrip", kind: .value, help: "return to the first stop", defaultValue: "true", check: .choice(["true", "false"])),
            OptionSpec(name: "source", kind: .value, help: "start at the first stop, or anywhere", defaultValue: "any", check: .choice(["first", "any"])),
            OptionSpec(name: "destination", kind: .value, help: "end at the last stop, or anywhere", defaultValue: "any", check: .choice(["last", "any"])),
            OptionSpec(name: "steps", kind: .flag, help: "turn-by-turn steps"),
            OptionSpec(name: "geometries", kind: .value, help: "geometry format", defaultValue: "polyline",
                       check: .choice(["polyline", "polyline6", "geojson"])),
            OptionSpec(name: "output", short: "o", kind: .value, placeholder: "FILE", help: "write the JSON to FILE (default stdout)"),
            OptionSpec(name: "max-trip-size", kind: .value, placeholder: "N", help: "most stops", defaultValue: "\(ServiceLimits().maximumTripSize)",
                       check: .integer(2...10_000, what: "a size")),
        ] + Array(ProfileOptions.specs.prefix(1)),
        run: run)

    static func run(_ arguments: Arguments) throws {
        guard arguments.positionals.count >= 3 else {
            throw NavGraphError("trip needs a graph file and at least 2 stops LAT,LON (got \(max(0, arguments.positionals.count - 1)) stops)")
        }
        let stops = try arguments.positionals.dropFirst().enumerated().map { try parseCoordinate($0.element, what: "stop \($0.offset + 1)") }
        let profile = try ProfileOptions.profile(arguments)
        var limits = ServiceLimits()
        limits.maximumTripSize = Int(arguments.options["max-trip-size"] ?? "") ?? limits.maximumTripSize
        let graph = try RoutingGraph(path: arguments.positionals[0], profile: profile)
        let service = RoutingService(engine: RoutingEngine(graph: graph), limits: limits)
        var query = ["roundtrip=\(arguments.options["roundtrip"] ?? "true")", "source=\(arguments.options["source"] ?? "any")",
                     "destination=\(arguments.options["destination"] ?? "any")", "geometries=\(arguments.options["geometries"] ?? "polyline")",
                     "overview=full"]
        if arguments.flags.contains("steps") { query.append("steps=true") }
        let path = stops.map { String(format: "%.7f,%.7f", $0.lon, $0.lat) }.joined(separator: ";")
        let response = service.handle(HTTPRequest(method: "GET", target: "/trip/v1/\(profile.rawValue)/\(path)?\(query.joined(separator: "&"))"))
        guard response.status == 200 else {
            let message = (try? JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["message"] as? String
            throw NavGraphError("trip: \(message ?? String(decoding: response.body, as: UTF8.self))")
        }
        if let output = arguments.options["output"] { try writeAtomically(response.body, to: output) } else { FileHandle.standardOutput.write(response.body + Data("\n".utf8)) }
    }
}
