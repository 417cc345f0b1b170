import Foundation

/// The directions of a snapped edge a route may use at a waypoint: `forward` runs from the edge's first shape point
/// to its last (directed edge 2e), `backward` the other way (2e + 1). A start waypoint departs, an end waypoint
/// arrives, and a via waypoint arrives and departs in an allowed direction.
public struct SnapDirections: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let forward = SnapDirections(rawValue: 1)
    public static let backward = SnapDirections(rawValue: 2)
    public static let both: SnapDirections = [.forward, .backward]

    /// The direction of directed edge `d` (its low bit).
    @inline(__always) public static func of(directedEdge d: Int) -> SnapDirections { d & 1 == 0 ? .forward : .backward }

    /// The single directions this set holds, forward first.
    public var members: [SnapDirections] { [SnapDirections.forward, .backward].filter { contains($0) } }
}

/// A waypoint's `bearings=value,range` (OSRM): the direction of travel there, clockwise from north, must lie within
/// `value ± range` degrees: the direction of departure at the start, of arrival at later waypoints.
public struct BearingFilter: Sendable, Equatable {
    /// Degrees clockwise from north, 0...360.
    public var value: Double
    /// Allowed deviation either way, 0...180 degrees.
    public var range: Double

    public init(value: Double, range: Double) { self.value = value; self.range = range }

    /// Reads `value,range`: OSRM's integers, or the decimals MapboxDirections writes (`90.0,45.0`); nil when it
    /// is not of that form (see `isInRange`).
    public init?(text: Substring) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let value = Double(parts[0]), let range = Double(parts[1]), value.isFinite, range.isFinite else { return nil }
        self.init(value: value, range: range)
    }

    /// Whether the value is 0...360 and the range 0...180, as OSRM requires.
    public var isInRange: Bool { (0...360).contains(value) && (0...180).contains(range) }

    /// Whether a travel bearing lies within the range (its ends included).
    @inline(__always) public func admits(_ bearing: Double) -> Bool {
        abs(Bearing.deviation(from: value, to: bearing)) <= range + 1e-9
    }

    /// The directions of a segment from `a` to `b` whose travel bearing the filter admits.
    @inline(__always) package func directions(from a: Coordinate, to b: Coordinate) -> SnapDirections {
        let forward = Bearing.between(a, b)
        var fitting: SnapDirections = []
        if admits(forward) { fitting.insert(.forward) }
        if admits(Bearing.normalized(forward + 180)) { fitting.insert(.backward) }
        return fitting
    }

    /// `value±range` as a request writes it, for messages.
    public var text: String { "\(Self.number(value))±\(Self.number(range))" }
    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}

/// A waypoint's `approaches` (OSRM): `curb` reaches and leaves it with the point on the kerb side of the travel
/// direction (to the right where traffic keeps right, to the left where it keeps left).
public enum Approach: String, Sendable, CaseIterable {
    case unrestricted, curb

    /// The directions of a snap's segment that keep `input` on the kerb side, or nil when the point lies on the
    /// segment's line (either side will do).
    static func curbDirections(of snap: Snap, input: Coordinate, side: DrivingSide, graph: RoutingGraph) -> SnapDirections? {
        let a = graph.coordinate(shapePoint: snap.segment), b = graph.coordinate(shapePoint: snap.segment + 1)
        // The sign of the cross product of the segment (forward) with the point, on a local flat projection:
        // positive means the point lies to the left of forward travel.
        let scale = cos(a.lat * Double.pi / 180)
        let sx = (b.lon - a.lon) * scale, sy = b.lat - a.lat
        let px = (input.lon - a.lon) * scale, py = input.lat - a.lat
        let cross = sx * py - sy * px
        let length = (sx * sx + sy * sy).squareRoot()
        // Closer than a centimetre to the line: no side.
        guard length > 0, abs(cross) / length * 111_195 > 0.01 else { return nil }
        let leftOfForward = cross > 0
        switch side {
        case .right: return leftOfForward ? .backward : .forward
        case .left: return leftOfForward ? .forward : .backward
        }
    }
}

extension ProfileID {
    /// Whether routes keep going at via waypoints by default (`continue_straight=default`): as OSRM's car profile
    /// (`continue_straight_at_waypoint = true`) for the motor profiles; bicycles and pedestrians may turn back.
    public var continuesStraightAtWaypoints: Bool {
        switch self {
        case .car, .truck, .motorcycle: true
        case .bicycle, .foot, .escooter: false
        }
    }
}
