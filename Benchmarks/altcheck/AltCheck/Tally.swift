import Foundation

/// Counts over one engine's queries: returned and admissible alternatives, and why the others fail.
public struct Tally: Codable, Sendable {
    public var extract: String
    public var engine: String
    /// The local-optimality slack of the judge (0: navgraph's criterion).
    public var slack: Double
    public var queries = 0
    /// Queries with at least one route.
    public var routed = 0
    public var withOneReturned = 0, withTwoReturned = 0
    public var withOneAdmissible = 0, withTwoAdmissible = 0
    public var returned = 0, admissible = 0
    /// Matched alternatives failing each criterion; one alternative may fail several.
    public var failsSharing = 0, failsStretch = 0, failsLocalOptimality = 0
    /// Alternatives that could not be judged, by reason (`MatchFailure` raw values).
    public var unmatched: [String: Int] = [:]
    /// Primaries (route 0) matched onto navgraph's graph; of those, how many cost at most 1.001 × navgraph's optimum
    /// there and how many pass the local-optimality test: how far the engine's metric agrees with navgraph's.
    public var primariesMatched = 0, primariesOptimal = 0, primariesLocallyOptimal = 0
    /// Alternatives returned, and admissible, in queries whose primary is matched and locally optimal on navgraph's
    /// metric: the pass rate where the engine's metric agrees with navgraph's at least along the primary.
    public var returnedWhereAgreeing = 0, admissibleWhereAgreeing = 0
    /// Primaries that could not be judged, by reason.
    public var primariesUnmatched: [String: Int] = [:]
    /// Mean cost / optimum of the admissible alternatives.
    public var meanAdmissibleStretch = 0.0

    public init(extract: String, engine: String, slack: Double = 0) { self.extract = extract; self.engine = engine; self.slack = slack }

    public var unmatchedCount: Int { unmatched.values.reduce(0, +) }

    /// Adds one query from the verdicts of its routes, primary first.
    public mutating func add(_ routes: [Verdict]) {
        queries += 1
        guard let primary = routes.first else { return }
        routed += 1
        if let reason = primary.unmatched {
            primariesUnmatched[reason.rawValue, default: 0] += 1
        } else {
            primariesMatched += 1
            if let stretch = primary.stretch, stretch <= 1.001 { primariesOptimal += 1 }
            if !primary.failsLocalOptimality { primariesLocallyOptimal += 1 }
        }
        let verdicts = routes.dropFirst()
        if primary.unmatched == nil && !primary.failsLocalOptimality {
            returnedWhereAgreeing += verdicts.count
            admissibleWhereAgreeing += verdicts.filter(\.passes).count
        }
        returned += verdicts.count
        if verdicts.count >= 1 { withOneReturned += 1 }
        if verdicts.count >= 2 { withTwoReturned += 1 }
        let passing = verdicts.filter(\.passes)
        if passing.count >= 1 { withOneAdmissible += 1 }
        if passing.count >= 2 { withTwoAdmissible += 1 }
        meanAdmissibleStretch = (meanAdmissibleStretch * Double(admissible) + passing.reduce(0) { $0 + ($1.stretch ?? 0) })
            / Double(max(1, admissible + passing.count))
        admissible += passing.count
        for verdict in verdicts {
            if let reason = verdict.unmatched { unmatched[reason.rawValue, default: 0] += 1; continue }
            if verdict.failsSharing { failsSharing += 1 }
            if verdict.failsStretch { failsStretch += 1 }
            if verdict.failsLocalOptimality { failsLocalOptimality += 1 }
        }
    }

    static func percent(_ part: Int, _ whole: Int) -> String { percent(Double(part), max(1, whole)) }
    static func percent(_ part: Double, _ whole: Int) -> String { String(format: "%.1f %%", 100 * part / Double(whole)) }

    /// Header of `markdownRow`.
    public static let markdownHeader = """
        | extract | engine | slack | routed | ≥ 1 alt returned | ≥ 2 returned | ≥ 1 admissible | ≥ 2 admissible | alts returned | pass | fail sharing | fail stretch | fail local opt. | unmatched | primary matched | primary = opt | primary loc. opt. | pass where primary loc. opt. |
        |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
        """

    /// One table row; shares of routed queries and of returned alternatives.
    public var markdownRow: String {
        let reasons = unmatched.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "| \(extract) | \(engine) | \(Self.percent(slack, 1)) | \(routed) | \(Self.percent(withOneReturned, routed)) | \(Self.percent(withTwoReturned, routed)) | "
            + "**\(Self.percent(withOneAdmissible, routed))** | \(Self.percent(withTwoAdmissible, routed)) | \(returned) | "
            + "**\(Self.percent(admissible, returned))** | \(Self.percent(failsSharing, returned)) | \(Self.percent(failsStretch, returned)) | "
            + "\(Self.percent(failsLocalOptimality, returned)) | \(Self.percent(unmatchedCount, returned))"
            + (reasons.isEmpty ? "" : " (\(reasons))") + " | \(Self.percent(primariesMatched, routed)) | "
            + "\(Self.percent(primariesOptimal, primariesMatched)) | \(Self.percent(primariesLocallyOptimal, primariesMatched)) | "
            + "\(Self.percent(admissibleWhereAgreeing, returnedWhereAgreeing)) of \(returnedWhereAgreeing) |"
    }
}
