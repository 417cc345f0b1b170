import NavGraphCore
import NavGraphImport
import NavGraphServer

/// One command-line option, declared once: parsing, validation and the `--help` text all come from it.
struct OptionSpec: Sendable {
    /// How an option takes its value.
    enum Kind: Sendable {
        /// `--json`: no value.
        case flag
        /// `--radius 500` or `--radius=500`.
        case value
        /// `--alternatives` or `--alternatives 3`: the value is taken only if the next argument is an integer.
        case optionalValue
        /// `--nodes 1,2`: comma-separated items, each checked on its own.
        case list
    }

    /// What a value (or each list item) must look like; checked while parsing.
    enum Check: Sendable {
        case any
        case positiveNumber
        /// An integer in the range; `what` names it in errors ("a node id").
        case integer(ClosedRange<Int>, what: String)
        case coordinate
        case choice([String])
    }

    let name: String
    var short: Character? = nil
    let kind: Kind
    /// What the value is called in the usage text (`FILE`, `METRES`); choices fill it in themselves.
    var placeholder: String = ""
    let help: String
    /// Shown as "(default ...)"; the command applies it.
    var defaultValue: String? = nil
    var check: Check = .any

    /// `FILE`, `summary|geojson|directions`, `[N]`.
    var valueText: String {
        let text: String
        if case .choice(let choices) = check, placeholder.isEmpty { text = choices.joined(separator: "|") } else { text = placeholder }
        switch kind {
        case .flag: return ""
        case .optionalValue: return "[\(text)]"
        case .value, .list: return text
        }
    }

    /// The usage line's left column: `-o, --output FILE`.
    var usageName: String {
        let long = "--\(name)" + (valueText.isEmpty ? "" : " \(valueText)")
        return short.map { "-\($0), \(long)" } ?? "    \(long)"
    }

    /// Why `text` is not acceptable (e.g. "is not a node id"), or nil when it is.
    func problem(with text: String) -> String? {
        switch check {
        case .any: return nil
        case .positiveNumber:
            guard let value = Double(text), value.isFinite, value > 0 else { return "is not a positive number" }
            return nil
        case .integer(let range, let what):
            guard let value = Int(text) else { return "is not \(what)" }
            return range.contains(value) ? nil : "is not \(what) (\(range.lowerBound)...\(range.upperBound))"
        case .coordinate:
            return (try? parseCoordinate(text, what: "")) == nil ? "is not LAT,LON in range" : nil
        case .choice(let choices):
            return choices.contains(text) ? nil : "is not one of \(choices.joined(separator: ", "))"
        }
    }
}

/// A CLI command: its synopsis, its option table and what it runs. Register it in `commands` (main.swift).
struct CommandSpec: Sendable {
    let name: String
    /// Usage lines after `navgraph NAME`, e.g. `REGION.navgraph [--json]`.
    let synopsis: [String]
    /// One sentence saying what the command does.
    let summary: String
    let options: [OptionSpec]
    let run: @Sendable (Arguments) throws -> Void

    /// Every command answers `--help`/`-h`.
    static let helpOption = OptionSpec(name: "help", short: "h", kind: .flag, help: "print this help and exit")

    var allOptions: [OptionSpec] { options + [Self.helpOption] }

    func option(named name: String) -> OptionSpec? { allOptions.first { $0.name == name } }
    func option(short: Character) -> OptionSpec? { allOptions.first { $0.short == short } }

    /// The full `--help` text, generated from the table.
    var usage: String {
        var lines = synopsis.enumerated().map { ($0.offset == 0 ? "usage: " : "       ") + "navgraph \(name) \($0.element)" }
        lines.append("")
        lines.append(summary)
        lines.append("")
        lines.append("options:")
        let width = min(34, (allOptions.map(\.usageName.count).max() ?? 0) + 2)
        for option in allOptions {
            var help = option.help
            if let value = option.defaultValue { help += " (default \(value))" }
            let left = "  " + option.usageName
            lines.append(left.count + 1 > width + 2 ? left + "\n" + String(repeating: " ", count: width + 2) + help
                                                    : left.padding(toLength: width + 2, withPad: " ", startingAt: 0) + help)
        }
        return lines.joined(separator: "\n")
    }
}
