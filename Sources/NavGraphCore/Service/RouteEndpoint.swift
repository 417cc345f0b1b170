import Foundation

/// `/route/v1`: OSRM route parameters (plus the Mapbox extensions), the route, and the OSRM-shaped body
/// built through `DirectionsResponse`.
package struct RouteEndpoint {
    package static let options: Set<String> = GeneralOptions.names.union([
        "alternatives", "steps", "annotations", "geometries", "overview", "continue_straight", "waypoints",
        "language", "voice_units", "voice_instructions", "banner_instructions", "depart_at", "roundabout_exits", "traffic",
    ]).union(VehicleQuery.names)
    static let annotationNames = ["duration", "distance", "speed", "congestion", "congestion_numeric", "maxspeed"]

    /// Parsed `/route` options.
    package struct Parameters {
        package var general: GeneralOptions
        package var alternatives = 0
        package var steps = false
        package var annotations: [String] = []
        package var geometry: GeometryFormat = .polyline
        package var overview = "simplified"
        /// Indices of the coordinates that are waypoints (the others are via points); nil means all.
        package var waypoints: [Int]?
        package var departure: DateComponents?
        /// Mapbox extensions: the language of instructions and street names (nil: English instructions, local
        /// names), the units of spoken distances, and which text to add.
        package var language: String?
        package var voiceUnits: DistanceUnits = .metric
        package var voiceInstructions = false
        package var bannerInstructions = false
        /// The truck's dimensions (`VehicleQuery`), nil without any.
        package var vehicle: VehicleDimensions?

        package init(_ options: QueryOptions, coordinateCount count: Int, maximumAlternatives: Int, profile: ProfileID = .car) throws {
            general = try GeneralOptions(options, coordinateCount: count)
            vehicle = try VehicleQuery.parse(options, profile: profile)
            if let raw = options["alternatives"] {
                switch raw {
                case "true": alternatives = 1
                case "false": alternatives = 0
                default:
                    guard let number = Int(raw) else { throw OSRMError(.invalidQuery, "alternatives='\(raw)' is not true, false or a number") }
                    guard number >= 0 else { throw OSRMError(.invalidValue, "alternatives=\(number) is negative") }
                    alternatives = number
                }
                if alternatives > maximumAlternatives {
                    throw OSRMError(.tooBig, "alternatives=\(alternatives) exceeds this server's limit of \(maximumAlternatives)")
                }
            }
            steps = try options.bool("steps", default: false)
            if let raw = options["annotations"] {
                if raw == "true" {
                    annotations = Self.annotationsForTrue
                } else if raw != "false" {
                    // Split on the comma's byte (no Character segmentation), as `OSRMURL` splits its path.
                    annotations = try raw.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { bytes in
                        let item = String(Substring(bytes))
                        guard annotationNames.contains(item) else {
                            throw OSRMError(.invalidQuery, "annotations: '\(item)' is not one of true, false, \(annotationNames.joined(separator: ", "))")
                        }
                        return item
                    }
                }
            }
            let geometries = try options.choice("geometries", GeometryFormat.allCases.map(\.rawValue), default: "polyline")
            geometry = GeometryFormat(rawValue: geometries) ?? .polyline
            overview = try options.choice("overview", ["simplified", "full", "false"], default: "simplified")
            if let raw = options["waypoints"] {
                let indices = try raw.split(separator: ";", omittingEmptySubsequences: false).map { item in
                    guard let index = Int(item) else { throw OSRMError(.invalidQuery, "waypoints: '\(item)' is not an index") }
                    return index
                }
                guard indices.first == 0, indices.last == count - 1,
                      zip(indices, indices.dropFirst()).allSatisfy({ $0 < $1 }) else {
                    throw OSRMError(.invalidOptions, "waypoints='\(raw)' must be increasing indices starting at 0 and ending at \(count - 1)")
                }
                waypoints = indices
            }
            // Mapbox extensions: the words come from the phrasebook narrator of the output layer.
            language = try GeneralOptions.language(options)
            voiceUnits = DistanceUnits(rawValue: try options.choice("voice_units", ["metric", "imperial"], default: "metric")) ?? .metric
            voiceInstructions = try options.bool("voice_instructions", default: false)
            bannerInstructions = try options.bool("banner_instructions", default: false)
            _ = try options.bool("roundabout_exits", default: false)
            if let raw = options["depart_at"] { departure = try Self.departure(raw) }
        }

        /// What `annotations=true` returns (OSRM's set, as far as navgraph has the data).
        static let annotationsForTrue = ["duration", "distance", "speed"]

        /// `2026-11-30T08:15` (seconds and a trailing Z allowed), read as UTC wall-clock time.
        package static func departure(_ text: String) throws -> DateComponents {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            let trimmed = text.hasSuffix("Z") ? String(text.dropLast()) : text
            for format in ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"] {
                formatter.dateFormat = format
                if let date = formatter.date(from: trimmed) {
                    var calendar = Calendar(identifier: .gregorian)
                    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
                    return calendar.dateComponents([.weekday, .hour, .minute], from: date)
                }
            }
            throw OSRMError(.invalidValue, "depart_at='\(text)' is not a time like 2026-11-30T08:15")
        }
    }

    /// Routes the request's coordinates with a router checked out of the service's pool.
    package static func route(_ url: OSRMURL, _ parameters: Parameters, router: Router, traffic: TrafficOverlay?) throws -> RouteResponse {
        try routeWithPaths(url, parameters, router: router, traffic: traffic).response
    }

    /// The route, and each route's leg paths between every pair of consecutive coordinates (before silent via points
    /// are merged), which a route refresh rebuilds under new traffic.
    package static func routeWithPaths(_ url: OSRMURL, _ parameters: Parameters, router: Router,
                               traffic: TrafficOverlay?) throws -> (response: RouteResponse, paths: [[Router.LegPath]]) {
        var options = RouteOptions()
        options.radius = OSRMService.defaultRadius
        options.radii = parameters.general.radii
        options.bearings = parameters.general.bearings
        options.approaches = parameters.general.approaches
        options.continueStraight = parameters.general.continueStraight
        options.avoid = parameters.general.exclude
        options.alternatives = parameters.alternatives
        options.traffic = traffic
        options.vehicle = parameters.vehicle
        options.nameLanguage = parameters.language
        do {
            var response = try router.route(url.coordinates, options: options)
            let paths = legPaths(response)
            if let keep = parameters.waypoints { response = mergingVias(response, keep: keep) }
            if parameters.steps { router.addSteps(to: &response) }
            return (response, paths)
        } catch let error as NavGraphError {
            throw OSRMError(error)
        }
    }

    /// Each route's legs as the paths they were built from (the snaps of their coordinates and their routing nodes).
    static func legPaths(_ response: RouteResponse) -> [[Router.LegPath]] {
        response.routes.map { route in
            route.legs.enumerated().compactMap { index, leg in
                guard let source = response.snaps[safe: index], let target = response.snaps[safe: index + 1] else { return nil }
                return Router.LegPath(cost: Int((leg.weight * 1000).rounded()), nodes: leg.routingNodes, source: source, target: target)
            }
        }
    }

    /// The two main road names of legs joined at via points: the names with the most metres over all parts (each
    /// part's summary names its two longest, so the parts' distances weight them).
    static func mergedSummary(_ parts: ArraySlice<RouteLeg>) -> String {
        var metres: [String: Double] = [:], order: [String] = []
        for part in parts {
            let names = part.summary.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            for (rank, name) in names.enumerated() {
                if metres[name] == nil { order.append(name) }
                metres[name, default: 0] += part.distance / Double(rank + 1)
            }
        }
        return order.enumerated().sorted { (metres[$0.element] ?? 0, -$0.offset) > (metres[$1.element] ?? 0, -$1.offset) }
            .prefix(2).map(\.element).joined(separator: ", ")
    }

    /// Joins the legs between consecutive kept waypoints; dropped coordinates become via points.
    package static func mergingVias(_ response: RouteResponse, keep: [Int]) -> RouteResponse {
        var merged = response
        merged.waypoints = keep.map { response.waypoints[$0] }
        merged.snaps = keep.compactMap { response.snaps[safe: $0] }
        merged.routes = response.routes.map { route in
            var copy = route
            copy.legs = zip(keep, keep.dropFirst()).map { from, to in
                let parts = route.legs[from..<to]
                guard var leg = parts.first else { return route.legs[from] }
                for (offset, next) in parts.dropFirst().enumerated() {
                    let via = from + 1 + offset
                    if let waypoint = response.waypoints[safe: via] {
                        leg.viaWaypoints.append(ViaWaypoint(coordinateIndex: via, waypoint: waypoint, distanceFromStart: leg.distance,
                                                            geometryIndex: leg.coordinates.count - 1))
                    }
                    // Driving on through the via point, the next part starts on the edge this one ends on: one edge,
                    // one routing node, so that guidance sees no junction there (a U-turn keeps both).
                    let continues = !next.directedEdges.isEmpty && leg.directedEdges.last == next.directedEdges.first
                        && leg.routingNodes.count == leg.directedEdges.count && next.routingNodes.count == next.directedEdges.count
                    let skip = continues ? 1 : 0
                    let segmentOffset = leg.annotations.count
                    if !leg.edgeFirstSegment.isEmpty && !next.edgeFirstSegment.isEmpty {
                        leg.edgeFirstSegment += next.edgeFirstSegment.dropFirst(skip).map { $0 + segmentOffset }
                    } else {
                        leg.edgeFirstSegment = []
                    }
                    leg.coordinates += next.coordinates.dropFirst()
                    leg.annotations += next.annotations
                    leg.distance += next.distance
                    leg.duration += next.duration
                    leg.durationTypical += next.durationTypical
                    leg.weight += next.weight
                    leg.turnDelay += next.turnDelay
                    leg.directedEdges += next.directedEdges.dropFirst(skip)
                    leg.routingNodes += next.routingNodes.dropFirst(skip)
                }
                leg.summary = mergedSummary(parts)
                return leg
            }
            return copy
        }
        return merged
    }

    /// The parts of the Directions body the parameters ask for: the overview geometry, the annotation arrays, the
    /// waypoints.
    package static func shape(_ parameters: Parameters) -> DirectionsShape {
        var shape = DirectionsShape()
        switch parameters.overview {
        case "false": shape.overview = .none
        case "simplified": shape.overview = .simplified
        default: shape.overview = .full
        }
        shape.annotations = DirectionsShape.Annotations(names: parameters.annotations)
        shape.writesWaypoints = !parameters.general.skipWaypoints
        return shape
    }

    /// The writer's options for the parameters: geometry format, and with steps the narrator and which text to add.
    package static func output(_ parameters: Parameters, uuid: String?) -> OutputOptions {
        var output = OutputOptions()
        output.geometry = parameters.geometry
        output.prettyPrinted = false
        output.units = parameters.voiceUnits
        output.responseID = uuid
        if parameters.steps {
            // Unknown tags fall back to English; a missing phrasebook leaves the text out rather than failing the route.
            output.narrator = try? PhrasebookNarrator(locale: parameters.language ?? "en", units: parameters.voiceUnits)
        }
        // Voice and banner instructions are made only when asked for (they are most of a steps body's work).
        output.voiceInstructions = parameters.voiceInstructions
        output.bannerInstructions = parameters.bannerInstructions
        return output
    }

    /// The OSRM body (`DirectionsResponse` with geometry, steps and annotations as requested, or as `shape` says),
    /// written straight to bytes; `uuid` nil makes a random one.
    package static func bytes(_ response: RouteResponse, _ parameters: Parameters, uuid: String?, shape: DirectionsShape? = nil) -> WrittenBytes {
        DirectionsResponse.bytes(response, output(parameters, uuid: uuid), shape ?? self.shape(parameters))
    }

    /// The same body as a tree, for the writers that read it back (NextBillion, route refresh, matching).
    package static func body(_ response: RouteResponse, _ parameters: Parameters, uuid: String? = nil, shape: DirectionsShape? = nil) -> JSON {
        DirectionsResponse.json(response, output(parameters, uuid: uuid), shape ?? self.shape(parameters))
    }
}

