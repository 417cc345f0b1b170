import Foundation
import XCTest
@testable import NavGraphCore
@testable import NavGraphImport

/// β's growth with the distance between fixes (`MatchModel.betaPerMetre`): sparse fixes on a road that bends away from
/// a straight side street stay on the bend that they lie on.
final class CraftedMatchBendTests: XCTestCase {
    /// One column 25 m, one line 10 m. Boulevard A-E-B-C-D-G bends 20 m north between E and D; Short Street runs
    /// straight from E to D.
    static let map: DrawnMap? = try? MapDrawing("""
              B-----C
              |     |
        A-----E-----D-----G
        """, gridMetres: 25, lineMetres: 10,
        ways: [("AEBCDG", ["highway": "primary", "name": "Boulevard"]),
               ("ED", ["highway": "residential", "name": "Short Street"])])
        .importGraph(named: "crafted-match-bend")

    /// Three fixes 226 m apart, without timestamps, σ = 10 m: at A, on the bend halfway between B and C (20 m from Short
    /// Street), and at G. The name of the road the middle fix is matched to.
    static func middleRoad(betaPerMetre: Double) throws -> String {
        guard let map else { throw XCTSkip("crafted bend map failed to import") }
        let middle = map.point("B", east: 75)
        let trace = [map["A"], middle, map["G"]].map { TracePoint(coordinate: $0, sigma: 10) }
        var options = MatchOptions()
        options.model.betaPerMetre = betaPerMetre
        return try XCTUnwrap(CraftedMatchTests.matchedRoadNames(trace, graph: map.graph, options: options).dropFirst().first)
    }

    func testSparseFixOnTheBendStaysOnTheBend() throws {
        // The bend makes each step 19 m longer than the straight line. With β = 10 m + 0.25 × 226 m = 66 m that costs
        // 0.6 in log-likelihood, less than the 2.0 that Short Street's 20 m (2σ) from the fix costs.
        XCTAssertEqual(try Self.middleRoad(betaPerMetre: MatchModel().betaPerMetre), "Boulevard")
    }

    func testWithAFixedBetaTheShortcutWins() throws {
        // The control: with β fixed at 10 m the bend's 2 × 19 m cost 3.8, more than the 2.0 for the distance to Short
        // Street, so the fix on the bend is matched to the shortcut.
        XCTAssertEqual(try Self.middleRoad(betaPerMetre: 0), "Short Street")
    }
}
