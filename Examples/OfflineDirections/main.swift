// On-device routing with NavGraphCore alone: no server, no import toolchain. An app does the same with the graph
// file in its bundle (or downloaded) and the request options it would send to `/directions/v5` or `/route/v1`.
//
//   swift run -c release offline-directions out/monaco.navgraph 43.7384,7.4246 43.7311,7.4197
import Foundation
import NavGraphCore

func coordinate(_ text: String) -> Coordinate? {
    let parts = text.split(separator: ",").compactMap { Double($0) }
    return parts.count == 2 ? Coordinate(lat: parts[0], lon: parts[1]) : nil
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 3, let graphPath = arguments.first else {
    FileHandle.standardError.write(Data("usage: offline-directions GRAPH LAT,LON LAT,LON [LAT,LON ...]\n".utf8))
    exit(2)
}
var points: [Coordinate] = []
for text in arguments.dropFirst() {
    guard let point = coordinate(text) else {
        FileHandle.standardError.write(Data("offline-directions: '\(text)' is not LAT,LON\n".utf8))
        exit(2)
    }
    points.append(point)
}
do {
    // One service per graph file for the app's life; it serves any thread.
    let service = try OSRMService(graphPath: graphPath)
    let query = DirectionsQuery(profile: "driving", coordinates: points,
                                options: ["steps": "true", "alternatives": "true", "overview": "full", "geometries": "polyline6",
                                          "exclude": "toll", "language": "de", "voice_instructions": "true", "banner_instructions": "true"])
    let document = try service.directions(query)
    for (index, route) in document.routes.enumerated() {
        print(String(format: "route %d: %.0f s, %.0f m", index, route.duration, route.distance))
    }
    print("Directions JSON: \(document.json.count) bytes")
} catch let error as OSRMError {
    FileHandle.standardError.write(Data("offline-directions: \(error.code.rawValue): \(error.message)\n".utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("offline-directions: \(error)\n".utf8))
    exit(1)
}
