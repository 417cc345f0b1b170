import Foundation
@testable import NavGraph
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
}
