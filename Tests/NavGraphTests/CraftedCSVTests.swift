import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// Input files as users have them, through the one shared reader: LF/CRLF, BOM, header rows, blank lines,
/// `#` comments, whitespace and quotes; real errors name file, line and value. Points, pairs and traffic.
@Suite struct CraftedCSVTests {
    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = Fixtures.workDirectory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func write(_ text: String, _ name: String, bom: Bool = false, crlf: Bool = false) throws -> String {
        let body = crlf ? text.replacingOccurrences(of: "\n", with: "\r\n") : text
        return try write((bom ? [0xEF, 0xBB, 0xBF] : []) + Array(body.utf8), name)
    }

    static let variants: [(bom: Bool, crlf: Bool)] = [(false, false), (false, true), (true, false), (true, true)]

    /// Two parallel roads, drawn in TrafficTests: way 2 is the primary 2→3.
    func parallelRoads(named name: String) throws -> RoutingGraph { try TrafficTests.parallelRoads(named: name) }

    @Test func readerSkipsBOMBlankLinesCommentsAndTrims() throws {
        for (index, variant) in Self.variants.enumerated() {
            let path = try write("# comment\n\n  a , \"b\" ,c  \n\t\n1,2,3\n#x,y\n4,5", "reader-\(index).csv", bom: variant.bom, crlf: variant.crlf)
            var seen: [(Int, [String], Bool)] = []
            try DelimitedLineReader.forEachRecord(in: try DelimitedLineReader.contents(path: path, what: "test file"), path: path,
                                                  isHeader: { $0.text(0) == "a" }) { record in
                seen.append((record.lineNumber, (0..<record.count).map(record.text), record.isHeader))
            }
            #expect(seen.map(\.0) == [3, 5, 7], "variant \(variant)")
            #expect(seen.map(\.1) == [["a", "b", "c"], ["1", "2", "3"], ["4", "5"]], "variant \(variant)")
            #expect(seen.map(\.2) == [true, false, false])
        }
    }

