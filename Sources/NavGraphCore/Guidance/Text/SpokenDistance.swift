import Foundation

/// A distance as a driver hears it ("500 metres", "1.5 kilometres", "a quarter mile", "1,000 feet"), rounded
/// the way navigation voices round, with the distance in metres the words stand for.
package struct SpokenDistance: Equatable {
    package let text: String
    /// The rounded distance the words say, in metres (announcements are placed there when they fit).
    package let roundedMeters: Double

    package static let metresPerMile = 1609.344
    package static let metresPerFoot = 0.3048

    package init(meters: Double, units: DistanceUnits, book: Phrasebook) {
        let meters = min(max(0, meters.isFinite ? meters : 0), 1e9)
        switch units {
        case .metric: self = Self.metric(meters, book)
        case .imperial: self = Self.imperial(meters, book)
        }
    }

    private init(text: String, roundedMeters: Double) { self.text = text; self.roundedMeters = roundedMeters }

    private static func metric(_ m: Double, _ book: Phrasebook) -> SpokenDistance {
        let step: Double = m < 100 ? 10 : 50
        let rounded = max(step, (m / step).rounded() * step)
        if rounded < 1000 {
            return .init(text: fill(book.distances["meters"], count: number(rounded, decimals: 0, book)), roundedMeters: rounded)
        }
        let km = m < 10_000 ? (m / 100).rounded() / 10 : (m / 1000).rounded()
        if km == 1 { return .init(text: book.distances["kilometer_one"] ?? "1 km", roundedMeters: 1000) }
        let decimals = km == km.rounded() ? 0 : 1
        return .init(text: fill(book.distances["kilometers"], count: number(km, decimals: decimals, book)), roundedMeters: km * 1000)
    }

    private static func imperial(_ m: Double, _ book: Phrasebook) -> SpokenDistance {
        let miles = m / metresPerMile
        if miles < 0.2 {
            let feet = m / metresPerFoot
            let step: Double = feet < 100 ? 10 : (feet < 500 ? 50 : 100)
            let rounded = max(step, (feet / step).rounded() * step)
            return .init(text: fill(book.distances["feet"], count: number(rounded, decimals: 0, book)), roundedMeters: rounded * metresPerFoot)
        }
        let fractions: [(limit: Double, miles: Double, key: String)] = [
            (0.375, 0.25, "mile_quarter"), (0.625, 0.5, "mile_half"), (0.875, 0.75, "mile_three_quarters"), (1.25, 1, "mile_one"),
        ]
        if let f = fractions.first(where: { miles < $0.limit }) {
            return .init(text: book.distances[f.key] ?? "\(f.miles) mi", roundedMeters: f.miles * metresPerMile)
        }
        let rounded = miles < 10 ? (miles * 2).rounded() / 2 : miles.rounded()
        let decimals = rounded == rounded.rounded() ? 0 : 1
        return .init(text: fill(book.distances["miles"], count: number(rounded, decimals: decimals, book)), roundedMeters: rounded * metresPerMile)
    }

    private static func fill(_ template: String?, count: String) -> String {
        PhrasebookNarrator.fill(template ?? "{count}", ["count": count])
    }

    /// `value` with the phrasebook's separators: "1,000" / "1.000", "1.5" / "1,5".
    package static func number(_ value: Double, decimals: Int, _ book: Phrasebook) -> String {
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
