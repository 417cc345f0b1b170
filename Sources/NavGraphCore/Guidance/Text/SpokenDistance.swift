import Foundation

/// A distance as a driver hears it ("500 metres", "1.5 kilometres", "a quarter mile", "1,000 feet"), rounded
/// the way navigation voices round, with the distance in metres the words stand for.
package struct SpokenDistance: Equatable {
    package let text: String
    /// The rounded distance the words say, in metres (announcements are placed there when they fit).
    package let roundedMeters: Double

    package static let metresPerMile = 1609.344
    package static let metresPerFoot = 0.3048

    /// Which words a rounded distance takes, with their number; the phrasebook's compiled tables hold the text.
    enum Phrase: Hashable, Sendable {
        /// "{count} metres" (`count` a multiple of 10 below 1000).
        case meters(Int)
        /// Tenths of a kilometre: 10 is `kilometer_one`, else "{count} kilometres" with one decimal or none.
        case kilometers(tenths: Int)
        /// "{count} feet".
        case feet(Int)
        /// 0 a quarter, 1 a half, 2 three quarters, 3 one mile.
        case mileFraction(Int)
        /// Halves of a mile: "{count} miles" with one decimal or none.
        case miles(halves: Int)
    }

    /// The fractions of a mile that have words of their own: below `limit` miles, `miles` is said by `key`.
    static let mileFractions: [(limit: Double, miles: Double, key: String)] = [
        (0.375, 0.25, "mile_quarter"), (0.625, 0.5, "mile_half"), (0.875, 0.75, "mile_three_quarters"), (1.25, 1, "mile_one"),
    ]

    /// What the distance phrases are made of: `Phrasebook.distances` and the number separators.
    struct Words: Sendable {
        package let distances: [String: String]
        package let decimalSeparator: String
        package let thousandsSeparator: String
        package init(distances: [String: String], decimalSeparator: String, thousandsSeparator: String) {
            self.distances = distances; self.decimalSeparator = decimalSeparator; self.thousandsSeparator = thousandsSeparator
        }
    }

    package init(meters: Double, units: DistanceUnits, book: Phrasebook) {
        let spoken = Self.spoken(meters: meters, units: units)
        self.init(text: book.compiled.distanceText(spoken.phrase), roundedMeters: spoken.roundedMeters)
    }

    private init(text: String, roundedMeters: Double) { self.text = text; self.roundedMeters = roundedMeters }

    /// The words `meters` is said with and the distance they stand for.
    static func spoken(meters: Double, units: DistanceUnits) -> (phrase: Phrase, roundedMeters: Double) {
        let meters = min(max(0, meters.isFinite ? meters : 0), 1e9)
        switch units {
        case .metric: return metric(meters)
        case .imperial: return imperial(meters)
        }
    }

    private static func metric(_ m: Double) -> (phrase: Phrase, roundedMeters: Double) {
        let step: Double = m < 100 ? 10 : 50
        let rounded = max(step, (m / step).rounded() * step)
        if rounded < 1000 { return (.meters(Int(rounded)), rounded) }
        let tenths = m < 10_000 ? Int((m / 100).rounded()) : Int((m / 1000).rounded()) * 10
        let km = m < 10_000 ? (m / 100).rounded() / 10 : (m / 1000).rounded()
        if km == 1 { return (.kilometers(tenths: 10), 1000) }
        return (.kilometers(tenths: tenths), km * 1000)
    }

    private static func imperial(_ m: Double) -> (phrase: Phrase, roundedMeters: Double) {
        let miles = m / metresPerMile
        if miles < 0.2 {
            let feet = m / metresPerFoot
            let step: Double = feet < 100 ? 10 : (feet < 500 ? 50 : 100)
            let rounded = max(step, (feet / step).rounded() * step)
            return (.feet(Int(rounded)), rounded * metresPerFoot)
        }
        if let i = mileFractions.firstIndex(where: { miles < $0.limit }) {
            return (.mileFraction(i), mileFractions[i].miles * metresPerMile)
        }
        let rounded = miles < 10 ? (miles * 2).rounded() / 2 : miles.rounded()
        let halves = miles < 10 ? Int((miles * 2).rounded()) : Int(miles.rounded()) * 2
        return (.miles(halves: halves), rounded * metresPerMile)
    }

    /// The words of `phrase` in `book`, worked out from its templates (the compiled tables are filled from this).
    static func text(_ phrase: Phrase, _ book: Words) -> String {
        switch phrase {
        case .meters(let n):
            return fill(book.distances["meters"], count: number(Double(n), decimals: 0, book))
        case .kilometers(let tenths):
            if tenths == 10 { return book.distances["kilometer_one"] ?? "1 km" }
            let km = Double(tenths) / 10
            let decimals = km == km.rounded() ? 0 : 1
            return fill(book.distances["kilometers"], count: number(km, decimals: decimals, book))
        case .feet(let n):
            return fill(book.distances["feet"], count: number(Double(n), decimals: 0, book))
        case .mileFraction(let i):
            let f = mileFractions[min(max(i, 0), mileFractions.count - 1)]
            return book.distances[f.key] ?? "\(f.miles) mi"
        case .miles(let halves):
            let rounded = Double(halves) / 2
            let decimals = rounded == rounded.rounded() ? 0 : 1
            return fill(book.distances["miles"], count: number(rounded, decimals: decimals, book))
        }
    }

    private static func fill(_ template: String?, count: String) -> String {
        PhrasebookNarrator.fill(template ?? "{count}", ["count": count])
    }

    /// `value` with the phrasebook's separators: "1,000" / "1.000", "1.5" / "1,5".
    static func number(_ value: Double, decimals: Int, _ book: Words) -> String {
        let scaled = Int((value * (decimals == 0 ? 1 : 10)).rounded())
        let whole = decimals == 0 ? scaled : scaled / 10
        var digits = String(whole)
        if whole >= 1000, !book.thousandsSeparator.isEmpty {
            var grouped = ""
            for (i, ch) in digits.reversed().enumerated() {
                if i > 0 && i % 3 == 0 { grouped.append(contentsOf: book.thousandsSeparator.reversed()) }
                grouped.append(ch)
            }
            digits = String(grouped.reversed())
        }
        if decimals == 0 { return digits }
        return digits + book.decimalSeparator + String(scaled % 10)
    }
}
