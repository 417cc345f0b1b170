import Foundation

/// The words of one language for turn-by-turn guidance, loaded from a JSON resource (`phrasebook/<tag>.json`).
///
/// Templates are stored as they read in the middle of a sentence and use `{placeholders}`; the narrator fills
/// them and capitalizes the sentence. `maneuvers[type][subkey][variant]`: the type is the OSRM wire string (plus
/// `"ferry"` for steps driven on a ferry), the subkey a modifier, arrival side or notice (`"default"` when the
/// type has no entry for it), the variant says what the template mentions (`"name"`, `"destination"`, `"exit"`...).
public struct Phrasebook: Sendable {
    /// The tags of the bundled phrasebooks.
    public static let supportedLocales = ["en", "de", "fr", "es", "it", "pt", "nl"]

    /// The BCP-47 tag of the file it was read from, e.g. "de".
    public let locale: String
    package let decimalSeparator: String
    package let thousandsSeparator: String
    package let ordinals: [Int: String]
    package let directions: [String: String]
    package let modifiers: [String: String]
    package let sides: [String: String]
    package let phrases: [String: String]
    package let distances: [String: String]
    package let maneuvers: [String: [String: [String: String]]]
    /// The templates compiled to bytes and slots, the words as UTF-8, spoken distances precomputed (made at load).
    package let compiled: CompiledPhrasebook

