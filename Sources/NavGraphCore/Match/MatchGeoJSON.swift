import Foundation

/// A matched trace as GeoJSON: one LineString per matching (`kind: matched`, its index, confidence and metres),
/// a Point per matched trace point at its snapped position (`kind: snapped`, with the input index and the metres
/// moved), and a Point per unmatched input point (`kind: unmatched`).
public enum MatchGeoJSON {
    public static func make(_ result: MatchResult, trace: [TracePoint], router: Router) -> Data {
        var features: [JSON] = []
        for (index, matching) in result.matchings.enumerated() {
            let legs = matching.paths.map { router.buildLeg($0, metric: result.metric, names: nil) }
            let line = Route(legs: legs, isAlternate: false, avoided: [], usedAvoidedClasses: []).coordinates
            features.append(feature(.object([("type", .string("LineString")), ("coordinates", .array(line.map(JSON.position)))]), [
                ("kind", .string("matched")), ("matching", .number(Double(index))),
                ("confidence", .number(matching.confidence, decimals: 4)),
                ("distance", .measure(legs.reduce(0) { $0 + $1.distance })),
            ]))
        }
        for (index, point) in trace.enumerated() {
            if let place = result.placement[index] {
                let snap = result.matchings[place.matching].snaps[place.index]
                features.append(feature(.object([("type", .string("Point")), ("coordinates", JSON.position(snap.point))]), [
                    ("kind", .string("snapped")), ("index", .number(Double(index))), ("matching", .number(Double(place.matching))),
                    ("distance", .measure(snap.distance)),
                ]))
            } else {
                features.append(feature(.object([("type", .string("Point")), ("coordinates", JSON.position(point.coordinate))]), [
                    ("kind", .string("unmatched")), ("index", .number(Double(index))),
                ]))
            }
        }
        return JSON.object([("type", .string("FeatureCollection")), ("features", .array(features))]).data(pretty: false)
    }

    private static func feature(_ geometry: JSON, _ properties: [(String, JSON)]) -> JSON {
        .object([("type", .string("Feature")), ("geometry", geometry), ("properties", .object(properties))])
    }
}
