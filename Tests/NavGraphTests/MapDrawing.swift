import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// A road map drawn in ASCII, in the manner of Valhalla's gurka tests: the drawing is the test's data.
///
/// Every letter or digit of the drawing is an OSM node; every other character (`-`, `|`, `/`, spaces) is only
/// there for the reader. Characters lie on a grid of `gridMetres` (10 m by default): one column east is
/// `gridMetres` east, one line down is `gridMetres` south (so a drawing looks stretched north-south in a monospaced
/// font), or `lineMetres` south when given (a map whose nodes lie on a coarser grid north-south than east-west). The top-left character sits at `origin`, or the letter `anchor` when given
/// (so a map can keep the coordinates of one built from metre offsets around a point). Ways are strings of node letters
/// in order, each with its OSM tags; the nodes of a way need not be joined by drawn lines, but should be.
///
///     let map = try MapDrawing("""
///           N
///           |
///       A---B---C
///           |
///           S
///       """, ways: [("ABC", ["highway": "residential"]), ("NBS", ["highway": "primary", "oneway": "yes"])])
///         .importGraph(named: "plus")
///     let route = try Router(graph: map.graph).route([map["A"], map["S"]])
///
/// Place the map where its test needs it: `origin` decides the driving side (`DrivingSide`) and the country rules.
/// Restrictions and other relations go into `osm.relations`, with `MapDrawing.nodeID(_:)` and the way ids (1, 2, ...
/// in the order of `ways`).
struct MapDrawing {
    /// The OSM data: one node per letter, one way per entry of `ways`.
    var osm = CraftedOSM()
    /// Each letter's coordinate.
    let coordinates: [Character: Coordinate]
    /// Metres east per column.
    let gridMetres: Double
    /// Metres south per line (`gridMetres` unless the drawing says otherwise).
    let lineMetres: Double

    /// Metres per degree of latitude (the mean Earth radius's, as `Geo.haversine` uses).
    static let metresPerDegree = 111_195.0

    /// Reads the drawing; `ways` are node-letter strings with their tags (way ids 1, 2, ... in this order);
    /// `nodeTags` tag drawn nodes (a barrier, a signal); `anchor`, when given, is the letter placed at `origin`;
    /// `lineMetres`, when given, is the metres per line (else `gridMetres`, a square grid).
    init(_ drawing: String, gridMetres: Double = 10, lineMetres: Double? = nil,
         origin: Coordinate = Coordinate(lat: 45.0, lon: 7.0), anchor: Character? = nil,
         ways: [(nodes: String, tags: [String: String])], nodeTags: [Character: [String: String]] = [:]) throws {
        self.gridMetres = gridMetres
        let lineMetres = lineMetres ?? gridMetres
        self.lineMetres = lineMetres
        var cells: [Character: (row: Int, column: Int)] = [:]
        for (row, line) in drawing.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for (column, character) in line.enumerated() where character.isLetter || character.isNumber {
                guard character.isASCII else { throw NavGraphError("map drawing: '\(character)' is not an ASCII letter or digit") }
                guard cells[character] == nil else { throw NavGraphError("map drawing: node '\(character)' is drawn twice") }
                cells[character] = (row, column)
            }
        }
        var anchorCell = (row: 0, column: 0)
        if let anchor {
            guard let cell = cells[anchor] else { throw NavGraphError("map drawing: anchor '\(anchor)' is not drawn") }
            anchorCell = cell
        }
        let longitudeMetres = Self.metresPerDegree * cos(origin.lat * Double.pi / 180)
        let coordinates = cells.mapValues { cell in
            Coordinate(lat: origin.lat - Double(cell.row - anchorCell.row) * lineMetres / Self.metresPerDegree,
                       lon: origin.lon + Double(cell.column - anchorCell.column) * gridMetres / longitudeMetres)
        }
        self.coordinates = coordinates
        osm.nodes = coordinates.keys.sorted().map { letter in
            let point = coordinates[letter] ?? origin
            return (Self.nodeID(letter), point.lat, point.lon)
        }
        for (index, way) in ways.enumerated() {
            guard way.nodes.count >= 2 else { throw NavGraphError("map drawing: way '\(way.nodes)' needs at least two nodes") }
            for letter in way.nodes where coordinates[letter] == nil {
                throw NavGraphError("map drawing: way '\(way.nodes)' names node '\(letter)', which is not drawn")
            }
            osm.ways.append((Int64(index + 1), way.nodes.map(Self.nodeID), way.tags))
        }
        for (letter, tags) in nodeTags {
            guard coordinates[letter] != nil else { throw NavGraphError("map drawing: node tags name node '\(letter)', which is not drawn") }
            osm.nodeTags[Self.nodeID(letter)] = tags
        }
    }

    /// The OSM id of a letter's node (its ASCII code).
    static func nodeID(_ letter: Character) -> Int64 { Int64(letter.asciiValue ?? 0) }

    /// Writes the OSM XML, imports it and returns the graph with the letters' coordinates.
    func importGraph(named name: String) throws -> DrawnMap {
        DrawnMap(graph: try osm.importGraph(named: name), coordinates: coordinates,
                 path: Fixtures.workDirectory.appendingPathComponent("\(name).navgraph").path)
    }
}

