import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Hand-made guidance steps for the text tests (the step builder is not involved).
enum GuidanceTextFixtures {
    static let origin = Coordinate(lat: 43.7384, lon: 7.4246)

    /// One step; its first intersection is the maneuver point, entered on `bearingBefore` and left on `bearingAfter`.
    static func step(_ type: ManeuverType, _ modifier: ManeuverModifier? = nil, name: String = "", ref: String = "",
                     destinations: String = "", exits: String = "", exit: Int? = nil, notice: GuidanceNotice? = nil,
                     side: ManeuverModifier? = nil, rotaryName: String = "", mode: TravelMode = .driving,
                     drivingSide: String = "right", distance: Double = 500, duration: Double = 40,
                     bearingBefore: Int = 0, bearingAfter: Int = 90, lanes: [Lane]? = nil,
                     extraIntersections: [Intersection] = []) -> GuidanceStep {
        let maneuver = Maneuver(type: type, modifier: modifier, location: origin, bearingBefore: bearingBefore,
                                bearingAfter: bearingAfter, exit: exit, notice: notice, side: side)
        let back = (bearingBefore + 180) % 360
        let first = Intersection(location: origin, bearings: [bearingAfter, back].sorted(), entry: [true, true],
                                 inIndex: type == .depart ? nil : ([bearingAfter, back].sorted().firstIndex(of: back)),
                                 outIndex: type == .arrive ? nil : ([bearingAfter, back].sorted().firstIndex(of: bearingAfter)),
                                 geometryIndex: 0, lanes: lanes)
        return GuidanceStep(maneuver: maneuver, name: name, ref: ref, destinations: destinations, exits: exits,
                            rotaryName: rotaryName, mode: mode, drivingSide: drivingSide, distance: distance,
                            duration: duration, weight: duration, geometryRange: 0...1,
                            intersections: [first] + extraIntersections, roadClass: .primary, speedLimitKmh: nil)
    }

    /// depart → `middle` → arrive, with the given lengths of the depart and middle steps.
    static func route(_ middle: GuidanceStep, departDistance: Double = 800, departDuration: Double = 60) -> [GuidanceStep] {
        [step(.depart, name: "Boulevard Albert 1er", distance: departDistance, duration: departDuration, bearingAfter: 0),
         middle,
         step(.arrive, side: .right, distance: 0, duration: 0)]
    }

    /// The phrasebook files in the source tree.
    static var phrasebookFiles: [URL] {
        let dir = Fixtures.packageRoot.appendingPathComponent("Sources/NavGraphCore/Resources/phrasebook")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { dir.appendingPathComponent($0) }
    }

    static func jsonObject(_ data: Data) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
