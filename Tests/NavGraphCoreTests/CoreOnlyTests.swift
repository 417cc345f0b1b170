import CCRC32
import Foundation
import NavGraphCore
import Testing

/// Tests of NavGraphCore that need nothing but the core: `Tools/core_only_check.sh` runs them in a package holding
/// only the core's targets, with the import and server libraries' headers and shared objects hidden, so they also
/// prove that the core builds and routes without libosmium, METIS, ISA-L and libmicrohttpd.
@Suite struct CoreOnlyTests {
    /// A graph file made beforehand by `navgraph import` (the check script sets it).
    static let graphPath = ProcessInfo.processInfo.environment["NAVGRAPH_CORE_TEST_GRAPH"]

    /// CRC-32 bit by bit, straight from the definition (reflected polynomial 0xEDB88320, inverted in and out).
    static func referenceCRC(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }

    static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    @Test func crcMatchesTheDefinitionOnBothPaths() {
        #expect(navgraph_crc32_portable(0, "123456789", 9) == 0xCBF4_3926)  // the CRC-32 check value
        // With ISA-L hidden (the check script says so), the portable path must be the one in use.
        if ProcessInfo.processInfo.environment["NAVGRAPH_CORE_ISAL_HIDDEN"] == "1" { #expect(navgraph_crc32_accelerated() == 0) }
        for (index, count) in [0, 1, 7, 8, 9, 63, 64, 65, 1000, 4096, 100_003].enumerated() {
            let bytes = Self.randomBytes(count, seed: UInt64(index + 1))
            let expected = Self.referenceCRC(bytes)
            #expect(navgraph_crc32_portable(0, bytes, bytes.count) == expected, "\(count) bytes, portable")
            #expect(navgraph_crc32(0, bytes, bytes.count) == expected, "\(count) bytes, accelerated=\(navgraph_crc32_accelerated())")
            // Continuing from a first part, and combining two parts' CRCs, give the whole's.
            let cut = count / 3
            let first = navgraph_crc32(0, bytes, cut)
            let rest = Array(bytes[cut...])
            #expect(navgraph_crc32(first, rest, rest.count) == expected)
            #expect(navgraph_crc32_combine(first, navgraph_crc32(0, rest, rest.count), rest.count) == expected)
        }
    }

    @Test(.enabled(if: graphPath != nil, "NAVGRAPH_CORE_TEST_GRAPH names no graph file (Tools/core_only_check.sh sets it)"))
    func routesOnAGraphFileWithTheCoreAlone() throws {
        // Opening verifies every section's CRC-32, written at import (with ISA-L there) and checked here by
        // whichever path this process has: the same values or the file is refused.
        let service = try OSRMService(graphPath: try #require(Self.graphPath))
        let monaco = [Coordinate(lat: 43.7384, lon: 7.4246), Coordinate(lat: 43.7311, lon: 7.4197), Coordinate(lat: 43.7450, lon: 7.4300)]
        var routed = 0
        for (a, b) in [(0, 1), (1, 2), (2, 0)] {
            let document = try service.directions(DirectionsQuery(coordinates: [monaco[a], monaco[b]],
                                                                   options: ["steps": "true", "alternatives": "true", "language": "fr"]))
            let object = try #require(try JSONSerialization.jsonObject(with: document.json) as? [String: Any])
            #expect(object["code"] as? String == "Ok")
            let routes = try #require(object["routes"] as? [[String: Any]])
            #expect(routes.count == document.routes.count)
            #expect(document.routes[0].duration > 30 && document.routes[0].distance > 300)
            routed += 1
        }
        #expect(routed == 3)
    }
}
