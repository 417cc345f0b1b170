import Foundation

/// Checks a MapLibre GL style (version 8) against the rules of the style spec that our output relies on:
/// root keys, sources, layer types, paint/layout property names and value types per layer type,
/// and the syntax of the expressions used (`get`, `==`, `all`, `match`, `case`, `interpolate`, `step`, `zoom`, ...).
/// Returns human-readable problems; an empty array means valid.
struct StyleValidator {
    enum Kind: Equatable {
        case number, opacity, color, bool, string, formatted, numberArray, stringArray, any
        case oneOf([String])
        var interpolatable: Bool { [.number, .opacity, .color, .numberArray].contains(self) }
    }

    static let rootKeys: Set = [
        "version", "name", "metadata", "center", "centerAltitude", "zoom", "bearing", "pitch", "roll", "light", "sky",
        "terrain", "sources", "sprite", "glyphs", "font-faces", "transition", "layers", "projection", "state",
    ]
    static let layerKeys: Set = ["id", "type", "metadata", "source", "source-layer", "minzoom", "maxzoom", "filter", "layout", "paint"]
    static let layerTypes: Set = ["background", "fill", "line", "symbol", "circle", "heatmap", "fill-extrusion", "raster", "hillshade", "color-relief"]
    static let anchor = Kind.oneOf(["map", "viewport"])
    static let visibility: [String: Kind] = ["visibility": .oneOf(["visible", "none"])]

    /// Property allow-lists per layer type, from the MapLibre style spec.
    static let paint: [String: [String: Kind]] = [
        "background": ["background-color": .color, "background-opacity": .opacity, "background-pattern": .string],
        "fill": [
            "fill-antialias": .bool, "fill-opacity": .opacity, "fill-color": .color, "fill-outline-color": .color,
            "fill-translate": .numberArray, "fill-translate-anchor": anchor, "fill-pattern": .string,
        ],
        "line": [
            "line-opacity": .opacity, "line-color": .color, "line-translate": .numberArray, "line-translate-anchor": anchor,
            "line-width": .number, "line-gap-width": .number, "line-offset": .number, "line-blur": .number,
            "line-dasharray": .numberArray, "line-pattern": .string, "line-gradient": .color,
        ],
        "circle": [
            "circle-radius": .number, "circle-color": .color, "circle-blur": .number, "circle-opacity": .opacity,
            "circle-translate": .numberArray, "circle-translate-anchor": anchor, "circle-pitch-scale": anchor,
            "circle-pitch-alignment": anchor, "circle-stroke-width": .number, "circle-stroke-color": .color,
            "circle-stroke-opacity": .opacity,
        ],
        "symbol": [
            "icon-opacity": .opacity, "icon-color": .color, "icon-halo-color": .color, "icon-halo-width": .number,
            "icon-halo-blur": .number, "icon-translate": .numberArray, "icon-translate-anchor": anchor,
            "text-opacity": .opacity, "text-color": .color, "text-halo-color": .color, "text-halo-width": .number,
            "text-halo-blur": .number, "text-translate": .numberArray, "text-translate-anchor": anchor,
        ],
    ]
    static let layout: [String: [String: Kind]] = [
        "background": visibility,
        "fill": visibility.merging(["fill-sort-key": .number]) { a, _ in a },
        "line": visibility.merging([
            "line-cap": .oneOf(["butt", "round", "square"]), "line-join": .oneOf(["bevel", "round", "miter"]),
            "line-miter-limit": .number, "line-round-limit": .number, "line-sort-key": .number,
        ]) { a, _ in a },
        "circle": visibility.merging(["circle-sort-key": .number]) { a, _ in a },
        "symbol": visibility.merging([
            "symbol-placement": .oneOf(["point", "line", "line-center"]), "symbol-spacing": .number,
            "symbol-avoid-edges": .bool, "symbol-sort-key": .number, "symbol-z-order": .oneOf(["auto", "viewport-y", "source"]),
            "icon-allow-overlap": .bool, "icon-overlap": .oneOf(["never", "always", "cooperative"]),
            "icon-ignore-placement": .bool, "icon-optional": .bool, "icon-rotation-alignment": .any, "icon-size": .number,
            "icon-text-fit": .any, "icon-text-fit-padding": .numberArray, "icon-image": .string, "icon-rotate": .number,
            "icon-padding": .any, "icon-keep-upright": .bool, "icon-offset": .numberArray, "icon-anchor": .any,
            "icon-pitch-alignment": .any, "text-pitch-alignment": .any, "text-rotation-alignment": .any,
            "text-field": .formatted, "text-font": .stringArray, "text-size": .number, "text-max-width": .number,
            "text-line-height": .number, "text-letter-spacing": .number, "text-justify": .any, "text-radial-offset": .number,
            "text-variable-anchor": .stringArray, "text-variable-anchor-offset": .any,
            "text-anchor": .oneOf(["center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right"]),
            "text-max-angle": .number, "text-writing-mode": .stringArray, "text-rotate": .number, "text-padding": .number,
            "text-keep-upright": .bool, "text-transform": .oneOf(["none", "uppercase", "lowercase"]),
            "text-offset": .numberArray, "text-allow-overlap": .bool, "text-overlap": .oneOf(["never", "always", "cooperative"]),
            "text-ignore-placement": .bool, "text-optional": .bool,
        ]) { a, _ in a },
    ]

