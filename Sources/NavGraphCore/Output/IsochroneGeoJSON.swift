import Foundation

/// Isochrone contours as a GeoJSON FeatureCollection: one MultiPolygon feature per contour, longest first (so
/// shorter contours draw on top), with `contour` (minutes), simplestyle `fill`/`fill-opacity`/`stroke` from the
/// theme, and a Point feature for the snapped centre.
public enum IsochroneGeoJSON {
    public static func make(_ isochrone: Isochrone, theme: RouteTheme = .default, reverse: Bool = false) -> Data {
        json(isochrone, theme: theme, reverse: reverse).data(pretty: false)
    }

    /// The FeatureCollection as a JSON value (for API dialects that reshape it).
    package static func json(_ isochrone: Isochrone, theme: RouteTheme = .default, reverse: Bool = false) -> JSON {
        let sorted = isochrone.contours.sorted { $0.minutes < $1.minutes }
        var features: [JSON] = []
        for (rank, contour) in sorted.enumerated().reversed() {
            let color = rank == 0 ? theme.isochroneNearColor : rank == sorted.count - 1 ? theme.isochroneFarColor : theme.isochroneMiddleColor
            let polygons: [JSON] = contour.polygons.map { rings in
                .array(rings.map { ring in .array(ring.map(JSON.position)) })
            }
            features.append(.object([
                ("type", .string("Feature")),
                ("properties", .object([("contour", .number(contour.minutes)), ("metric", .string("time")),
                                        ("direction", .string(reverse ? "to" : "from")),
                                        ("fill", .string(color)), ("fill-opacity", .number(0.33)),
                                        ("stroke", .string(color)), ("stroke-width", .number(1)), ("stroke-opacity", .number(0.8))])),
                ("geometry", .object([("type", .string("MultiPolygon")), ("coordinates", .array(polygons))])),
            ]))
        }
        features.append(.object([
            ("type", .string("Feature")),
            ("properties", .object([("role", .string("centre")), ("snap_distance", .number(isochrone.snap.distance, decimals: 1))])),
            ("geometry", .object([("type", .string("Point")), ("coordinates", .position(isochrone.snap.point))])),
        ]))
        return JSON.object([("type", .string("FeatureCollection")), ("features", .array(features))])
    }
}
