import Foundation

/// A Directions-API response (OSRM / Mapbox shape) with per-segment annotations.
public enum DirectionsResponse {
    /// `{"code": "Ok", "waypoints": [...], "routes": [...]}`; geometry as `options.geometry` says.
    public static func make(_ response: RouteResponse, _ options: OutputOptions) -> Data {
        if options.prettyPrinted { return json(response, options).data(pretty: true) }
        return bytes(response, options, DirectionsShape()).data
    }

    /// The document as a tree, for writers that read it back.
    package static func json(_ response: RouteResponse, _ options: OutputOptions, _ shape: DirectionsShape = DirectionsShape()) -> JSON {
        var tree = JSONTreeBuilder()
        write(response, options, shape, to: &tree)
        return tree.result
    }

    /// The compact document, written straight to bytes.
    package static func bytes(_ response: RouteResponse, _ options: OutputOptions, _ shape: DirectionsShape) -> WrittenBytes {
        var stream = JSONStream()
        write(response, options, shape, to: &stream)
        return stream.finish()
    }

    /// The failure body of the Directions API: `{"code": "NoRoute"|"NoSegment"|"InvalidInput"|..., "message": ...}`.
    public static func failure(_ error: NavGraphError, pretty: Bool = true) -> Data {
        let code: String
        switch error.code {
        case .noRoute: code = "NoRoute"
        case .noSegment: code = "NoSegment"
        case .tooBig: code = "TooBig"
        case .invalidInput, .badFile: code = "InvalidInput"
        case .ioFailure: code = "IOFailure"
        }
        return JSON.object([("code", .string(code)), ("message", .string(error.message))]).data(pretty: pretty)
    }

    /// The document, as `shape` chooses its parts, into any sink.
    static func write<S: JSONSink & ~Copyable>(_ response: RouteResponse, _ options: OutputOptions, _ shape: DirectionsShape,
                                                       to sink: inout S) {
        sink.beginObject()
        sink.member("code", "Ok")
        sink.member("uuid", options.responseID ?? ResponseID.make())
        if shape.writesWaypoints {
            sink.key("waypoints")
            sink.beginArray()
            for w in shape.waypoints ?? response.waypoints { waypoint(w, to: &sink) }
            sink.endArray()
        }
        sink.key("routes")
        sink.beginArray()
        for route in response.routes { self.route(route, options, shape, to: &sink) }
        sink.endArray()
        if let ttl = shape.refreshTTL {
            sink.key("refresh_ttl")
            sink.number(ttl)
        }
        sink.endObject()
    }

    /// The geometry in the requested format: an encoded polyline string or a GeoJSON LineString; the last coordinate
    /// is repeated `repeatLast` more times.
    package static func geometry<S: JSONSink & ~Copyable>(_ coords: ArraySlice<Coordinate>, repeatLast: Int = 0, _ format: GeometryFormat,
                                                          to sink: inout S) {
        switch format {
        case .polyline6: sink.polyline(coords, precision: 6, repeatLast: repeatLast)
        case .polyline: sink.polyline(coords, precision: 5, repeatLast: repeatLast)
        case .geojson:
            sink.beginObject()
            sink.member("type", "LineString")
            sink.key("coordinates")
            sink.beginArray()
            for c in coords { sink.position(c) }
            if let last = coords.last { for _ in 0..<max(0, repeatLast) { sink.position(last) } }
            sink.endArray()
            sink.endObject()
        }
    }

    /// One route object; a matching's route carries its `confidence` last (rounded to 4 places).
    package static func route<S: JSONSink & ~Copyable>(_ route: Route, _ options: OutputOptions, _ shape: DirectionsShape,
                                                       confidence: Double? = nil, to sink: inout S) {
        sink.beginObject()
        sink.member("distance", measure: route.distance)
        sink.member("duration", measure: route.duration)
        sink.member("duration_typical", measure: route.durationTypical)
        sink.member("weight", measure: route.weight)
        sink.member("weight_name", "duration")
        switch shape.overview {
        case .full:
            sink.key("geometry")
            geometry(route.coordinates[...], options.geometry, to: &sink)
        case .simplified:
            sink.key("geometry")
            geometry(Simplification.douglasPeucker(route.coordinates, toleranceMetres: 5)[...], options.geometry, to: &sink)
        case .none: break
        }
        sink.key("legs")
        sink.beginArray()
        for leg in route.legs { self.leg(leg, options, shape, to: &sink) }
        sink.endArray()
        if let narrator = options.narrator { sink.member("voiceLocale", narrator.voiceLocale) }
        if let confidence {
            sink.key("confidence")
            sink.number(confidence, decimals: 4)
        }
        sink.endObject()
    }

