import Foundation

/// Legal and physical limits of one way for heavy vehicles: `maxheight`, `maxwidth`, `maxlength` (metres),
/// `maxweight`, `maxaxleload` (tonnes) and `hazmat=no`. Stored per limited edge in centimetres / 10 kg units.
public struct VehicleLimits: Sendable, Equatable {
    /// The limits, in the order of `VehicleLimits.kinds`; 0 means none.
    public var values: [UInt16]

    /// One kind of limit: its OSM key, unit and storage scale.
    public struct Kind: Sendable {
        public let key: String
        public let unit: String
        /// Stored value = physical value * scale (cm for metres, 10 kg for tonnes).
        public let scale: Double
        /// `key:physical`, read first.
        let physicalKey: String

        /// `physicalKey` is written out (a literal is never reference counted; a built string would be retained for
        /// every way the truck profile reads).
        package init(key: String, physicalKey: String, unit: String, scale: Double) {
            precondition(physicalKey == key + ":physical")
            self.key = key; self.physicalKey = physicalKey; self.unit = unit; self.scale = scale
        }
    }

    public static let kinds: [Kind] = [
        Kind(key: "maxheight", physicalKey: "maxheight:physical", unit: "m", scale: 100),
        Kind(key: "maxwidth", physicalKey: "maxwidth:physical", unit: "m", scale: 100),
        Kind(key: "maxlength", physicalKey: "maxlength:physical", unit: "m", scale: 100),
        Kind(key: "maxweight", physicalKey: "maxweight:physical", unit: "t", scale: 100),
        Kind(key: "maxaxleload", physicalKey: "maxaxleload:physical", unit: "t", scale: 100),
        Kind(key: "hazmat", physicalKey: "hazmat:physical", unit: "", scale: 1),
    ]
    /// Index of the hazmat entry (1 = no hazardous goods).
    public static let hazmat = 5
    public static let count = kinds.count

    public init(values: [UInt16]) { self.values = values }

    /// Reads the limits of a way; nil when it has none.
    public init?(tags: OSMTags) {
        var values = [UInt16](repeating: 0, count: Self.count)
        for (index, kind) in Self.kinds.enumerated() where index != Self.hazmat {
            let raw = tags[kind.physicalKey] ?? tags[kind.key] ?? (kind.key == "maxweight" ? tags["maxweightrating"] : nil)
            guard let raw, let value = kind.unit == "m" ? Self.metres(raw) : Self.tonnes(raw), value > 0 else { continue }
            values[index] = UInt16(min(65535, (value * kind.scale).rounded()))
        }
        if tags["hazmat"] == "no" || tags["hazmat:water"] == "no" { values[Self.hazmat] = 1 }
        guard values.contains(where: { $0 != 0 }) else { return nil }
        self.values = values
    }

    /// Parses `3.5`, `3.5 m`, `350 cm`, `12'6"` or `12 ft` into metres.
    package static func metres(_ raw: String) -> Double? {
        let text = raw.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
        if let feet = text.firstIndex(of: "'") {
            guard let whole = Double(text[..<feet].trimmingCharacters(in: .whitespaces)) else { return nil }
            let rest = text[text.index(after: feet)...].filter { $0.isNumber || $0 == "." }
            return whole * 0.3048 + (Double(rest) ?? 0) * 0.0254
        }
        let number = Double(text.prefix { $0.isNumber || $0 == "." })
        guard let number else { return nil }
        let unit = text.drop { $0.isNumber || $0 == "." }.trimmingCharacters(in: .whitespaces).lowercased()
        switch unit {
        case "", "m": return number
        case "cm": return number / 100
        case "ft": return number * 0.3048
        default: return nil
        }
    }

    /// Parses `7.5`, `7.5 t`, `7500 kg` or `16000 lbs` into tonnes.
    package static func tonnes(_ raw: String) -> Double? {
        let text = raw.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
        guard let number = Double(text.prefix { $0.isNumber || $0 == "." }) else { return nil }
        let unit = text.drop { $0.isNumber || $0 == "." }.trimmingCharacters(in: .whitespaces).lowercased()
        switch unit {
        case "", "t", "tonnes", "tons": return number
        case "kg": return number / 1000
        case "lbs", "lb": return number * 0.000_453_592
        case "st": return number * 0.907_185
        default: return nil
        }
    }
}

/// A truck's dimensions for one request; edges whose limits it exceeds are excluded.
public struct VehicleDimensions: Sendable, Hashable {
    /// Metres.
    public var height: Double?
    public var width: Double?
    public var length: Double?
    /// Tonnes.
    public var weight: Double?
    public var axleLoad: Double?
    public var hazmat = false

    public init(height: Double? = nil, width: Double? = nil, length: Double? = nil, weight: Double? = nil,
                axleLoad: Double? = nil, hazmat: Bool = false) {
        self.height = height; self.width = width; self.length = length
        self.weight = weight; self.axleLoad = axleLoad; self.hazmat = hazmat
    }

    public var isEmpty: Bool { self == VehicleDimensions() }

    /// The vehicle's values in `VehicleLimits.kinds` order, in storage units (0 = not given).
    var storedValues: [UInt32] {
        [height, width, length, weight, axleLoad].enumerated().map { index, value in
            // Clamped so that any finite or infinite value converts (limits are 16-bit anyway).
            value.map { UInt32(min(Double(UInt32.max), max(1, ($0 * VehicleLimits.kinds[index].scale).rounded()))) } ?? 0
        } + [hazmat ? 1 : 0]
    }

    /// The first limit of `limits` (stored values) this vehicle exceeds, as its kind index; nil when none.
    func violation(_ limits: UnsafeBufferPointer<UInt16>, at offset: Int, vehicle: [UInt32]) -> Int? {
        for kind in 0..<VehicleLimits.count {
            let limit = UInt32(limits[offset + kind])
            guard limit != 0, vehicle[kind] != 0 else { continue }
            if kind == VehicleLimits.hazmat || vehicle[kind] > limit { return kind }
        }
        return nil
    }

    /// "maxheight 3.5 m < vehicle 4.0 m" for a violated kind.
    func describe(kind: Int, limit: UInt16) -> String {
        let spec = VehicleLimits.kinds[kind]
        if kind == VehicleLimits.hazmat { return "hazmat=no (vehicle carries hazardous goods)" }
        let vehicle = Double(storedValues[kind]) / spec.scale
        return String(format: "%@ %.1f %@ < vehicle %.1f %@", spec.key, Double(limit) / spec.scale, spec.unit, vehicle, spec.unit)
    }
}

extension VehicleDimensions: CustomStringConvertible {
    /// "height 4.0 m, weight 40.0 t, hazmat": the given dimensions.
    public var description: String {
        let names = ["height", "width", "length", "weight", "axle load"]
        let given = [height, width, length, weight, axleLoad].enumerated().compactMap { index, value in
            value.map { String(format: "%@ %.2f %@", names[index], $0, VehicleLimits.kinds[index].unit) }
        }
        let parts = given + (hazmat ? ["hazmat"] : [])
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}
