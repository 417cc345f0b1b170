import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

@Suite struct OutputPolylineTests {
    /// The example from Google's "Encoded Polyline Algorithm Format" documentation.
    let reference = [Coordinate(lat: 38.5, lon: -120.2), Coordinate(lat: 40.7, lon: -120.95), Coordinate(lat: 43.252, lon: -126.453)]

    @Test func matchesGoogleReferenceVector() throws {
        #expect(Polyline.encode(reference, precision: 5) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        let decoded = try Polyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@", precision: 5)
        #expect(decoded.count == 3)
        for (a, b) in zip(decoded, reference) { #expect(abs(a.lat - b.lat) < 1e-9 && abs(a.lon - b.lon) < 1e-9) }
    }

    @Test(arguments: [5, 6]) func roundTrips(precision: Int) throws {
        let coords = [Coordinate(lat: 52.517037, lon: 13.388860), Coordinate(lat: 52.529407, lon: 13.397634),
                      Coordinate(lat: -33.868820, lon: 151.209296), Coordinate(lat: 0, lon: 0), Coordinate(lat: -90, lon: 180)]
        let decoded = try Polyline.decode(Polyline.encode(coords, precision: precision), precision: precision)
        let tolerance = 0.5 * pow(10, -Double(precision)) + 1e-12
        #expect(decoded.count == coords.count)
        for (a, b) in zip(decoded, coords) { #expect(abs(a.lat - b.lat) <= tolerance && abs(a.lon - b.lon) <= tolerance) }
    }

    @Test func precision6DiffersFromPrecision5() {
        #expect(Polyline.encode(reference, precision: 6) != Polyline.encode(reference, precision: 5))
        #expect(Polyline.encode([], precision: 6) == "")
    }

    @Test func rejectsMalformedInput() {
        #expect(throws: NavGraphError.self) { try Polyline.decode("_p~iF", precision: 5) }
        #expect(throws: NavGraphError.self) { try Polyline.decode("_p~iF~ps|", precision: 5) }
        #expect(throws: NavGraphError.self) { try Polyline.decode("ab cd", precision: 5) }
    }
}
