import Foundation

/// The truck's per-request dimensions in a `/route`, `/table` or `/isochrone` query: `vehicle_height`,
/// `vehicle_width`, `vehicle_length` (metres), `vehicle_weight`, `vehicle_axle_load` (tonnes) and `hazmat=true`.
/// Only the truck profile takes them; a bad value is an InvalidValue error naming its parameter.
enum VehicleQuery {
    /// Each numeric parameter, its largest accepted value and how it sets the dimensions.
    private static let dimensions: [(name: String, maximum: Double, set: @Sendable (inout VehicleDimensions, Double) -> Void)] = [
        ("vehicle_height", 100, { $0.height = $1 }), ("vehicle_width", 100, { $0.width = $1 }),
        ("vehicle_length", 1000, { $0.length = $1 }), ("vehicle_weight", 10_000, { $0.weight = $1 }),
        ("vehicle_axle_load", 1000, { $0.axleLoad = $1 }),
    ]
    package static let names: Set<String> = Set(dimensions.map(\.name) + ["hazmat"])

    /// The dimensions a query gives, nil when it gives none.
    package static func parse(_ options: QueryOptions, profile: ProfileID) throws -> VehicleDimensions? {
        var vehicle = VehicleDimensions()
        for (name, maximum, set) in dimensions {
            guard let raw = options[name] else { continue }
            guard let value = Double(raw), value.isFinite, value > 0, value <= maximum else {
                throw OSRMError(.invalidValue, "\(name)='\(raw)' is not a number in 0...\(Int(maximum)) (exclusive of 0)", parameter: name)
            }
            set(&vehicle, value)
        }
        if let raw = options["hazmat"] {
            guard raw == "true" || raw == "false" else {
                throw OSRMError(.invalidValue, "hazmat='\(raw)' is not true or false", parameter: "hazmat")
            }
            vehicle.hazmat = raw == "true"
        }
        guard !vehicle.isEmpty else { return nil }
        guard profile == .truck else {
            let given = names.sorted().first { options[$0] != nil } ?? "vehicle_height"
            throw OSRMError(.invalidValue, "\(given) applies to the truck profile, not \(profile.rawValue)", parameter: given)
        }
        return vehicle
    }
}
