import Foundation
@testable import NavGraphCore
@testable import NavGraphImport
@testable import NavGraphOrder
@testable import NavGraphServer
import Testing

/// The matrix output's number writer against Foundation's formatting ("%.Nf", trailing zeros and point dropped).
@Suite struct DecimalWriterTests {
    /// Foundation's rendering of a value rounded to `decimals` places, in the writer's short form.
    func reference(_ value: Double, decimals: Int) -> String {
        var text = String(format: "%.\(decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    func written(_ body: (UnsafeMutablePointer<UInt8>) -> Int) -> String {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: DecimalWriter.maxFixedBytes)
        defer { buffer.deallocate() }
        let count = body(buffer)
        return String(decoding: UnsafeBufferPointer(start: buffer, count: count), as: UTF8.self)
    }

    @Test func integersMatchDescription() {
        var generator = SystemRandomNumberGenerator()
        var values: [UInt64] = [0, 1, 9, 10, 99, 100, 101, 999, 1000, 65_535, UInt64(UInt32.max), UInt64.max]
        for _ in 0..<2000 { values.append(UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator)) }
        for value in values {
            #expect(written { DecimalWriter.integer(value, to: $0) } == String(value))
        }
    }

    @Test func millisecondsMatchFoundation() {
        var values: [UInt64] = [0, 1, 5, 10, 50, 100, 120, 999, 1000, 1001, 1010, 1100, 12_500, 7000, UInt64(UInt32.max)]
        for _ in 0..<2000 { values.append(UInt64.random(in: 0...UInt64(UInt32.max))) }
        for value in values {
            #expect(written { DecimalWriter.thousandths(value, to: $0) } == reference(Double(value) / 1000, decimals: 3), "\(value)")
        }
    }

    @Test func fixedMatchesFoundation() {
        // Values on a 1/1000 grid (exact to print) and arbitrary ones away from rounding ties.
        var values: [Double] = [0, -0.0, 0.5, 1, 12.5, 7, 123_456.78, -3.25, 0.001, 0.01]
        for _ in 0..<2000 { values.append(Double(Int.random(in: -10_000_000...10_000_000)) / 1000) }
        for _ in 0..<2000 { values.append(Double.random(in: -1e7...1e7)) }
        for value in values {
            for decimals in 1...3 {
                let scaled = abs(value) * pow(10, Double(decimals))
                if abs(scaled - scaled.rounded(.down) - 0.5) < 1e-4 { continue }   // ties: Foundation rounds half to even
                #expect(written { DecimalWriter.fixed(value, decimals: decimals, to: $0) } == reference(value, decimals: decimals), "\(value) \(decimals)")
            }
        }
        #expect(written { DecimalWriter.fixed(.infinity, decimals: 2, to: $0) } == "null")
        #expect(written { DecimalWriter.fixed(.nan, decimals: 2, to: $0) } == "null")
        #expect(written { DecimalWriter.fixed(1e30, decimals: 2, to: $0) } == "null")
    }

    /// The JSON writer's numbers: integral values as integers, others byte for byte as Swift's shortest round-trip
    /// `description` (the writer has a fast path for values of 1 to 3 decimals; this pins it to `description`).
    @Test func jsonNumbersMatchSwiftDescription() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 0.5, -0.5, 0.1, 0.2, 0.3, 0.1 + 0.2, 12.3, 1087.1, 13096.2, 0.001, 0.0015, 0.0001, 0.00001,
                                1e-7, 5e-324, 999_999_999_999.9, 1e12 + 0.5, 1e12 - 0.5, 123_456_789_012.5, 1e15, 1e16, 4.5e15 + 0.5,
                                .infinity, -.infinity, .nan, .pi, 9.179382, 45.446282]
        for _ in 0..<3000 {
            let scale = [10.0, 100, 1000, 1e4, 1e6][Int.random(in: 0...4, using: &generator)]
            values.append(Double(Int64.random(in: -2_000_000_000_000...2_000_000_000_000, using: &generator) >> Int64.random(in: 0...40, using: &generator)) / scale)
            values.append(Double.random(in: -1e6...1e6, using: &generator))
            values.append((Double.random(in: -1e4...1e4, using: &generator) * 10).rounded() / 10)
        }
        for value in values {
            let written = String(decoding: JSON.number(value).data(pretty: false), as: UTF8.self)
            let expected = !value.isFinite ? "null" : value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
            #expect(written == expected, "\(value)")
        }
    }
}
