/// A language of a graph's localized street names (`name:XX`), resolved from a BCP-47 tag by `RoutingGraph.nameLanguage(for:)`.
public struct NameLanguage: Sendable, Equatable {
    /// The language's column in the graph's `name.local` table.
    public let column: Int
    /// Its tag as the graph file lists it, e.g. "de".
    public let tag: String
}

extension RoutingGraph {
    /// The street-name language of a BCP-47 tag: its primary language ("de-CH" and "de_AT" give "de"), when the
    /// graph keeps names in it; nil for nil, for "" and for a language it has no column for (the local names then).
    public func nameLanguage(for requested: String?) -> NameLanguage? {
        guard let requested else { return nil }
        let primary = requested.trimmingCharacters(in: .whitespaces).lowercased()
            .split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        guard !primary.isEmpty, let column = nameLanguages.firstIndex(of: primary) else { return nil }
        return NameLanguage(column: column, tag: primary)
    }

    /// String id of an edge's street name in `language`: its way's `name:XX` where tagged (and different), else
    /// its `name` (also for a nil language).
    public func name(edge: Int, in language: NameLanguage?) -> UInt32 {
        let local = edgeName[edge]
        guard let language, language.column < nameLanguages.count, !nameWay.isEmpty else { return local }
        let way = edgeWay[edge]
        var low = 0, high = nameWay.count
        while low < high {
            let middle = (low + high) / 2
            if nameWay[middle] < way { low = middle + 1 } else { high = middle }
        }
        guard low < nameWay.count, nameWay[low] == way else { return local }
        let localized = nameLocal[low * nameLanguages.count + language.column]
        return localized != 0 ? localized : local
    }
}
