import Foundation

/// `/isochrone/v1/{profile}/{lon,lat}?contours_minutes=5,10,15[&reverse=true]`: the GeoJSON polygons of
/// `navgraph isochrone` (one feature per contour), from the same one-to-all sweep.
package struct IsochroneEndpoint {
    package static let options: Set<String> = GeneralOptions.names.union(["contours_minutes", "reverse", "traffic", "depart_at"]).union(VehicleQuery.names)
    /// The longest contour a request may ask for, which bounds the polygon work per request.
    static let maximumMinutes = 120.0

    package static func answer(_ url: OSRMURL, _ query: QueryOptions, router: Router, traffic: TrafficOverlay?) throws -> HTTPResponse {
        let (isochrone, reverse) = try compute(url, query, router: router, traffic: traffic)
        return HTTPResponse(status: 200, contentType: "application/geo+json", body: IsochroneGeoJSON.make(isochrone, reverse: reverse))
    }

    /// The contours of a request, and whether they are reverse (times to the point).
    package static func compute(_ url: OSRMURL, _ query: QueryOptions, router: Router, traffic: TrafficOverlay?) throws -> (Isochrone, reverse: Bool) {
        guard url.coordinates.count == 1 else {
            throw OSRMError(.invalidOptions, "an isochrone takes exactly one coordinate, got \(url.coordinates.count)")
        }
        let general = try GeneralOptions(query, coordinateCount: 1)
        var isochroneOptions = Isochrone.Options()
        isochroneOptions.reverse = try query.bool("reverse", default: false)
        if let raw = query["contours_minutes"] {
            isochroneOptions.minutes = try raw.split(separator: ",", omittingEmptySubsequences: false).map { item in
                guard let minutes = Double(item), minutes.isFinite, minutes > 0, minutes <= maximumMinutes else {
                    throw OSRMError(.invalidValue, "contours_minutes: '\(item)' is not a number of minutes in 0...\(Int(maximumMinutes))")
                }
                return minutes
            }
            guard Set(isochroneOptions.minutes).count == isochroneOptions.minutes.count else {
                throw OSRMError(.invalidValue, "contours_minutes='\(raw)' repeats a contour")
            }
        }
        var options = RouteOptions()
        options.radius = OSRMService.defaultRadius
        options.radii = general.radii
        options.avoid = general.exclude
        options.vehicle = try VehicleQuery.parse(query, profile: url.profileID)
        let metric = router.engine.metric(avoid: options.avoid, mode: .strict, traffic: traffic, vehicle: options.vehicle)
        let snap: Snap
        do {
            snap = try router.snap(url.coordinates[0], index: 0, options: options, metric: metric)
        } catch let error as NavGraphError {
            throw OSRMError(error)
        }
        let (isochrone, _) = Isochrone.compute(router: router, snap: snap, metric: metric, options: isochroneOptions)
        return (isochrone, isochroneOptions.reverse)
    }
}
