import Foundation

/// Parameters of the uniform lat/lon grid that indexes road segments for snapping.
public struct GridParameters: Codable, Sendable {
    public var minLat: Double
    public var minLon: Double
    public var cellLat: Double
    public var cellLon: Double
    public var rows: Int
    public var columns: Int

    @inline(__always) public func row(_ lat: Double) -> Int { Int(((lat - minLat) / cellLat).rounded(.down)) }
    @inline(__always) public func column(_ lon: Double) -> Int { Int(((lon - minLon) / cellLon).rounded(.down)) }
}

/// Builds the snapping grid: for every cell, the shape segments (by index of their first shape point) crossing it.
package enum SpatialGridBuilder {
    static let targetCellMetres = 250.0
    static let maximumCells = 8_000_000

    package static func build(network: RoadNetwork, isRoutable: (Int) -> Bool, bbox: BoundingBox)
        -> (GridParameters, ContiguousArray<UInt32>, ContiguousArray<UInt32>) {
        let middleLat = (bbox.minLat + bbox.maxLat) / 2
        var cellLat = targetCellMetres / 111_195
        var cellLon = cellLat / max(0.05, cos(middleLat * Double.pi / 180))
        var rows = Int(((bbox.maxLat - bbox.minLat) / cellLat).rounded(.down)) + 1
        var columns = Int(((bbox.maxLon - bbox.minLon) / cellLon).rounded(.down)) + 1
        while rows * columns > maximumCells {
            cellLat *= 2; cellLon *= 2
            rows = Int(((bbox.maxLat - bbox.minLat) / cellLat).rounded(.down)) + 1
            columns = Int(((bbox.maxLon - bbox.minLon) / cellLon).rounded(.down)) + 1
        }
        let grid = GridParameters(minLat: bbox.minLat, minLon: bbox.minLon, cellLat: cellLat, cellLon: cellLon, rows: rows, columns: columns)

        var pairs: [(cell: UInt32, segment: UInt32)] = []
        pairs.reserveCapacity(network.shapeLatE7.count)
        for edge in 0..<network.edgeCount where isRoutable(edge) {
            let first = Int(network.edgeShapeFirst[edge]), end = Int(network.edgeShapeFirst[edge + 1])
            for point in first..<(end - 1) {
                let a = Coordinate(latE7: network.shapeLatE7[point], lonE7: network.shapeLonE7[point])
                let b = Coordinate(latE7: network.shapeLatE7[point + 1], lonE7: network.shapeLonE7[point + 1])
                let rowRange = max(0, grid.row(min(a.lat, b.lat)))...min(rows - 1, grid.row(max(a.lat, b.lat)))
                let columnRange = max(0, grid.column(min(a.lon, b.lon)))...min(columns - 1, grid.column(max(a.lon, b.lon)))
                for row in rowRange {
                    for column in columnRange { pairs.append((UInt32(row * columns + column), UInt32(point))) }
                }
            }
        }
        pairs.sort { $0.cell != $1.cell ? $0.cell < $1.cell : $0.segment < $1.segment }
        var cellFirst = ContiguousArray<UInt32>(repeating: 0, count: rows * columns + 1)
        for pair in pairs { cellFirst[Int(pair.cell) + 1] += 1 }
        for cell in 0..<(rows * columns) { cellFirst[cell + 1] += cellFirst[cell] }
        return (grid, cellFirst, ContiguousArray(pairs.map(\.segment)))
    }
}

/// A latitude/longitude box.
public struct BoundingBox: Codable, Sendable {
    public var minLat: Double, minLon: Double, maxLat: Double, maxLon: Double

    public func contains(_ point: Coordinate) -> Bool {
        point.lat >= minLat && point.lat <= maxLat && point.lon >= minLon && point.lon <= maxLon
    }

    /// The memberwise initializer, for the other modules of the package.
    package init(minLat: Double, minLon: Double, maxLat: Double, maxLon: Double) {
        self.minLat = minLat
        self.minLon = minLon
        self.maxLat = maxLat
        self.maxLon = maxLon
    }
}