    package static let requiredDirections = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]
    static let requiredPhrases = ["name_and_ref", "ref_separator", "destination_separator", "in_distance", "then", "exit"]
    static let requiredDistances = ["meters", "kilometer_one", "kilometers", "feet", "mile_quarter", "mile_half",
                                    "mile_three_quarters", "mile_one", "miles"]
    /// Maneuver types with an entry of their own: every wire type, and `ferry` for the ferry mode.
    static let requiredManeuvers = ManeuverType.allCases.map(\.rawValue) + ["ferry"]

    /// Parses and checks one phrasebook file; `source` names it in errors.
    public init(json data: Data, locale: String, source: String) throws {
        func fail(_ what: String) -> NavGraphError {
            NavGraphError("phrasebook \(source): \(what)", code: .invalidInput)
        }
        let root: [String: Any]
        do {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw fail("top level is not an object") }
            root = object
        } catch let error as NavGraphError {
            throw error
        } catch {
            throw fail("not valid JSON (\(error.localizedDescription))")
        }
        func strings(_ key: String) throws -> [String: String] {
            guard let dict = root[key] as? [String: Any] else { throw fail("no \"\(key)\" object") }
            var out: [String: String] = [:]
            for (k, v) in dict {
                guard let s = v as? String else { throw fail("\"\(key).\(k)\" is not a string") }
                out[k] = s
            }
            return out
        }
        let meta = try strings("meta")
        self.locale = locale
        decimalSeparator = meta["decimalSeparator"] ?? "."
        thousandsSeparator = meta["thousandsSeparator"] ?? ""
        var ordinals: [Int: String] = [:]
        for (k, v) in try strings("ordinals") {
            guard let n = Int(k), n > 0 else { throw fail("ordinal key \"\(k)\" is not a positive number") }
            ordinals[n] = v
        }
        self.ordinals = ordinals
        directions = try strings("directions")
        modifiers = try strings("modifiers")
        sides = try strings("sides")
        phrases = try strings("phrases")
        distances = try strings("distances")
        guard let maneuverRoot = root["maneuvers"] as? [String: Any] else { throw fail("no \"maneuvers\" object") }
        var maneuvers: [String: [String: [String: String]]] = [:]
        for (type, value) in maneuverRoot {
            guard let subkeys = value as? [String: Any] else { throw fail("\"maneuvers.\(type)\" is not an object") }
            var entry: [String: [String: String]] = [:]
            for (subkey, variants) in subkeys {
                guard let variants = variants as? [String: Any] else { throw fail("\"maneuvers.\(type).\(subkey)\" is not an object") }
                var templates: [String: String] = [:]
                for (variant, template) in variants {
                    guard let template = template as? String else {
                        throw fail("\"maneuvers.\(type).\(subkey).\(variant)\" is not a string")
                    }
                    templates[variant] = template
                }
                entry[subkey] = templates
            }
            maneuvers[type] = entry
        }
        self.maneuvers = maneuvers

        for n in 1...10 where ordinals[n] == nil { throw fail("no ordinal \(n)") }
        for key in Self.requiredDirections where directions[key] == nil { throw fail("no direction \"\(key)\"") }
        for modifier in ManeuverModifier.allCases where modifiers[modifier.rawValue] == nil {
            throw fail("no modifier \"\(modifier.rawValue)\"")
        }
        for key in ["left", "right"] where sides[key] == nil { throw fail("no side \"\(key)\"") }
        for key in Self.requiredPhrases where phrases[key] == nil { throw fail("no phrase \"\(key)\"") }
        for key in Self.requiredDistances where distances[key] == nil { throw fail("no distance phrase \"\(key)\"") }
        for type in Self.requiredManeuvers where maneuvers[type]?["default"]?["default"] == nil {
            throw fail("no \"maneuvers.\(type).default.default\" template")
        }
        compiled = CompiledPhrasebook(maneuvers: maneuvers, phrases: phrases, directions: directions, modifiers: modifiers,
                                      sides: sides, ordinals: ordinals,
                                      words: SpokenDistance.Words(distances: distances, decimalSeparator: decimalSeparator,
                                                                  thousandsSeparator: thousandsSeparator))
    }

    /// The template for a maneuver: the first of `variants` that the entry for `subkey` (else `"default"`) has.
    package func template(type: String, subkey: String, variants: [String]) -> String {
        let entries = maneuvers[type] ?? maneuvers["turn"] ?? [:]
        let entry = entries[subkey] ?? entries["default"] ?? [:]
        for variant in variants { if let t = entry[variant] { return t } }
        return entry["default"] ?? ""
    }

    /// Whether the entry of `type` has templates of its own for `subkey`.
    package func hasEntry(type: String, subkey: String) -> Bool { maneuvers[type]?[subkey] != nil }

    // MARK: Loading

    /// The folder the phrasebooks are read from in this process, nil when none is found.
    public static var directory: String? { PhrasebookLocation.found.url?.path }

    /// The phrasebook for a BCP-47 tag: the full tag, then its language, then English. Case-insensitive, "_"
    /// accepted for "-". Throws only when no phrasebook can be read or the chosen file is malformed.
    public static func load(locale requested: String) throws -> Phrasebook {
        if let cached = cache.get("request:" + requested) { return cached }
        let (directory, searched) = PhrasebookLocation.found
        guard let directory else {
            throw NavGraphError("phrasebook directory not found; looked in \(searched.joined(separator: ", ")) "
                                + "(set \(PhrasebookLocation.environmentVariable) to the folder holding en.json)", code: .badFile)
        }
        let tag = resolve(locale: requested) { FileManager.default.fileExists(atPath: directory.appendingPathComponent("\($0).json").path) }
        if let cached = cache.get(tag) { cache.set("request:" + requested, cached); return cached }
        let file = directory.appendingPathComponent("\(tag).json")
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw NavGraphError("cannot read phrasebook \(file.path): \(error.localizedDescription)", code: .badFile)
        }
        let book = try Phrasebook(json: data, locale: tag, source: file.path)
        cache.set(tag, book)
        cache.set("request:" + requested, book)
        return book
    }

    /// The file tag to use for `requested` among those `exists` accepts: "pt-BR" → "pt-br" or "pt", "xx" → "en".
    static func resolve(locale requested: String, exists: (String) -> Bool) -> String {
        let normalized = requested.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "_", with: "-")
        var parts = normalized.split(separator: "-").map(String.init).filter { !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber } }
        while !parts.isEmpty {
            let tag = parts.joined(separator: "-")
            if exists(tag) { return tag }
            parts.removeLast()
        }
        return "en"
    }

    private static let cache = PhrasebookCache()
}

/// Loaded phrasebooks by file tag and by requested tag, shared by all narrators of the process. Bounded, so that
/// a server fed arbitrary locale strings does not grow it without end (requests past the bound resolve again).
private final class PhrasebookCache: @unchecked Sendable {
    private let lock = NSLock()
    private var books: [String: Phrasebook] = [:]
    private let capacity = 256
    package func get(_ key: String) -> Phrasebook? { lock.lock(); defer { lock.unlock() }; return books[key] }
    package func set(_ key: String, _ book: Phrasebook) {
        lock.lock(); defer { lock.unlock() }
        if books.count < capacity || books[key] != nil { books[key] = book }
    }
}
