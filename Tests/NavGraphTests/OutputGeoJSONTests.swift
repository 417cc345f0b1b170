import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

@Suite struct OutputGeoJSONTests {
    typealias F = OutputFixtures
    let response = F.response()

    func collection(_ options: OutputOptions = OutputOptions()) throws -> [String: Any] {
        try F.object(RouteGeoJSON.make(response, options))
    }

    @Test func structureFollowsRFC7946() throws {
        let root = try collection(OutputOptions(prettyPrinted: false))
        #expect(root["type"] as? String == "FeatureCollection")
        let features = F.features(root)
        #expect(!features.isEmpty)
        for feature in features {
            #expect(feature["type"] as? String == "Feature")
            let geometry = try #require(feature["geometry"] as? [String: Any])
            let type = try #require(geometry["type"] as? String)
            let kind = try #require(F.featureType(feature))
            #expect(["segment", "route", "waypoint", "label"].contains(kind))
            #expect(type == (kind == "segment" || kind == "route" ? "LineString" : "Point"))
            let coords = F.coordinates(feature)
            #expect(coords.count >= (type == "LineString" ? 2 : 1))
            for c in coords {
                // lon, lat order: this fixture lies at lon 13.4, lat 52.5.
                #expect(abs(c.lon - 13.4) < 0.1 && abs(c.lat - 52.5) < 0.1)
                #expect(c == F.rounded(c), "coordinates have at most 6 decimals")
            }
            if type == "LineString" {
                let p = F.properties(feature)
                #expect(RouteTheme.isColor(p["stroke"] as? String ?? ""))
                #expect(p["stroke-width"] is NSNumber && p["stroke-opacity"] is NSNumber)
            }
        }
    }

    @Test func congestionRunsCoverEachLegExactlyOnceInOrder() throws {
        let features = F.features(try collection())
        for (routeIndex, route) in response.routes.enumerated() {
            let runs = features.filter { F.featureType($0) == "segment" && F.properties($0)["routeIndex"] as? Int == routeIndex }
            for (legIndex, leg) in route.legs.enumerated() {
                let legRuns = runs.filter { F.properties($0)["legIndex"] as? Int == legIndex }
                #expect(!legRuns.isEmpty)
                #expect(F.concatenate(legRuns.map(F.coordinates)) == leg.coordinates.map(F.rounded))
                let distance = legRuns.reduce(0.0) { $0 + (F.properties($1)["distance"] as? Double ?? 0) }
                #expect(abs(distance - leg.distance) <= 0.05 * Double(legRuns.count) + 1e-9)
                // Runs are maximal: neighbours differ in congestion, toll or ferry.
                for (a, b) in zip(legRuns, legRuns.dropFirst()) {
                    let key = { (f: [String: Any]) in
                        let p = F.properties(f)
                        return "\(p["congestion"] ?? "")/\(F.bool(p["isToll"]) ?? false)/\(F.bool(p["isFerry"]) ?? false)"
                    }
                    #expect(key(a) != key(b))
                }
            }
            let summary = try #require(features.first { F.featureType($0) == "route" && F.properties($0)["routeIndex"] as? Int == routeIndex })
            #expect(F.coordinates(summary) == route.coordinates.map(F.rounded))
            #expect(F.bool(F.properties(summary)["isAlternateRoute"]) == route.isAlternate)
        }
    }

    @Test func runPropertiesReflectTheAnnotations() throws {
        let theme = RouteTheme.default
        let segments = F.features(try collection()).filter { F.featureType($0) == "segment" }.map(F.properties)
        let primaryLeg1 = segments.filter { $0["routeIndex"] as? Int == 0 && $0["legIndex"] as? Int == 1 }
        // Leg 1: unknown ×2, heavy+toll, heavy, low+ferry.
        #expect(primaryLeg1.map { $0["congestion"] as? String } == ["unknown", "heavy", "heavy", "low"])
        #expect(primaryLeg1.map { F.bool($0["isToll"]) } == [false, true, false, false])
        #expect(primaryLeg1.map { F.bool($0["isFerry"]) } == [false, false, false, true])
        #expect(primaryLeg1[0]["congestion_numeric"] is NSNull)
        #expect(primaryLeg1[1]["congestion_numeric"] as? Int == 70)
        #expect(primaryLeg1[1]["stroke"] as? String == theme.trafficHeavyColor)
        for alternate in segments where F.bool(alternate["isAlternateRoute"]) == true {
            #expect(alternate["stroke"] as? String == theme.routeAlternateColor)
        }
    }

