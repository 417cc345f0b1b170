import Foundation
import NavGraphCore
import Testing

/// The Directions `uuid`: Foundation's version-4 form in lowercase, different every time.
@Suite struct ResponseIDTests {
    @Test func idsAreLowercaseVersionFourUUIDsAndDistinct() {
        var seen = Set<String>()
        for _ in 0..<2_000 {
            let id = ResponseID.make()
            #expect(id.utf8.count == 36, "\(id)")
            #expect(UUID(uuidString: id) != nil, "\(id) does not parse as a UUID")
            #expect(id == id.lowercased(), "\(id) is not lowercase")
            let characters = Array(id)
            #expect(characters[8] == "-" && characters[13] == "-" && characters[18] == "-" && characters[23] == "-", "\(id)")
            #expect(characters[14] == "4", "\(id): version nibble")
            #expect("89ab".contains(characters[19]), "\(id): variant bits")
            seen.insert(id)
        }
        #expect(seen.count == 2_000)
    }
}
