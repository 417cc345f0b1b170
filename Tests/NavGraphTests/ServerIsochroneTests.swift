import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import NavGraphServer
import Testing

/// `/isochrone/v1`: the server's polygons are the library's for the same point and contours; bad values are 400s.
@Suite struct ServerIsochroneTests {
    @Test func isochroneEqualsTheLibraryAndRefusesBadContours() throws {
        let graph = try Fixtures.graph("monaco")
        let server = try TestServer(graph: graph, threads: 2)
        defer { server.stop() }
        let centre = Coordinate(lat: 43.7384, lon: 7.4246)
        let (status, body) = try RawHTTP.request(port: server.port, target: "/isochrone/v1/driving/\(osrmPoint(centre))?contours_minutes=2,4")
        #expect(status == 200)
        let router = Router(graph: graph)
        var options = RouteOptions()
        options.radius = OSRMService.defaultRadius
        let metric = router.metric(avoid: [], mode: .strict, traffic: nil)
        let snap = try router.snap(centre, index: 0, options: options, metric: metric)
        var isochroneOptions = Isochrone.Options()
        isochroneOptions.minutes = [2, 4]
        let (isochrone, _) = Isochrone.compute(router: router, snap: snap, metric: metric, options: isochroneOptions)
        #expect(body == IsochroneGeoJSON.make(isochrone))
        let features = (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["features"] as? [[String: Any]] ?? []
        let contours = Set(features.compactMap { ($0["properties"] as? [String: Any])?["contour"] as? Double })
        #expect(contours == [2, 4])

        for (target, code) in [("/isochrone/v1/driving/\(osrmPoint(centre))?contours_minutes=abc", "InvalidValue"),
                               ("/isochrone/v1/driving/\(osrmPoint(centre))?contours_minutes=5,5", "InvalidValue"),
                               ("/isochrone/v1/driving/\(osrmPoint(centre));\(osrmPoint(centre))", "InvalidOptions"),
                               ("/isochrone/v1/driving/0.0,0.0", "NoSegment")] {
            let (status, json) = try RawHTTP.json(port: server.port, target: target)
            #expect(status == 400, "\(target)")
            #expect(json["code"] as? String == code, "\(target): \(json)")
        }
    }
}
