import Foundation

/// The plain route geometry as a GeoJSON FeatureCollection of LineStrings (one per route), without styling.
public enum RouteLineGeoJSON {
    public static func make(_ response: RouteResponse) throws -> Data {
        let features: [[String: Any]] = response.routes.enumerated().map { index, route in
            [
                "type": "Feature",
                "properties": ["routeIndex": index, "distance": route.distance, "duration": route.duration],
                "geometry": ["type": "LineString", "coordinates": route.coordinates.map { [($0.lon * 1e6).rounded() / 1e6, ($0.lat * 1e6).rounded() / 1e6] }],
            ]
        }
        return try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features], options: [.sortedKeys])
    }
}
