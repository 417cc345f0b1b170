import Testing
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer

/// OSMTags, the in-place tag view the profiles read: the same answers a dictionary of the tags gives.
@Suite("Crafted OSM tags")
struct CraftedOSMTagsTests {
    /// Keys whose hashes look at the same bytes (same length, same first and last eight bytes) stay apart.
    @Test func keysThatShareTheirEndsAreStillDifferent() {
        let tags: OSMTags = ["maxspeed:aaaa:forward": "30", "maxspeed:bbbb:forward": "50", "name": "Via Roma"]
        #expect(tags["maxspeed:aaaa:forward"] == "30")
        #expect(tags["maxspeed:bbbb:forward"] == "50")
        #expect(tags["maxspeed:cccc:forward"] == nil)
        #expect(tags["name"] == "Via Roma")
        #expect(tags["nam"] == nil)
        #expect(tags["names"] == nil)
    }

    @Test func emptyKeysValuesAndTagSetsAnswerLikeADictionary() {
        let empty: OSMTags = [:]
        #expect(empty["highway"] == nil)
        #expect(empty.count == 0)
        let tags: OSMTags = ["": "blank key", "note": ""]
        #expect(tags[""] == "blank key")
        #expect(tags["note"] == "")
        #expect(tags.contains("note"))
        #expect(!tags.contains("highway"))
    }

    /// A repeated key keeps its last value, as the dictionary filled in file order did.
    @Test func aRepeatedKeyKeepsItsLastValue() {
        let tags = OSMTags([("highway", "track"), ("name", "A"), ("highway", "residential")])
        #expect(tags["highway"] == "residential")
        #expect(tags.keys == ["highway", "name", "highway"])
    }

    @Test func removingDropsOnlyTheNamedKeys() {
        let tags: OSMTags = ["highway": "residential", "access": "no", "motor_vehicle": "yes", "name": "Strada"]
        let stripped = tags.removing(["motorcar", "motor_vehicle", "vehicle", "access"])
        #expect(stripped.count == 2)
        #expect(stripped["access"] == nil && stripped["motor_vehicle"] == nil)
        #expect(stripped["highway"] == "residential" && stripped["name"] == "Strada")
        #expect(tags["access"] == "no", "the original is unchanged")
    }

    @Test func iterationGivesEveryPairInOrder() {
        let pairs = [("highway", "primary"), ("name:en", "Main Street"), ("ref", "SS 36"), ("maxspeed", "50 mph")]
        let tags = OSMTags(pairs)
        #expect(tags.map { "\($0.key)=\($0.value)" } == pairs.map { "\($0.0)=\($0.1)" })
        #expect(OSMTags(Dictionary(uniqueKeysWithValues: pairs))["name:en"] == "Main Street")
    }

    /// UTF-8 keys and values of every length round-trip.
    @Test func unicodeAndLongStringsRoundTrip() {
        let long = String(repeating: "Straße ", count: 40)
        let tags: OSMTags = ["name:ja": "東京", "name": long, "k": "v"]
        #expect(tags["name:ja"] == "東京")
        #expect(tags["name"] == long)
        #expect(tags["k"] == "v")
    }

    /// The judgement the importer shares between car-derived profiles: CarProfile on the tags without the car's
    /// access keys (the same as on a tag list built without them), and the car's own where there were none.
    @Test func sharedCarJudgementIsTheCarsOnTheStrippedTags() {
        let ways: [[(String, String)]] = [[("highway", "residential")], [("highway", "residential"), ("access", "no"), ("hgv", "yes")],
                                          [("highway", "service"), ("motor_vehicle", "private"), ("motorcycle", "yes")],
                                          [("highway", "primary"), ("maxspeed", "70"), ("toll", "yes"), ("toll:hgv", "no")],
                                          [("route", "ferry"), ("motorcar", "no"), ("duration", "01:10")]]
        let carKeys: Set = ["motorcar", "motor_vehicle", "vehicle", "access"]
        for pairs in ways {
            let tags = OSMTags(pairs)
            let rebuilt = OSMTags(pairs.filter { !carKeys.contains($0.0) })
            let hasCarKey = pairs.contains { carKeys.contains($0.0) }
            #expect(CarDerivedKeys.anyPresent(in: tags) == hasCarKey, "\(pairs)")
            #expect(strippedCarAttributes(tags: tags, hasCarAccessKey: true) == CarProfile.attributes(tags: rebuilt), "\(pairs)")
            if !hasCarKey {
                // What the importer relies on to reuse the car's own judgement: removing no key changes nothing.
                #expect(strippedCarAttributes(tags: tags, hasCarAccessKey: true) == CarProfile.attributes(tags: tags), "\(pairs)")
            }
        }
        #expect(strippedCarAttributes(tags: ["highway": "residential", "access": "no"], hasCarAccessKey: true) != nil)
        #expect(CarProfile.attributes(tags: ["highway": "residential", "access": "no"]) == nil)
    }
}