/// Editing helpers for JSON objects (members keep their order).
extension JSON {
    package func member(_ key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    package mutating func update(_ key: String, _ transform: (JSON) -> JSON) {
        guard case .object(var members) = self, let index = members.firstIndex(where: { $0.0 == key }) else { return }
        members[index].1 = transform(members[index].1)
        self = .object(members)
    }

    package mutating func remove(_ key: String) {
        guard case .object(let members) = self else { return }
        self = .object(members.filter { $0.0 != key })
    }

    /// Keeps only the listed members, in their original order.
    mutating func keepOnly(_ keys: [String]) {
        guard case .object(let members) = self else { return }
        self = .object(members.filter { keys.contains($0.0) })
    }
}

/// Douglas–Peucker line simplification for overview geometries.
package enum Simplification {
    package static func douglasPeucker(_ points: [Coordinate], toleranceMetres: Double) -> [Coordinate] {
        guard points.count > 2 else { return points }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        let scale = cos((points[0].lat) * Double.pi / 180) * 111_195, metresPerDegree = 111_195.0
        func xy(_ c: Coordinate) -> (Double, Double) { (c.lon * scale, c.lat * metresPerDegree) }
        var stack = [(0, points.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            let (ax, ay) = xy(points[first]), (bx, by) = xy(points[last])
            let dx = bx - ax, dy = by - ay, length2 = dx * dx + dy * dy
            var worst = -1.0, worstIndex = first
            for index in (first + 1)..<last {
                let (px, py) = xy(points[index])
                var t = length2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / length2 : 0
                t = min(1, max(0, t))
                let ex = ax + t * dx - px, ey = ay + t * dy - py
                let distance = ex * ex + ey * ey
                if distance > worst { worst = distance; worstIndex = index }
            }
            if worst > toleranceMetres * toleranceMetres {
                keep[worstIndex] = true
                stack.append((first, worstIndex))
                stack.append((worstIndex, last))
            }
        }
        return points.indices.filter { keep[$0] }.map { points[$0] }
    }
}
