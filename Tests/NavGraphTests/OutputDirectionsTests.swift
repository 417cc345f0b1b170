import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

@Suite struct OutputDirectionsTests {
    typealias F = OutputFixtures
    let response = F.response()

    @Test func annotationsHaveOneEntryPerCoordinatePair() throws {
        let root = try F.object(DirectionsResponse.make(response, OutputOptions()))
        #expect(root["code"] as? String == "Ok")
        let routes = try #require(root["routes"] as? [[String: Any]])
        #expect(routes.count == response.routes.count)
        for (json, route) in zip(routes, response.routes) {
            let legs = try #require(json["legs"] as? [[String: Any]])
            #expect(legs.count == route.legs.count)
            for (legJSON, leg) in zip(legs, route.legs) {
                #expect((legJSON["steps"] as? [Any])?.count == leg.steps.count)
                let annotation = try #require(legJSON["annotation"] as? [String: [Any]])
                for key in ["distance", "duration", "speed", "congestion", "congestion_numeric"] {
                    #expect(annotation[key]?.count == leg.coordinates.count - 1, "\(key)")
                }
                for (value, a) in zip(annotation["congestion_numeric"] ?? [], leg.annotations) {
                    if let numeric = a.congestionNumeric { #expect(value as? Int == numeric) } else { #expect(value is NSNull) }
                }
                #expect(annotation["congestion"]?.compactMap { $0 as? String } == leg.annotations.map(\.congestion.rawValue))
            }
            #expect(json["weight_name"] as? String == "duration")
            #expect(abs((json["duration_typical"] as? Double ?? 0) - route.durationTypical) < 0.05)
        }
    }

    @Test func missingAnnotationsArePaddedWithNull() throws {
        var short = response
        short.routes[0].legs[0].annotations.removeLast()
        let root = try F.object(DirectionsResponse.make(short, OutputOptions()))
        let routes = try #require(root["routes"] as? [[String: Any]])
        let leg = try #require((routes[0]["legs"] as? [[String: Any]])?.first)
        let distances = try #require((leg["annotation"] as? [String: [Any]])?["distance"])
        #expect(distances.count == 4 && distances.last is NSNull)
    }

    @Test(arguments: [GeometryFormat.polyline6, .polyline, .geojson])
    func geometryFormats(format: GeometryFormat) throws {
        let root = try F.object(DirectionsResponse.make(response, OutputOptions(geometry: format)))
        let geometry = try #require((root["routes"] as? [[String: Any]])?.first?["geometry"])
        let expected = response.routes[0].coordinates
        let decoded: [Coordinate]
        switch format {
        case .polyline6: decoded = try Polyline.decode(try #require(geometry as? String), precision: 6)
        case .polyline: decoded = try Polyline.decode(try #require(geometry as? String), precision: 5)
        case .geojson:
            let line = try #require(geometry as? [String: Any])
            #expect(line["type"] as? String == "LineString")
            decoded = F.coordinates(["geometry": line])
        }
        #expect(decoded.count == expected.count)
        for (a, b) in zip(decoded, expected) { #expect(Geo.haversine(a, b) < 1.5) }
    }

    @Test func waypointsUseLonLatAndRoadNames() throws {
        let root = try F.object(DirectionsResponse.make(response, OutputOptions()))
        let waypoints = try #require(root["waypoints"] as? [[String: Any]])
        #expect(waypoints.map { $0["name"] as? String } == ["Road 0", "Road 1", "Road 2"])
        #expect(waypoints.map { $0["location"] as? [Double] } == response.waypoints.map { [$0.snapped.lon, $0.snapped.lat] })
    }
}