    static let operators: Set = [
        "get", "has", "zoom", "literal", "==", "!=", "<", "<=", ">", ">=", "all", "any", "!", "match", "case",
        "interpolate", "step", "coalesce", "concat", "to-string", "+", "-", "*", "/",
    ]
    static let booleanOps: Set = ["==", "!=", "<", "<=", ">", ">=", "all", "any", "!", "has", "in", "boolean"]

    var problems: [String] = []

    static func validate(_ style: Any) -> [String] {
        var v = StyleValidator()
        v.check(style)
        return v.problems
    }

    private mutating func fail(_ message: String) { problems.append(message) }

    private mutating func check(_ style: Any) {
        guard let root = style as? [String: Any] else { return fail("style is not an object") }
        for key in root.keys where !Self.rootKeys.contains(key) { fail("unknown root key \(key)") }
        if (root["version"] as? Int) != 8 { fail("version must be 8") }
        guard let sources = root["sources"] as? [String: Any] else { return fail("sources missing") }
        for (name, value) in sources {
            guard let source = value as? [String: Any], let type = source["type"] as? String else { fail("source \(name): no type"); continue }
            if type == "geojson", source["data"] == nil { fail("source \(name): geojson needs data") }
        }
        guard let layers = root["layers"] as? [Any] else { return fail("layers missing") }
        var ids: Set<String> = []
        for (i, value) in layers.enumerated() {
            guard let layer = value as? [String: Any] else { fail("layer \(i) is not an object"); continue }
            guard let id = layer["id"] as? String else { fail("layer \(i): no id"); continue }
            if !ids.insert(id).inserted { fail("\(id): duplicate id") }
            for key in layer.keys where !Self.layerKeys.contains(key) { fail("\(id): unknown layer key \(key)") }
            guard let type = layer["type"] as? String, Self.layerTypes.contains(type) else { fail("\(id): bad type"); continue }
            if type != "background" {
                guard let source = layer["source"] as? String, sources[source] != nil else { fail("\(id): missing source"); continue }
            }
            if let filter = layer["filter"] { checkBoolean(filter, at: "\(id).filter") }
            checkProperties(layer["paint"], allowed: Self.paint[type], at: "\(id).paint")
            checkProperties(layer["layout"], allowed: Self.layout[type], at: "\(id).layout")
            if type == "symbol", (layer["layout"] as? [String: Any])?["text-field"] != nil, root["glyphs"] as? String == nil {
                fail("\(id): text-field needs a glyphs URL in the root")
            }
        }
    }

    private mutating func checkProperties(_ value: Any?, allowed: [String: Kind]?, at path: String) {
        guard let value else { return }
        guard let allowed else { return fail("\(path): validator has no property list for this layer type") }
        guard let properties = value as? [String: Any] else { return fail("\(path) is not an object") }
        for (name, v) in properties {
            guard let kind = allowed[name] else { fail("\(path): \(name) is not a property of this layer type"); continue }
            checkValue(v, kind, at: "\(path).\(name)", zoomInput: true)
        }
    }

