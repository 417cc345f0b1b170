import Foundation
import Testing
import NavGraph

/// Writes the output fixture (primary with traffic, a toll and a ferry, one alternative, a vehicle position) as
/// style.json, route.geojson and directions.json into $NAVGRAPH_VISUAL_DIR, for Tools/render_route.py and
/// Tools/plot_geojson.py to draw: the Monaco extract has no ferry and may have no alternative.
/// `NAVGRAPH_VISUAL_DIR=/tmp/vis/fixture swift test -c release --filter OutputVisualFixture`
@Suite struct OutputVisualFixtureTests {
    static let directory = ProcessInfo.processInfo.environment["NAVGRAPH_VISUAL_DIR"]

    @Test(.enabled(if: directory != nil)) func writeFixtureOutputs() throws {
        let directory = try #require(Self.directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let options = OutputOptions(position: Coordinate(lat: 52.5001, lon: 13.4065), waypointNames: ["A", "B", "C"])
        let response = OutputFixtures.response()
        let url = URL(fileURLWithPath: directory)
        try MapLibreStyle.make(response, options).write(to: url.appendingPathComponent("style.json"))
        try RouteGeoJSON.make(response, options).write(to: url.appendingPathComponent("route.geojson"))
        try DirectionsResponse.make(response, options).write(to: url.appendingPathComponent("directions.json"))
    }
}
