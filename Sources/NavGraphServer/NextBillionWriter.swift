import Foundation
import NavGraphCore

/// NextBillion's `/navigation/json` and `/directions/json` bodies written straight to bytes from the shared pipeline's
/// routes, in the shapes of the official client's typed models: the pipeline's Directions values (rounded as that body
/// rounds them) rearranged, with `{"value": ...}` measures and `latitude`/`longitude` objects.
package enum NextBillionWriter {
    /// The navigation response: `routes` with legs, steps, maneuvers and voice instructions.
    package static func navigation(_ result: DirectionsResult, _ parameters: RouteEndpoint.Parameters) -> WrittenBytes {
        let output = RouteEndpoint.output(parameters, uuid: result.uuid)
        var stream = JSONStream()
        stream.beginObject()
        stream.member("status", "Ok")
        stream.member("msg", "")
        stream.key("routes")
        stream.beginArray()
        for route in result.response.routes { self.route(route, output, result.shape, navigation: true, units: parameters.voiceUnits, to: &stream) }
        stream.endArray()
        stream.endObject()
        return stream.finish()
    }

    /// The directions response: the primary `route` (and every route in `routes` when there are alternatives).
    package static func directions(_ result: DirectionsResult, _ parameters: RouteEndpoint.Parameters) -> WrittenBytes {
        let output = RouteEndpoint.output(parameters, uuid: result.uuid)
        let routes = result.response.routes
        var stream = JSONStream()
        stream.beginObject()
        stream.member("status", "Ok")
        stream.member("msg", "")
        stream.key("route")
        if let first = routes.first { route(first, output, result.shape, navigation: false, units: .metric, to: &stream) } else { stream.null() }
        if routes.count > 1 {
            stream.key("routes")
            stream.beginArray()
            for route in routes { self.route(route, output, result.shape, navigation: false, units: .metric, to: &stream) }
            stream.endArray()
        }
        stream.endObject()
        return stream.finish()
    }

    /// `{"latitude": ..., "longitude": ...}` with 6 decimals.
    private static func location(_ c: Coordinate, to stream: inout JSONStream) {
        stream.beginObject()
        stream.key("latitude")
        stream.number(c.lat, decimals: 6)
        stream.key("longitude")
        stream.number(c.lon, decimals: 6)
        stream.endObject()
    }

    /// A location read back from a Directions `[lon, lat]` position: null unless both are numbers there.
    private static func positionLocation(_ c: Coordinate?, to stream: inout JSONStream) {
        guard let c, c.lat.isFinite, c.lon.isFinite else { return stream.null() }
        location(c, to: &stream)
    }

    /// `{"value": n}`: a Directions measure (one decimal) rounded to a whole number; null where the measure is.
    private static func value(measure: Double, to stream: inout JSONStream) {
        stream.beginObject()
        stream.key("value")
        stream.number(measure.isFinite ? ((measure * 10).rounded() / 10).rounded() : .nan)
        stream.endObject()
    }

    /// `{"value": n}` of a whole number.
    private static func value(_ number: Double, to stream: inout JSONStream) {
        stream.beginObject()
        stream.key("value")
        stream.number(number.rounded())
        stream.endObject()
    }

    private static func route(_ route: Route, _ output: OutputOptions, _ shape: DirectionsShape, navigation: Bool, units: DistanceUnits,
                              to stream: inout JSONStream) {
        let coordinates = route.coordinates
        stream.beginObject()
        stream.key("distance")
        stream.number(route.distance, decimals: 1)
        stream.key("duration")
        stream.number(route.duration.rounded())
        stream.key("raw_duration")
        stream.number(route.durationTypical, decimals: 1)
        stream.key("predicted_duration")
        stream.number(route.duration, decimals: 1)
        stream.member("weight", measure: route.weight)
        let overview: [Coordinate]?
        switch shape.overview {
        case .full: overview = coordinates
        case .simplified: overview = Simplification.douglasPeucker(coordinates, toleranceMetres: 5)
        case .none: overview = nil
        }
        if let overview {
            if output.geometry == .geojson {
                stream.key("geojson")
                stream.beginObject()
                stream.member("type", "Feature")
                stream.key("geometry")
                DirectionsResponse.geometry(overview[...], output.geometry, to: &stream)
                stream.endObject()
            } else {
                stream.key("geometry")
                DirectionsResponse.geometry(overview[...], output.geometry, to: &stream)
            }
        }
        if let first = coordinates.first, let last = coordinates.last {
            stream.key("start_location")
            location(first, to: &stream)
            stream.key("end_location")
            location(last, to: &stream)
        }
        stream.key("legs")
        stream.beginArray()
        for leg in route.legs {
            stream.beginObject()
            stream.key("distance")
            value(leg.distance, to: &stream)
            stream.key("duration")
            value(leg.duration, to: &stream)
            if let first = leg.coordinates.first, let last = leg.coordinates.last {
                stream.key("start_location")
                location(first, to: &stream)
                stream.key("end_location")
                location(last, to: &stream)
            }
            if navigation {
                stream.key("raw_duration")
                stream.number(leg.durationTypical, decimals: 1)
            }
            stream.key("steps")
            stream.beginArray()
            for index in leg.steps.indices {
                let end = index + 1 < leg.steps.count ? leg.steps[index + 1].maneuver.location : leg.coordinates.last
                step(leg.steps, index, leg: leg, end: end, output, navigation: navigation, units: units, to: &stream)
            }
            stream.endArray()
            stream.endObject()
        }
        stream.endArray()
        stream.endObject()
    }

    private static func step(_ steps: [GuidanceStep], _ index: Int, leg: RouteLeg, end: Coordinate?, _ output: OutputOptions, navigation: Bool,
                             units: DistanceUnits, to stream: inout JSONStream) {
        let step = steps[index], m = step.maneuver
        stream.beginObject()
        stream.key("distance")
        value(measure: step.distance, to: &stream)
        stream.key("duration")
        value(measure: step.duration, to: &stream)
        let coordinates = leg.coordinates[step.geometryRange]
        stream.key("geometry")
        DirectionsResponse.geometry(coordinates, repeatLast: coordinates.count == 1 ? 1 : 0, output.geometry, to: &stream)
        stream.key("start_location")
        positionLocation(m.location, to: &stream)
        stream.key("end_location")
        positionLocation(end, to: &stream)
        if navigation {
            stream.member("name", step.name)
            stream.member("reference", step.ref)
            stream.member("driving_side", step.drivingSide)
            stream.key("intersections")
            stream.beginArray()
            for intersection in step.intersections {
                stream.beginObject()
                stream.key("bearings")
                stream.beginArray()
                for bearing in intersection.bearings { stream.integer(bearing) }
                stream.endArray()
                stream.key("classes")
                stream.beginArray()
                stream.endArray()
                stream.key("entry")
                stream.beginArray()
                for allowed in intersection.entry { stream.bool(allowed) }
                stream.endArray()
                stream.key("intersection_in")
                stream.integer(intersection.inIndex)
                stream.key("intersection_out")
                stream.integer(intersection.outIndex)
                stream.key("location")
                positionLocation(intersection.location, to: &stream)
                if let lanes = intersection.lanes {
                    stream.key("lanes")
                    DirectionsResponse.lanes(lanes, to: &stream)
                }
                stream.endObject()
            }
            stream.endArray()
        }
        stream.key("maneuver")
        stream.beginObject()
        stream.member("bearing_after", integer: m.bearingAfter)
        stream.member("bearing_before", integer: m.bearingBefore)
        stream.key("coordinate")
        positionLocation(m.location, to: &stream)
        stream.member("maneuver_type", m.type.rawValue)
        stream.key("modifier")
        if let modifier = m.modifier ?? m.side { stream.string(modifier.rawValue) } else { stream.null() }
        if navigation {
            stream.key("instruction")
            if let instruction = output.narrator?.instruction(steps: steps, index: index) { stream.string(instruction) } else { stream.null() }
            stream.member("muted", bool: false)
            stream.key("roundabout_count")
            stream.integer(m.exit)
            stream.key("voice_instruction")
            stream.beginArray()
            if let narrator = output.narrator, output.voiceInstructions {
                for voice in narrator.voiceInstructions(steps: steps, index: index) {
                    stream.beginObject()
                    stream.key("distance_along_geometry")
                    stream.number(voice.distanceAlongGeometry.isFinite ? ((voice.distanceAlongGeometry * 10).rounded() / 10).rounded() : 0)
                    stream.member("instruction", voice.announcement)
                    stream.member("unit", units.rawValue)
                    stream.endObject()
                }
            }
            stream.endArray()
        }
        stream.endObject()
        stream.endObject()
    }
}