    /// A property value: a literal of the right kind, or an expression producing it.
    private mutating func checkValue(_ value: Any, _ kind: Kind, at path: String, zoomInput: Bool = false) {
        // An array is an expression when it starts with an operator name; otherwise a literal (e.g. text-font).
        if let array = value as? [Any], let op = array.first as? String, Self.operators.contains(op) || !isArrayKind(kind) {
            return checkExpression(op, array, kind, at: path, zoomInput: zoomInput)
        }
        checkLiteral(value, kind, at: path)
    }

    private mutating func checkLiteral(_ value: Any, _ kind: Kind, at path: String) {
        let ok: Bool
        switch kind {
        case .any: ok = true
        case .number: ok = isNumber(value)
        case .opacity: ok = isNumber(value) && (0...1).contains(value as? Double ?? -1)
        case .bool: ok = isBool(value)
        case .string, .formatted: ok = value is String
        case .color: ok = (value as? String).map(isColor) ?? false
        case .numberArray: ok = (value as? [Any])?.allSatisfy(isNumber) ?? false
        case .stringArray: ok = (value as? [Any])?.allSatisfy { $0 is String } ?? false
        case .oneOf(let values): ok = (value as? String).map(values.contains) ?? false
        }
        if !ok { fail("\(path): \(value) is not a valid \(kind)") }
    }

    private mutating func checkExpression(_ op: String, _ e: [Any], _ kind: Kind, at path: String, zoomInput: Bool = false) {
        let args = Array(e.dropFirst())
        switch op {
        case "get", "has":
            if !(1...2).contains(args.count) || !(args.first is String) { fail("\(path): \(op) takes a property name") }
        case "zoom":
            if !args.isEmpty { fail("\(path): zoom takes no arguments") }
            fail("\(path): zoom may only be the input of a top-level interpolate or step")
        case "literal":
            if args.count != 1 { fail("\(path): literal takes one argument") } else { checkLiteral(args[0], kind, at: path) }
        case "==", "!=", "<", "<=", ">", ">=":
            if !(2...3).contains(args.count) { fail("\(path): \(op) takes two operands") }
            for a in args.prefix(2) { checkOperand(a, at: path) }
        case "all", "any":
            for (i, a) in args.enumerated() { checkBoolean(a, at: "\(path)[\(i + 1)]") }
        case "!":
            if args.count != 1 { fail("\(path): ! takes one operand") } else { checkBoolean(args[0], at: path) }
        case "match":
            guard args.count >= 4, args.count % 2 == 0 else { return fail("\(path): match needs input, label/output pairs and a fallback") }
            checkOperand(args[0], at: "\(path).input")
            var seen: Set<String> = []
            for i in stride(from: 1, to: args.count - 1, by: 2) {
                let labels = (args[i] as? [Any]) ?? [args[i]]
                if labels.isEmpty { fail("\(path): empty match label") }
                for label in labels {
                    guard label is String || isNumber(label) else { fail("\(path): match label \(label) must be a string or number literal"); continue }
                    if !seen.insert("\(label)").inserted { fail("\(path): duplicate match label \(label)") }
                }
                checkValue(args[i + 1], kind, at: "\(path).output")
            }
            checkValue(args[args.count - 1], kind, at: "\(path).fallback")
        case "case":
            guard args.count >= 3, args.count % 2 == 1 else { return fail("\(path): case needs condition/output pairs and a fallback") }
            for i in stride(from: 0, to: args.count - 1, by: 2) {
                checkBoolean(args[i], at: "\(path).condition")
                checkValue(args[i + 1], kind, at: "\(path).output")
            }
            checkValue(args[args.count - 1], kind, at: "\(path).fallback")
        case "interpolate":
            guard args.count >= 4, args.count % 2 == 0 else { return fail("\(path): interpolate needs a type, an input and stop/output pairs") }
            if !kind.interpolatable { fail("\(path): \(kind) values cannot be interpolated") }
            let type = args[0] as? [Any] ?? []
            switch type.first as? String {
            case "linear": if type.count != 1 { fail("\(path): linear takes no arguments") }
            case "exponential": if type.count != 2 || !isNumber(type[1]) { fail("\(path): exponential takes a base") }
            case "cubic-bezier": if type.count != 5 || !type.dropFirst().allSatisfy(isNumber) { fail("\(path): cubic-bezier takes 4 numbers") }
            default: fail("\(path): unknown interpolation type \(args[0])")
            }
            checkInput(args[1], zoomInput: zoomInput, at: path)
            checkStops(Array(args.dropFirst(2)), outputsFirst: false, kind, at: path)
        case "step":
            guard args.count >= 2, args.count % 2 == 0 else { return fail("\(path): step needs an input, a base output and stop/output pairs") }
            checkInput(args[0], zoomInput: zoomInput, at: path)
            checkValue(args[1], kind, at: "\(path).output")
            checkStops(Array(args.dropFirst(2)), outputsFirst: false, kind, at: path)
        case "+", "-", "*", "/":
            if kind != .number, kind != .opacity, kind != .any { fail("\(path): \(op) yields a number") }
            if args.isEmpty || ((op == "-" || op == "/") && args.count > 2) { fail("\(path): wrong number of operands for \(op)") }
            for a in args { checkValue(a, .number, at: path) }
        case "coalesce":
            for a in args { checkValue(a, kind, at: path) }
        case "concat", "to-string":
            if !(kind == .string || kind == .formatted || kind == .any) { fail("\(path): \(op) yields a string") }
            for a in args { checkOperand(a, at: path) }
        default:
            fail("\(path): unknown expression operator \(op)")
        }
        if op == "get" || op == "has", kind != .any, kind != .string, kind != .formatted, kind != .number, kind != .color, kind != .bool, kind != .opacity {
            fail("\(path): \(op) cannot produce a \(kind)")
        }
    }

