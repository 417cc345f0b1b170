import NavGraph

/// Command-line arguments split into positionals and `--flag value` options.
struct Arguments {
    var positionals: [String] = []
    var options: [String: String] = [:]
    var flags: Set<String> = []

    /// Options that never take a value.
    static let booleanFlags: Set<String> = ["json", "quiet", "avoid-trunk", "help", "no-verify", "skip-unsnappable", "reverse"]
    /// Options whose value may be omitted (the value must then not look like a number).
    static let optionalValue: Set<String> = ["alternatives"]

    init(_ raw: [String]) throws {
        var index = 0
        while index < raw.count {
            let item = raw[index]
            if item.hasPrefix("--") || (item.hasPrefix("-") && item.count == 2 && !item.dropFirst().allSatisfy(\.isNumber)) {
                var name = item.hasPrefix("--") ? String(item.dropFirst(2)) : String(item.dropFirst())
                if name == "o" { name = "output" }
                if let equals = name.firstIndex(of: "=") {
                    options[String(name[..<equals])] = String(name[name.index(after: equals)...])
                } else if Self.booleanFlags.contains(name) {
                    flags.insert(name)
                } else if Self.optionalValue.contains(name) {
                    if index + 1 < raw.count, Int(raw[index + 1]) != nil {
                        options[name] = raw[index + 1]; index += 1
                    } else {
                        flags.insert(name)
                    }
                } else {
                    guard index + 1 < raw.count else { throw NavGraphError("option --\(name) needs a value") }
                    options[name] = raw[index + 1]
                    index += 1
                }
            } else {
                positionals.append(item)
            }
            index += 1
        }
    }

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

    /// Rejects options this command does not know, naming the first one.
    func check(allowed: Set<String>) throws {
        for name in options.keys.sorted() + flags.sorted() where !allowed.contains(name) {
            throw NavGraphError("unknown option --\(name)")
        }
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
