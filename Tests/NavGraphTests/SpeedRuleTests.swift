import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// The car profile's speed rules (docs/PROFILES.md, "Time model"), pinned to OSRM car.lua's values.
@Suite("Speed rules")
struct SpeedRuleTests {
    func speeds(_ tags: OSMTags) -> (Double, Double)? {
        CarProfile.attributes(tags: tags).map { ($0.speedKmhForward, $0.speedKmhBackward) }
    }

    @Test func maxspeedKeysInOSRMOrder() {
        #expect(speeds(["highway": "residential"])?.0 == 25)
        // A zone value in source:maxspeed counts when maxspeed is missing: 50 * 0.8.
        #expect(speeds(["highway": "residential", "source:maxspeed": "IT:urban"])?.0 == 40)
        #expect(speeds(["highway": "residential", "maxspeed:type": "RU:urban"])?.0 == 48)
        // The advisory speed comes first.
        #expect(speeds(["highway": "secondary", "maxspeed": "50", "maxspeed:advisory": "30"])?.0 == 24)
        let split = speeds(["highway": "primary", "maxspeed": "50", "maxspeed:forward": "70"])
        #expect(split?.0 == 56 && split?.1 == 40)
        #expect(speeds(["highway": "primary", "maxspeed": "de:rural"])?.0 == 80)
        #expect(speeds(["highway": "motorway", "maxspeed": "none"])?.0 == 112)
        #expect(speeds(["highway": "trunk", "maxspeed": "XX:trunk"])?.0 == 88)
    }

    @Test func surfaceTrackAndSmoothnessCapTheSpeed() {
        #expect(speeds(["highway": "primary", "surface": "cobblestone"])?.0 == 30)
        #expect(speeds(["highway": "primary", "surface": "asphalt"])?.0 == 65)
        #expect(speeds(["highway": "secondary", "maxspeed": "70", "smoothness": "bad"])?.0 == 40)
        #expect(speeds(["highway": "tertiary", "tracktype": "grade4"])?.0 == 25)
        #expect(speeds(["highway": "residential", "smoothness": "impassable"]) == nil)
    }

    @Test func narrowWaysAreClosedToCars() {
        #expect(speeds(["highway": "service", "width": "1.8"]) == nil)
        #expect(speeds(["highway": "service", "maxwidth": "1.9 m"]) == nil)
        #expect(speeds(["highway": "service", "width": "3"]) != nil)
    }
}
