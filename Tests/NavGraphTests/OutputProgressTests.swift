import Foundation
import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

@Suite struct OutputProgressTests {
    typealias F = OutputFixtures
    let response = F.response()
    /// 11 m north of the road, halfway along segment 2 of leg 1 (the second leg, B → C).
    let position = Coordinate(lat: 52.5001, lon: 13.4065)

    @Test func positionInTheMiddleOfLegTwo() throws {
        let progress = try #require(RouteProgress(route: response.routes[0], position: position))
        #expect(progress.legIndex == 1 && progress.segmentIndex == 2)
        #expect(abs(progress.segmentFraction - 0.5) < 1e-6)
        #expect(!progress.isOffRoute)
        #expect(abs(progress.distanceFromRoute - 11.1) < 0.2)
        #expect(progress.waypointCompleted == [true, true, false])
        let total = response.routes[0].distance
        #expect(abs(progress.distanceTraveled + progress.distanceRemaining - total) < 1e-6)
        #expect(abs(progress.distanceTraveled - Geo.haversine(F.east([13.400])[0], progress.snapped)) < 0.5)

        let (traversed, remaining) = progress.split(response.routes[0])
        #expect(traversed.last == progress.snapped && remaining.first == progress.snapped)
        #expect(traversed.dropLast() + remaining.dropFirst() == response.routes[0].coordinates[...])
    }

    @Test func geoJSONMarksTraversedRunsCurrentLegAndCompletedWaypoints() throws {
        let root = try F.object(RouteGeoJSON.make(response, OutputOptions(position: position)))
        #expect(F.bool(root["offRoute"]) == false)
        let features = F.features(root)
        let primary = features.filter { F.featureType($0) == "segment" && F.properties($0)["routeIndex"] as? Int == 0 }
        let traversed = primary.filter { F.bool(F.properties($0)["traversed"]) == true }
        let remaining = primary.filter { F.bool(F.properties($0)["traversed"]) == false }
        #expect(traversed.count + remaining.count == primary.count)

        // Traversed runs come first and end at the snapped point; together the two parts rebuild the route.
        let snapped = F.rounded(Coordinate(lat: 52.5, lon: 13.4065))
        let traversedLine = F.concatenate(traversed.map(F.coordinates))
        let remainingLine = F.concatenate(remaining.map(F.coordinates))
        #expect(traversedLine.first == F.rounded(F.east([13.400])[0]) && traversedLine.last == snapped)
        #expect(remainingLine.first == snapped && remainingLine.last == F.rounded(F.east([13.409])[0]))
        #expect(traversedLine.dropLast() + remainingLine.dropFirst() == response.routes[0].coordinates.map(F.rounded)[...])
        let theme = RouteTheme.default
        #expect(traversed.allSatisfy { F.properties($0)["stroke"] as? String == theme.traversedRouteColor })
        let traversedDistance = traversed.reduce(0.0) { $0 + (F.properties($1)["distance"] as? Double ?? 0) }
        #expect(abs(traversedDistance - Geo.haversine(F.east([13.400])[0], snapped)) < 1)

        for segment in features where F.featureType(segment) == "segment" {
            let p = F.properties(segment)
            #expect(F.bool(p["isCurrentLeg"]) == (p["legIndex"] as? Int == 1))
        }
        let completed = features.filter { F.featureType($0) == "waypoint" }.map { F.bool(F.properties($0)["waypointCompleted"]) }
        #expect(completed == [true, true, false])
    }

    @Test func waypointStatesAtTheEnds() throws {
        let route = response.routes[0]
        let atOrigin = try #require(RouteProgress(route: route, position: F.east([13.400])[0]))
        #expect(atOrigin.waypointCompleted == [false, false, false] && atOrigin.legIndex == 0)
        let atVia = try #require(RouteProgress(route: route, position: F.east([13.404])[0]))
        #expect(atVia.legIndex == 1 && atVia.waypointCompleted == [true, false, false])
        let beyondEnd = try #require(RouteProgress(route: route, position: F.east([13.4092])[0]))
        #expect(beyondEnd.waypointCompleted == [true, true, true] && beyondEnd.distanceRemaining == 0)
    }

    @Test func farPositionIsOffRoute() throws {
        let far = Coordinate(lat: 52.503, lon: 13.405)  // about 330 m north
        let options = OutputOptions(position: far, offRouteThreshold: 50)
        let progress = try #require(RouteProgress.make(response, options))
        #expect(progress.isOffRoute)
        let root = try F.object(RouteGeoJSON.make(response, options))
        #expect(F.bool(root["offRoute"]) == true)
        let summary = F.features(root).first { F.featureType($0) == "route" && F.properties($0)["routeIndex"] as? Int == 0 }
        #expect(F.bool(summary.map(F.properties)?["offRoute"]) == true)
        #expect(RouteProgress.make(response, OutputOptions()) == nil)
    }
}
