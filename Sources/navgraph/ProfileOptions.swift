import Foundation
import NavGraphCore
import NavGraphImport
import NavGraphServer

/// `--profile` and the truck's `--vehicle-*` options, shared by route, matrix and isochrone.
enum ProfileOptions {
    static let specs: [OptionSpec] = [
        OptionSpec(name: "profile", kind: .value, help: "vehicle profile", defaultValue: ProfileID.car.rawValue,
                   check: .choice(ProfileID.allCases.map(\.rawValue))),
        OptionSpec(name: "vehicle-height", kind: .value, placeholder: "METRES", help: "truck: height; lower maxheight roads are not used", check: .positiveNumber),
        OptionSpec(name: "vehicle-width", kind: .value, placeholder: "METRES", help: "truck: width (maxwidth)", check: .positiveNumber),
        OptionSpec(name: "vehicle-length", kind: .value, placeholder: "METRES", help: "truck: length (maxlength)", check: .positiveNumber),
        OptionSpec(name: "vehicle-weight", kind: .value, placeholder: "TONNES", help: "truck: weight (maxweight)", check: .positiveNumber),
        OptionSpec(name: "vehicle-axle-load", kind: .value, placeholder: "TONNES", help: "truck: axle load (maxaxleload)", check: .positiveNumber),
        OptionSpec(name: "hazmat", kind: .flag, help: "truck: carries hazardous goods (hazmat=no roads are not used)"),
    ]

    static func profile(_ arguments: Arguments) throws -> ProfileID {
        guard let name = arguments.options["profile"] else { return .car }
        guard let profile = ProfileID(name: name) else {
            throw NavGraphError("--profile: '\(name)' is not one of \(ProfileID.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return profile
    }

    /// The dimensions the `--vehicle-*` options give, nil without any; only the truck takes them.
    static func vehicle(_ arguments: Arguments, profile: ProfileID) throws -> VehicleDimensions? {
        func value(_ name: String) throws -> Double? {
            arguments.options[name] == nil ? nil : try arguments.double(name, default: 0)
        }
        let dimensions = VehicleDimensions(height: try value("vehicle-height"), width: try value("vehicle-width"),
                                           length: try value("vehicle-length"), weight: try value("vehicle-weight"),
                                           axleLoad: try value("vehicle-axle-load"), hazmat: arguments.flags.contains("hazmat"))
        guard !dimensions.isEmpty else { return nil }
        guard profile == .truck else {
            throw NavGraphError("--vehicle-* and --hazmat apply to --profile truck, not \(profile.rawValue)")
        }
        return dimensions
    }

    /// A router whose engine prints each truck dimension customization (counts and timings) on stderr.
    static func router(_ graph: RoutingGraph) -> Router {
        Router(engine: RoutingEngine(graph: graph, log: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }))
    }
}
