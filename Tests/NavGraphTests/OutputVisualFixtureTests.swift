import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// Writes the output fixture (primary with traffic, a toll and a ferry, one alternative, a vehicle position) as
/// style.json, route.geojson and directions.json, and checks what was written: the files read back as the three
/// documents, the style passes the style-spec validator, and the drawing inputs Tools/visual_check.sh relies on
/// (both routes, the ferry run, the named waypoints) are there. With $NAVGRAPH_VISUAL_DIR set the files go there
/// for Tools/render_route.py and Tools/plot_geojson.py (the Monaco extract has no ferry and may have no alternative):
/// `NAVGRAPH_VISUAL_DIR=/tmp/vis/fixture swift test -c release --filter OutputVisualFixture`
@Suite struct OutputVisualFixtureTests {
    typealias F = OutputFixtures

    @Test func writtenFixtureFilesHoldTheDrawing() throws {
        let directory = ProcessInfo.processInfo.environment["NAVGRAPH_VISUAL_DIR"]
            ?? Fixtures.workDirectory.appendingPathComponent("visual-fixture").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let options = OutputOptions(position: Coordinate(lat: 52.5001, lon: 13.4065), waypointNames: ["A", "B", "C"])
        let response = F.response()
        let url = URL(fileURLWithPath: directory)
        try MapLibreStyle.make(response, options).write(to: url.appendingPathComponent("style.json"))
        try RouteGeoJSON.make(response, options).write(to: url.appendingPathComponent("route.geojson"))
        try DirectionsResponse.make(response, options).write(to: url.appendingPathComponent("directions.json"))

        func load(_ name: String) throws -> [String: Any] { try F.object(Data(contentsOf: url.appendingPathComponent(name))) }
        let style = try load("style.json")
        #expect(StyleValidator.validate(style) == [])
        let features = F.features(try load("route.geojson"))
        let segments = features.filter { F.featureType($0) == "segment" }
        #expect(segments.contains { F.bool(F.properties($0)["isFerry"]) == true }, "the ferry run is drawn")
        #expect(Set(segments.compactMap { F.bool(F.properties($0)["isAlternateRoute"]) }) == [false, true], "both routes are drawn")
        let names = features.filter { F.featureType($0) == "waypoint" }.compactMap { F.properties($0)["name"] as? String }
        #expect(names == ["A", "B", "C"])
        let directions = try load("directions.json")
        #expect(directions["code"] as? String == "Ok")
        #expect((directions["routes"] as? [Any])?.count == response.routes.count)
        #expect((directions["waypoints"] as? [Any])?.count == 3)
    }
}
