import NavGraphCore
import NavGraphImport
import NavGraphServer

/// Command-line arguments parsed against a command's option table: positionals, valued options and flags.
struct Arguments {
    var positionals: [String] = []
    /// Valued options given (lists keep their raw text; see `list`).
    var options: [String: String] = [:]
    /// Flags given, and optional-value options given without a value.
    var flags: Set<String> = []
    let spec: CommandSpec

    /// Parses and checks `raw` against the table: unknown options, missing values and malformed values or list
    /// items are refused here, naming the option and the value.
    init(_ raw: [String], spec: CommandSpec) throws {
        self.spec = spec
        let seeHelp = "(see navgraph \(spec.name) --help)"
        var index = 0
        while index < raw.count {
            let item = raw[index]
            index += 1
            guard Self.looksLikeOption(item) else { positionals.append(item); continue }
            var name: String, inline: String? = nil
            if item.hasPrefix("--") {
                name = String(item.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
            } else {
                guard let character = item.dropFirst().first, let option = spec.option(short: character) else {
                    throw NavGraphError("unknown option \(item) \(seeHelp)")
                }
                name = option.name
            }
            guard let option = spec.option(named: name) else { throw NavGraphError("unknown option --\(name) \(seeHelp)") }
            switch option.kind {
            case .flag:
                guard inline == nil else { throw NavGraphError("--\(name) takes no value (got '\(inline ?? "")')") }
                flags.insert(name)
                continue
            case .optionalValue:
                if inline == nil {
                    guard index < raw.count, Int(raw[index]) != nil else { flags.insert(name); continue }
                    inline = raw[index]
                    index += 1
                }
            case .value, .list:
                if inline == nil {
                    guard index < raw.count, !raw[index].hasPrefix("--") else {
                        throw NavGraphError("option --\(name) needs a value\(option.valueText.isEmpty ? "" : " (\(option.valueText))")")
                    }
                    inline = raw[index]
                    index += 1
                }
            }
            let value = inline ?? ""
            if case .list = option.kind {
                for (position, element) in Self.items(value).enumerated() {
                    if let problem = option.problem(with: element) {
                        throw NavGraphError("--\(name): '\(element)' (item \(position + 1)) \(problem)")
                    }
                }
            } else if let problem = option.problem(with: value) {
                throw NavGraphError("--\(name): '\(value)' \(problem)")
            }
            options[name] = value
        }
    }

    /// `--x`, `-o`; not negative numbers or coordinates such as `-33.9,151.2`.
    static func looksLikeOption(_ item: String) -> Bool {
        if item.hasPrefix("--") { return item.count > 2 }
        return item.hasPrefix("-") && item.count == 2 && !(item.last?.isNumber ?? true)
    }

    /// A list's items, trimmed; empty items are kept so `A,,C` keeps its positions.
    static func items(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// A list option's items (already checked while parsing), or nil when the option was not given.
    func list(_ name: String) -> [String]? { options[name].map(Self.items) }

    /// A positive number option (checked while parsing), or `value` when absent.
    func double(_ name: String, default value: Double) throws -> Double {
        guard let raw = options[name] else { return value }
        guard let parsed = Double(raw), parsed.isFinite, parsed > 0 else { throw NavGraphError("--\(name): '\(raw)' is not a positive number") }
        return parsed
    }

    /// An option whose value must be one of an enum's raw values.
    func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, _ type: Choice.Type) throws -> Choice? where Choice.RawValue == String {
        guard let raw = options[name] else { return nil }
        guard let parsed = Choice(rawValue: raw) else {
            throw NavGraphError("--\(name): '\(raw)' is not one of \(Choice.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return parsed
    }

    /// The raw values of an enum, for an option's `.choice` check.
    static func choices<Choice: RawRepresentable & CaseIterable>(_ type: Choice.Type) -> [String] where Choice.RawValue == String {
        Choice.allCases.map(\.rawValue)
    }
}

/// Parses `LAT,LON`.
func parseCoordinate(_ text: String, what: String) throws -> Coordinate {
    let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == 2, let lat = parts[0], let lon = parts[1] else {
        throw NavGraphError("\(what) '\(text)' is not LAT,LON")
    }
    let point = Coordinate(lat: lat, lon: lon)
    guard point.isValid else { throw NavGraphError("\(what) '\(text)' is out of range (latitude -90..90, longitude -180..180)") }
    return point
}