    @Test func readerErrorsNameFileLineAndValueButNotAWholeFile() throws {
        let longLine = String(repeating: "9", count: 500)
        let path = try write("1,2\r\n\(longLine),x\r\n", "reader-bad.csv")
        let error = #expect(throws: NavGraphError.self) {
            try DelimitedLineReader.forEachRecord(in: try DelimitedLineReader.contents(path: path, what: "test"), path: path, isHeader: { _ in false }) {
                if $0.integer(1) == nil { throw $0.error("'\($0.text(1))' is not an integer") }
            }
        }
        #expect(error?.message.hasPrefix("\(path):2: 'x' is not an integer") == true, "\(error?.message ?? "")")
        #expect((error?.message.count ?? 1000) < path.count + 200, "the message must not echo a whole long line")
        let missing = #expect(throws: NavGraphError.self) { try DelimitedLineReader.contents(path: "/nonexistent/p.csv", what: "pairs file") }
        #expect(missing?.message == "/nonexistent/p.csv: cannot read pairs file (no such file)")
    }

    @Test func pointsFiles() throws {
        let expected = [Coordinate(lat: 43.7384, lon: 7.4246), Coordinate(lat: -33.9, lon: 151.2)]
        for (index, variant) in Self.variants.enumerated() {
            for (header, body) in [("", "7.4246,43.7384\n151.2,-33.9\n"), ("lon,lat\n", "7.4246, 43.7384\n\n# sydney\n151.2 ,-33.9\n"),
                                   ("lat,lon\n", "43.7384,7.4246\n-33.9,151.2\n"), ("longitude,latitude\n", "\"7.4246\",\"43.7384\"\n151.2,-33.9\n")] {
                let path = try write(header + body, "points-\(index)-\(header.count).csv", bom: variant.bom, crlf: variant.crlf)
                #expect(try CoordinateCSV.readCoordinates(path: path) == expected, "\(header) \(variant)")
            }
        }
        for (text, mention) in [("7.4,43.7\n7.4,north\n", ":2: 'north' (column 2) is not a number"),
                                ("7.4,43.7\n7.4\n", ":2: expected 2 columns (lon,lat), got 1"),
                                ("lon,lat\nlon,lat\n", ":2: 'lon' (column 1) is not a number"),
                                ("lon,height\n1,2\n", ":1: header column 2 'height'"),
                                ("lon,lat\n7.4,nan\n", ":2: 'nan' (column 2) is not a number"),
                                ("name,lat\n", ":1: 'name' (column 1) is not a number")] {
            let path = try write(text, "points-bad.csv", crlf: true)
            let error = #expect(throws: NavGraphError.self) { try CoordinateCSV.readCoordinates(path: path) }
            #expect(error?.message.contains(path + mention) == true, "\(error?.message ?? "no error") lacks \(mention)")
        }
        #expect(try CoordinateCSV.readCoordinates(path: try write("", "points-empty.csv", bom: true)).isEmpty)
    }

    @Test func pairsFiles() throws {
        for (index, variant) in Self.variants.enumerated() {
            for header in ["", "src_lon,src_lat,dst_lon,dst_lat\n", "lon1, lat1, lon2, lat2\n"] {
                let path = try write(header + "# first\n7.001,45.0,7.014,45.0\n\n 7.014 , 45.0 , 7.001 , 45.0 \n", "pairs-\(index)-\(header.count).csv",
                                     bom: variant.bom, crlf: variant.crlf)
                let pairs = try CoordinateCSV.readPairs(path: path)
                #expect(pairs.count == 2)
                #expect(pairs.first?.source == Coordinate(lat: 45.0, lon: 7.001) && pairs.first?.target == Coordinate(lat: 45.0, lon: 7.014))
                #expect(pairs.map(\.lineNumber) == [header.isEmpty ? 2 : 3, header.isEmpty ? 4 : 5])
            }
        }
        let latFirst = try CoordinateCSV.readPairs(path: try write("src_lat,src_lon,dst_lat,dst_lon\n45.0,7.001,45.0,7.014\n", "pairs-latfirst.csv"))
        #expect(latFirst.first?.source == Coordinate(lat: 45.0, lon: 7.001))
        for (text, mention) in [("7,45,7,45\r\n7,45,7\r\n", ":2: expected 4 columns (lon,lat,lon,lat), got 3"),
                                ("7,45,7,45\n7,45,x,45\n", ":2: 'x' (column 3) is not a number"),
                                ("src_lon,src_lat,dst_lat,dst_lon\n", ":1: header mixes lon,lat and lat,lon order at column 3")] {
            let path = try write(text, "pairs-bad.csv")
            let error = #expect(throws: NavGraphError.self) { try CoordinateCSV.readPairs(path: path) }
            #expect(error?.message.contains(path + mention) == true, "\(error?.message ?? "no error") lacks \(mention)")
        }
    }

    @Test func trafficFiles() throws {
        let graph = try parallelRoads(named: "csv-traffic")
        for (index, variant) in Self.variants.enumerated() {
            for text in ["from_osm_id,to_osm_id,congestion\n# jam\n\n 2 , 3 , severe \n", "\"from_osm_id\",\"to_osm_id\",\"congestion\"\n\"2\",\"3\",\"90\"\n"] {
                let path = try write(text, "traffic-\(index).csv", bom: variant.bom, crlf: variant.crlf)
                let table = try TrafficCSVReader.read(path: path, graph: graph)
                #expect(table.rowsRead == 1 && table.segmentKey.count == 1 && table.congestion.first == 90, "\(variant)")
            }
            let speed = try TrafficCSVReader.read(path: try write("2,3,0\n\n3,2,40\n", "traffic-speed-\(index).csv", bom: variant.bom, crlf: variant.crlf), graph: graph)
            #expect(speed.rowsRead == 2 && speed.segmentKey.count == 2)
        }
        for (text, mention) in [("from_osm_id,to_osm_id,congestion\r\n2,3,severe\r\n2,3,jammed\r\n", ":3: congestion must be 0–100 or low/moderate/heavy/severe, got 'jammed'"),
                                ("osm_from,osm_to,speed\n", ":1: header must start with from_osm_id,to_osm_id"),
                                ("2,3,40\r\n2,x,40\r\n", ":2: node ids must be integers, got 'x'")] {
            let path = try write(text, "traffic-bad.csv", bom: true)
            let error = #expect(throws: NavGraphError.self) { try TrafficCSVReader.read(path: path, graph: graph) }
            #expect(error?.message.contains(path + mention) == true, "\(error?.message ?? "no error") lacks \(mention)")
        }
    }

    /// `navgraph route --pairs` with a file as Python's csv module writes it (CRLF, header), and a bad line.
    @Test func routePairsThroughTheCLI() throws {
        _ = try parallelRoads(named: "csv-cli")
        let graph = Fixtures.workDirectory.appendingPathComponent("csv-cli.navgraph").path
        let pairs = try write("src_lon,src_lat,dst_lon,dst_lat\n7.001,45.0,7.014,45.0\n7.014,45.0,7.001,45.0\n", "cli-pairs.csv", bom: true, crlf: true)
        let result = try Fixtures.run(["route", graph, "--pairs", pairs, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3 && lines[1].hasPrefix("0,") && lines[2].hasPrefix("1,"), "\(result.stdout)")
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            #expect(fields.count == 5 && Double(fields[1]) ?? 0 > 500 && fields[4].isEmpty, "routed row: \(line)")
        }
        #expect(result.stderr.isEmpty)
        let bad = try write("7.001,45.0,7.014,45.0\r\n7.001,45.0,7.014\r\n", "cli-pairs-bad.csv")
        let refused = try Fixtures.run(["route", graph, "--pairs", bad])
        #expect(refused.status == 2 && refused.stderr.contains("\(bad):2: expected 4 columns"), "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
    }
}
