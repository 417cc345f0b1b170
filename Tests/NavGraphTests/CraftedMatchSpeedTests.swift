import Foundation
import XCTest
@testable import NavGraphCore
@testable import NavGraphImport

/// The matcher's temporal term (`MatchModel.speedTolerance`) on a trunk road with a slower frontage road beside it:
/// fixes that lie nearer the frontage road but move at trunk-road speed are matched to the trunk road.
final class CraftedMatchSpeedTests: XCTestCase {
    /// Trunk Road A-P (85 km/h) along lat 45.0, one column 100 m; Frontage Road a-l (residential, 25 km/h) 15 m north of
    /// it from C to N, joined to it only at its two ends; `CraftedMatchTests.parallelRoads`' drawing.
    static let graph = CraftedMatchTests.parallelRoads(main: ["highway": "trunk", "name": "Trunk Road"],
                                                       parallel: ["highway": "residential", "name": "Frontage Road"],
                                                       gridMetres: 100, lineMetres: 15, named: "crafted-match-speed")

    /// Fixes 10 m north of Trunk Road (5 m south of Frontage Road) from 300 m to 1,100 m east of A, `metresApart` apart
    /// and 2 s apart, σ = 10 m; without timestamps when `timed` is false.
    static func trace(metresApart: Double, timed: Bool) -> [TracePoint] {
        let metresPerDegreeLon = MapDrawing.metresPerDegree * cos(45.0 * .pi / 180)
        let count = Int(800 / metresApart) + 1
        return (0..<count).map { index in
            let east = 300 + Double(index) * metresApart
            let coordinate = Coordinate(lat: 45.0 + 10 / MapDrawing.metresPerDegree, lon: 7.0 + east / metresPerDegreeLon)
            return TracePoint(coordinate: coordinate, timestamp: timed ? Double(2 * index) : nil, sigma: 10)
        }
    }

    static func roadNames(_ trace: [TracePoint]) throws -> [String] {
        guard let graph else { throw XCTSkip("crafted speed map failed to import") }
        return try CraftedMatchTests.matchedRoadNames(trace, graph: graph)
    }

    func testFixesAtTrunkRoadSpeedStayOnTheTrunkRoad() throws {
        // 50 m every 2 s is 90 km/h: Frontage Road (25 km/h) would take 7.2 s for each step, more than 1.5 times its speed
        // allows in 2 s, so its nearer fixes lose to the trunk road.
        let names = try Self.roadNames(Self.trace(metresApart: 50, timed: true))
        XCTAssertEqual(Set(names), ["Trunk Road"])
    }

    func testWithoutTimestampsTheNearerFrontageRoadWins() throws {
        // The same fixes without timestamps: only the distance to the road speaks, and Frontage Road is nearer.
        let names = try Self.roadNames(Self.trace(metresApart: 50, timed: false))
        XCTAssertEqual(Set(names), ["Frontage Road"])
    }

    func testFixesAtFrontageRoadSpeedStayOnTheFrontageRoad() throws {
        // 12 m every 2 s is 22 km/h, within Frontage Road's speed: driving slowly costs nothing on either road, and the
        // nearer road wins.
        let names = try Self.roadNames(Self.trace(metresApart: 12, timed: true))
        XCTAssertEqual(Set(names), ["Frontage Road"])
    }
}