/// An imported map drawing: the graph and where each letter lies.
struct DrawnMap {
    let graph: RoutingGraph
    let coordinates: [Character: Coordinate]
    /// The graph file (every profile's network).
    let path: String

    /// The same map loaded for another profile (`graph` is the car's).
    func graph(profile: ProfileID) throws -> RoutingGraph { try RoutingGraph(path: path, profile: profile) }

    /// A letter's coordinate (a test names only drawn letters; an undrawn one is a test bug and gives 0,0).
    subscript(letter: Character) -> Coordinate { coordinates[letter] ?? Coordinate(lat: 0, lon: 0) }

    /// A point `east` and `north` metres from a letter (negative for west and south), e.g. a kerb beside a road.
    func point(_ letter: Character, east: Double = 0, north: Double = 0) -> Coordinate {
        let base = self[letter]
        return Coordinate(lat: base.lat + north / MapDrawing.metresPerDegree,
                          lon: base.lon + east / (MapDrawing.metresPerDegree * cos(base.lat * Double.pi / 180)))
    }
}

extension MapDrawing {
    /// The same map with OSM ids of its own, for maps whose tests name their ids: `nodes` gives letters their ids (an
    /// unlisted letter keeps its ASCII code), `ways` lists the way ids in the order of `ways`.
    func numbered(nodes: [Character: Int64] = [:], ways: [Int64]) throws -> MapDrawing {
        guard ways.count == osm.ways.count else { throw NavGraphError("map drawing: \(ways.count) way ids for \(osm.ways.count) ways") }
        for letter in nodes.keys where coordinates[letter] == nil {
            throw NavGraphError("map drawing: node ids name node '\(letter)', which is not drawn")
        }
        let renamed = Dictionary(uniqueKeysWithValues: nodes.map { (Self.nodeID($0.key), $0.value) })
        let id = { (old: Int64) in renamed[old] ?? old }
        var copy = self
        copy.osm.nodes = osm.nodes.map { (id($0.id), $0.lat, $0.lon) }.sorted { $0.id < $1.id }
        guard Set(copy.osm.nodes.map(\.id)).count == copy.osm.nodes.count, Set(ways).count == ways.count else {
            throw NavGraphError("map drawing: two nodes or two ways share an id")
        }
        copy.osm.ways = zip(ways, osm.ways).map { ($0, $1.refs.map(id), $1.tags) }
        copy.osm.nodeTags = Dictionary(uniqueKeysWithValues: osm.nodeTags.map { (id($0.key), $0.value) })
        return copy
    }
}