    private mutating func checkInput(_ input: Any, zoomInput: Bool, at path: String) {
        if let array = input as? [Any], array.count == 1, array.first as? String == "zoom" {
            if !zoomInput { fail("\(path): zoom may only be the input of a top-level interpolate or step") }
            return
        }
        checkOperand(input, at: "\(path).input")
    }

    private mutating func checkStops(_ pairs: [Any], outputsFirst: Bool, _ kind: Kind, at path: String) {
        var previous = -Double.infinity
        for i in stride(from: 0, to: pairs.count - 1, by: 2) {
            guard isNumber(pairs[i]), let stop = pairs[i] as? Double else { fail("\(path): stop \(pairs[i]) is not a number"); continue }
            if stop <= previous { fail("\(path): stops must be strictly ascending") }
            previous = stop
            checkValue(pairs[i + 1], kind, at: "\(path).output")
        }
    }

    /// A value inside a comparison: a scalar literal or any expression.
    private mutating func checkOperand(_ value: Any, at path: String) {
        if let array = value as? [Any] {
            guard let op = array.first as? String else { return fail("\(path): arrays must be expressions (wrap literals in [\"literal\", ...])") }
            return checkExpression(op, array, .any, at: path)
        }
        if !(value is String || isBool(value) || isNumber(value) || value is NSNull) { fail("\(path): bad operand \(value)") }
    }

    private mutating func checkBoolean(_ value: Any, at path: String) {
        if isBool(value) { return }
        guard let array = value as? [Any], let op = array.first as? String else { return fail("\(path): not a boolean expression") }
        if !Self.booleanOps.contains(op), op != "match", op != "case" { fail("\(path): \(op) does not yield a boolean") }
        checkExpression(op, array, .bool, at: path)
    }

    /// JSONSerialization on Linux bridges both numbers and booleans to NSNumber; booleans report objCType "c".
    private func isBool(_ value: Any) -> Bool { (value as? NSNumber).map { String(cString: $0.objCType) == "c" } ?? false }
    private func isArrayKind(_ kind: Kind) -> Bool { kind == .numberArray || kind == .stringArray }
    private func isNumber(_ value: Any) -> Bool { value is NSNumber && !isBool(value) }

    private func isColor(_ s: String) -> Bool {
        let hex = s.dropFirst()
        if s.hasPrefix("#") { return [3, 4, 6, 8].contains(hex.count) && hex.allSatisfy(\.isHexDigit) }
        return s.hasPrefix("rgb(") || s.hasPrefix("rgba(") || s.hasPrefix("hsl(") || ["white", "black", "transparent"].contains(s)
    }
}
