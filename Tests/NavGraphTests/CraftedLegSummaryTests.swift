import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder

/// A leg's summary names its two longest roads, each road's pieces summed wherever they lie along the leg.
@Suite struct CraftedLegSummaryTests {
    /// One street of 51 ways, A to z, 10 m a column. Long Road is A-B and again y-z (80 m in all, 40 m each piece);
    /// Main Street is Z-a (60 m); every other way is a Street of its own (20 m). By y the leg has named 50 roads, more
    /// than the summary searches in place, so Long Road's second piece is found through the summary's index.
    static let drawing = "A---B-C-D-E-F-G-H-I-J-K-L-M-N-O-P-Q-R-S-T-U-V-W-X-Y-Z-----a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y---z"

    @Test func piecesOfOneRoadFarApartAreSummedOnALegOfManyNames() throws {
        let letters = Array(Self.drawing.filter { $0.isLetter })
        let ways = (0..<(letters.count - 1)).map { index -> (String, [String: String]) in
            let name = index == 0 || index == letters.count - 2 ? "Long Road" : letters[index] == "Z" ? "Main Street" : "Street \(index)"
            return (String([letters[index], letters[index + 1]]), ["highway": "residential", "name": name])
        }
        #expect(Set(ways.map { $0.1["name"] }).count > RoadLengths.scannedInPlace)
        let map = try MapDrawing(Self.drawing, gridMetres: 10, anchor: "A", ways: ways).importGraph(named: "crafted-leg-summary")
        let response = try Router(graph: map.graph).route([map.point("A", east: 1), map.point("z", east: -1)])
        let leg = try #require(response.routes.first?.legs.first)
        #expect(abs(leg.distance - 1_098) < 1, "the whole street, A to z less a metre at each end")
        // Split into two entries, Long Road's pieces (40 m each) would lose to Main Street (60 m).
        #expect(leg.summary == "Long Road, Main Street")
    }
}