    private static func leg<S: JSONSink & ~Copyable>(_ leg: RouteLeg, _ options: OutputOptions, _ shape: DirectionsShape, to sink: inout S) {
        sink.beginObject()
        sink.member("distance", measure: leg.distance)
        sink.member("duration", measure: leg.duration)
        sink.member("duration_typical", measure: leg.durationTypical)
        sink.member("turn_delay_s", measure: leg.turnDelay)
        sink.member("weight", measure: leg.weight)
        sink.member("summary", leg.summary)
        sink.key("steps")
        sink.beginArray()
        for index in leg.steps.indices { step(leg.steps, index, leg: leg, options, to: &sink) }
        sink.endArray()
        if !shape.annotations.isEmpty { annotation(leg, shape, to: &sink) }
        if !leg.viaWaypoints.isEmpty {
            // Mapbox's silent waypoints: the coordinate's index, metres from the leg's start, its geometry index.
            sink.key("via_waypoints")
            sink.beginArray()
            for via in leg.viaWaypoints {
                sink.beginObject()
                sink.member("waypoint_index", integer: via.coordinateIndex)
                sink.member("distance_from_start", measure: via.distanceFromStart)
                sink.member("geometry_index", integer: via.geometryIndex)
                sink.endObject()
            }
            sink.endArray()
        }
        if shape.closures {
            sink.key("closures")
            sink.beginArray()
            sink.endArray()
        }
        if shape.trafficTendency && shape.annotations.isEmpty {
            // Without annotation arrays the tendencies count no segment (as Mapbox's writer has always counted them).
            sink.key("annotation")
            sink.beginObject()
            sink.key("traffic_tendency")
            sink.beginArray()
            sink.endArray()
            sink.endObject()
        }
        sink.endObject()
    }

    /// Exactly one entry per coordinate pair, as clients index annotations by segment (null where the leg has none).
    private static func annotation<S: JSONSink & ~Copyable>(_ leg: RouteLeg, _ shape: DirectionsShape, to sink: inout S) {
        let segments = max(0, leg.coordinates.count - 1)
        let known = min(segments, leg.annotations.count)
        sink.key("annotation")
        sink.beginObject()
        leg.annotations.withUnsafeBufferPointer { a in
            if shape.annotations.contains(.distance) {
                sink.key("distance")
                sink.beginArray()
                for i in 0..<known { sink.measure(a[i].distance) }
                for _ in known..<segments { sink.null() }
                sink.endArray()
            }
            if shape.annotations.contains(.duration) {
                sink.key("duration")
                sink.beginArray()
                for i in 0..<known { sink.measure(a[i].duration) }
                for _ in known..<segments { sink.null() }
                sink.endArray()
            }
            if shape.annotations.contains(.speed) {
                sink.key("speed")
                sink.beginArray()
                for i in 0..<known { sink.measure(a[i].speed) }
                for _ in known..<segments { sink.null() }
                sink.endArray()
            }
            if shape.annotations.contains(.congestion) {
                sink.key("congestion")
                sink.beginArray()
                for i in 0..<known { sink.string(literal: a[i].congestion.name) }
                for _ in known..<segments { sink.string(literal: CongestionLevel.unknown.name) }
                sink.endArray()
            }
            if shape.annotations.contains(.congestionNumeric) {
                sink.key("congestion_numeric")
                sink.beginArray()
                for i in 0..<known { sink.integer(a[i].congestionNumeric) }
                for _ in known..<segments { sink.null() }
                sink.endArray()
            }
            if shape.annotations.contains(.maxspeed) {
                sink.key("maxspeed")
                sink.beginArray()
                for i in 0..<known { maxspeed(a[i].maxspeed, to: &sink) }
                for _ in known..<segments { maxspeed(0, to: &sink) }
                sink.endArray()
            }
        }
        if shape.trafficTendency {
            sink.key("traffic_tendency")
            sink.beginArray()
            for _ in 0..<segments { sink.integer(0) }
            sink.endArray()
        }
        sink.endObject()
    }

    /// A waypoint of the response: the road's name, the snapped location and the snapping distance.
    static func waypoint<S: JSONSink & ~Copyable>(_ w: RouteWaypoint, to sink: inout S) {
        sink.beginObject()
        sink.member("name", w.roadName)
        sink.key("location")
        sink.position(w.snapped)
        sink.member("distance", measure: w.snapDistance)
        sink.endObject()
    }
}
