/// Builds the `JSON` tree of a document written as `JSONSink` events, for the writers that read a document back and
/// reshape it (NextBillion, route refresh, matching) and for pretty-printed output.
package struct JSONTreeBuilder: JSONSink {
    /// Open containers, innermost last: true for an object (its members in `objects`), false for an array.
    private var isObject: [Bool] = []
    private var objects: [[(String, JSON)]] = []
    private var arrays: [[JSON]] = []
    /// Keys of the members being written, innermost last.
    private var keys: [String] = []
    /// The finished document.
    package private(set) var result: JSON = .null

    package init() {}

    private mutating func add(_ value: JSON) {
        guard let object = isObject.last else { result = value; return }
        if object {
            objects[objects.count - 1].append((keys.popLast() ?? "", value))
        } else {
            arrays[arrays.count - 1].append(value)
        }
    }

    package mutating func beginObject() {
        isObject.append(true)
        objects.append([])
    }

    package mutating func endObject() {
        guard isObject.popLast() == true, let members = objects.popLast() else { return }
        add(.object(members))
    }

    package mutating func beginArray() {
        isObject.append(false)
        arrays.append([])
    }

    package mutating func endArray() {
        guard isObject.popLast() == false, let items = arrays.popLast() else { return }
        add(.array(items))
    }

    package mutating func key(_ name: StaticString) { keys.append(name.description) }
    package mutating func string(_ text: String) { add(.string(text)) }
    package mutating func string(utf8 text: UnsafeBufferPointer<UInt8>) { add(.string(String(decoding: text, as: UTF8.self))) }
    package mutating func string(literal text: StaticString) { add(.string(text.description)) }
    package mutating func number(_ value: Double) { add(.number(value)) }
    package mutating func number(_ value: Double, decimals: Int) { add(.number(value, decimals: decimals)) }
    package mutating func integer(_ value: Int) { add(.number(Double(value))) }
    package mutating func bool(_ value: Bool) { add(.bool(value)) }
    package mutating func null() { add(.null) }
    package mutating func value(_ json: JSON) { add(json) }

    package mutating func polyline(_ coordinates: ArraySlice<Coordinate>, precision: Int, repeatLast: Int) {
        add(.string(Polyline.encode(coordinates, precision: precision, repeatLast: repeatLast)))
    }
}
