/// The random `uuid` of a Directions response (and the key a route refresh finds it by): a version-4 UUID in
/// lowercase, the form `UUID().uuidString.lowercased()` gives. Foundation's `UUID()` on Linux opens, reads and closes
/// /dev/urandom per call (about 2 % of a plain route request's CPU); this takes the 16 bytes from the standard library's
/// system generator (`getrandom` on Linux, the same kernel source) and writes the 36 characters without an intermediate String.
package enum ResponseID {
    package static func make() -> String {
        var random = SystemRandomNumberGenerator()
        var bytes: (UInt64, UInt64) = (random.next(), random.next())
        return withUnsafeBytes(of: &bytes) { raw in
            let hex: StaticString = "0123456789abcdef"
            return String(unsafeUninitializedCapacity: 36) { out in
                var index = 0
                for offset in 0..<16 {
                    var byte = raw[offset]
                    if offset == 6 { byte = byte & 0x0F | 0x40 }  // version 4
                    if offset == 8 { byte = byte & 0x3F | 0x80 }  // RFC 4122 variant
                    if offset == 4 || offset == 6 || offset == 8 || offset == 10 { out[index] = UInt8(ascii: "-"); index += 1 }
                    out[index] = hex.utf8Start[Int(byte >> 4)]
                    out[index + 1] = hex.utf8Start[Int(byte & 0x0F)]
                    index += 2
                }
                return index
            }
        }
    }
}