    @Test func waypointsAndLabelsArePresent() throws {
        let options = OutputOptions(units: .imperial, waypointNames: ["Home", "", "Work"])
        let features = F.features(try collection(options))
        let waypoints = features.filter { F.featureType($0) == "waypoint" }.map(F.properties)
        #expect(waypoints.map { $0["name"] as? String } == ["Home", "2", "Work"])
        #expect(waypoints.map { $0["role"] as? String } == ["origin", "via", "destination"])
        #expect(waypoints.allSatisfy { F.bool($0["waypointCompleted"]) == false })
        #expect(waypoints.allSatisfy { ($0["inputLocation"] as? [Double])?.count == 2 && $0["snapDistance"] as? Double == 11.1 })

        let labels = features.filter { F.featureType($0) == "label" }
        #expect(labels.count == response.routes.count)
        for (label, route) in zip(labels, response.routes) {
            let p = F.properties(label)
            #expect(p["label"] as? String == RouteText.duration(route.duration))
            #expect((p["distanceLabel"] as? String)?.hasSuffix(" ft") == true || (p["distanceLabel"] as? String)?.hasSuffix(" mi") == true)
        }
    }

    @Test func labelsOfDifferentRoutesAreApart() throws {
        let labels = F.features(try collection()).filter { F.featureType($0) == "label" }
        let points = labels.compactMap { F.coordinates($0).first }
        #expect(points.count == 2)
        #expect(Geo.haversine(points[0], points[1]) > 50)
        // The alternate's label sits on its detour, which the primary does not use.
        #expect(points[1].lat > 52.5005)
    }

    @Test func identicalRoutesStillGetSeparateLabels() throws {
        var twins = response
        twins.routes[1] = twins.routes[0]
        twins.routes[1].isAlternate = true
        let root = try F.object(RouteGeoJSON.make(twins, OutputOptions()))
        let points = F.features(root).filter { F.featureType($0) == "label" }.compactMap { F.coordinates($0).first }
        #expect(points.count == 2 && Geo.haversine(points[0], points[1]) > 10)
    }

    @Test func durationAndDistanceText() {
        #expect(RouteText.duration(12 * 60) == "12 min")
        #expect(RouteText.duration(65 * 60) == "1 h 5 min")
        #expect(RouteText.duration(120 * 60) == "2 h")
        #expect(RouteText.distance(8_440, units: .metric) == "8.4 km")
        #expect(RouteText.distance(850, units: .metric) == "850 m")
        #expect(RouteText.distance(1609.344 * 3, units: .imperial) == "3.0 mi")
    }
}

@Suite struct OutputDegenerateInputTests {
    typealias F = OutputFixtures

    @Test func emptyAndDegenerateResponsesStillProduceValidOutput() throws {
        var response = F.response()
        response.routes = []
        let empty = try F.object(RouteGeoJSON.make(response, OutputOptions(position: Coordinate(lat: 52.5, lon: 13.4))))
        #expect(F.features(empty).count == response.waypoints.count)
        #expect(StyleValidator.validate(try F.object(MapLibreStyle.make(response, OutputOptions()))) == [])

        // A single-point leg and a NaN coordinate must not trap.
        let point = F.leg([Coordinate(lat: 52.5, lon: 13.4)], congestion: [])
        let broken = F.leg([Coordinate(lat: .nan, lon: 13.4), Coordinate(lat: 52.5, lon: 13.41)], congestion: [nil])
        response.routes = [Route(legs: [point, broken], isAlternate: false, avoided: [], usedAvoidedClasses: [])]
        let options = OutputOptions(position: Coordinate(lat: 52.5, lon: 13.4))
        _ = try F.object(RouteGeoJSON.make(response, options))
        _ = try F.object(DirectionsResponse.make(response, options))
        #expect(StyleValidator.validate(try F.object(MapLibreStyle.make(response, options))) == [])
    }
}
