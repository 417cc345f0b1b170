/// Writes numbers in decimal straight into a byte buffer (two digits per table lookup), for outputs of millions of
/// cells. Each call returns the bytes written; callers reserve `maxFixedBytes` (or `maxIntegerBytes`) per number.
package enum DecimalWriter {
    /// The most bytes `integer` writes.
    static let maxIntegerBytes = 20
    /// The most bytes `fixed` writes (sign, 19 digits, point, decimals up to 3; or "null").
    package static let maxFixedBytes = 24

    /// "00", "01", … "99" run together: a literal, so reading it needs no lazy global's once-check per number.
    private static var pairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    /// A non-negative integer.
    @inline(__always)
    package static func integer(_ value: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = 1, limit: UInt64 = 10
        while digits < 20 && value >= limit { digits += 1; limit &*= 10 }
        var rest = value, end = digits
        let pairs = Self.pairs.utf8Start
        while rest >= 100 {
            let pair = Int(rest % 100) * 2
            rest /= 100
            out[end - 1] = pairs[pair + 1]; out[end - 2] = pairs[pair]
            end -= 2
        }
        if rest >= 10 {
            out[end - 1] = pairs[Int(rest) * 2 + 1]; out[end - 2] = pairs[Int(rest) * 2]
        } else {
            out[end - 1] = UInt8(ascii: "0") + UInt8(rest)
        }
        return digits
    }

    /// Thousandths (milliseconds as seconds) with up to 3 decimals, trailing zeros dropped ("12.5", "7").
    @inline(__always)
    package static func thousandths(_ value: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var count = integer(value / 1000, to: out)
        let fraction = Int(value % 1000)
        if fraction == 0 { return count }
        out[count] = UInt8(ascii: "."); count += 1
        let hundreds = fraction / 100, tens = fraction / 10 % 10, ones = fraction % 10
        out[count] = UInt8(ascii: "0") + UInt8(hundreds); count += 1
        if tens != 0 || ones != 0 { out[count] = UInt8(ascii: "0") + UInt8(tens); count += 1 }
        if ones != 0 { out[count] = UInt8(ascii: "0") + UInt8(ones); count += 1 }
        return count
    }

    /// A finite value rounded to `decimals` (0...3) places, trailing zeros dropped ("12.5", "7"); "null" for a value
    /// that is not finite or whose scaled magnitude does not fit 63 bits.
    @inline(__always)
    package static func fixed(_ value: Double, decimals: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let scale: UInt64 = decimals >= 3 ? 1000 : decimals == 2 ? 100 : decimals == 1 ? 10 : 1
        let scaled = (value.magnitude * Double(scale)).rounded()
        guard value.isFinite, scaled < 9.2e18 else { return literal("null", to: out) }
        var rest = UInt64(scaled), count = 0
        if value < 0 && rest > 0 { out[0] = UInt8(ascii: "-"); count = 1 }
        count += integer(rest / scale, to: out + count)
        rest %= scale
        if rest == 0 { return count }
        out[count] = UInt8(ascii: "."); count += 1
        var divisor = scale / 10
        while rest > 0 && divisor > 0 {
            out[count] = UInt8(ascii: "0") + UInt8(rest / divisor); count += 1
            rest %= divisor
            divisor /= 10
        }
        return count
    }

    /// ASCII text as it is.
    @inline(__always)
    package static func literal(_ text: StaticString, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        return text.utf8CodeUnitCount
    }
}
