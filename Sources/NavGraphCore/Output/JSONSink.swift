/// Receives a JSON document as events in document order (containers opened and closed, member keys, scalars), so
/// that one writer makes both the bytes a server sends (`JSONStream`) and the `JSON` tree a reshaping writer reads
/// (`JSONTreeBuilder`), with the same members in the same order and numbers written as `JSON` writes them.
package protocol JSONSink: ~Copyable {
    mutating func beginObject()
    mutating func endObject()
    mutating func beginArray()
    mutating func endArray()
    /// A member's key; the next event is its value.
    mutating func key(_ name: StaticString)
    mutating func string(_ text: String)
    /// A string given as its UTF-8 bytes (valid UTF-8, read only during the call): text written from a scratch buffer
    /// without making a String.
    mutating func string(utf8 text: UnsafeBufferPointer<UInt8>)
    /// A string the writer names itself: ASCII with nothing JSON escapes (no `"`, `\\` or control characters).
    mutating func string(literal text: StaticString)
    /// A number as `JSON.number(value)` holds it (integral values without a fraction; not finite: null).
    mutating func number(_ value: Double)
    /// A number rounded to `decimals` places, as `JSON.number(_:decimals:)` makes it (not finite: null).
    mutating func number(_ value: Double, decimals: Int)
    mutating func integer(_ value: Int)
    mutating func bool(_ value: Bool)
    mutating func null()
    /// A string member holding an encoded polyline of `coordinates` (the last one repeated `repeatLast` more times).
    mutating func polyline(_ coordinates: ArraySlice<Coordinate>, precision: Int, repeatLast: Int)
    /// A value that is already a tree.
    mutating func value(_ json: JSON)
}

extension JSONSink where Self: ~Copyable {
    /// Metres or seconds with one decimal (`JSON.measure`).
    @inline(__always)
    mutating func measure(_ value: Double) { number(value, decimals: 1) }

    /// `[lon, lat]` with 6 decimals (`JSON.position`).
    @inline(__always)
    mutating func position(_ c: Coordinate) {
        beginArray()
        number(c.lon, decimals: 6)
        number(c.lat, decimals: 6)
        endArray()
    }

    /// An optional integer, null when absent (`JSON.int`).
    @inline(__always)
    package mutating func integer(_ value: Int?) {
        if let value { integer(value) } else { null() }
    }

    /// A string member.
    @inline(__always)
    package mutating func member(_ name: StaticString, _ text: String) {
        key(name)
        string(text)
    }

    /// A string member whose text the writer names itself (`string(literal:)`).
    @inline(__always)
    package mutating func member(_ name: StaticString, literal text: StaticString) {
        key(name)
        string(literal: text)
    }

    /// A measure member (one decimal).
    @inline(__always)
    package mutating func member(_ name: StaticString, measure value: Double) {
        key(name)
        measure(value)
    }

    /// An integer member.
    @inline(__always)
    package mutating func member(_ name: StaticString, integer value: Int) {
        key(name)
        integer(value)
    }

    /// A Boolean member.
    @inline(__always)
    package mutating func member(_ name: StaticString, bool value: Bool) {
        key(name)
        bool(value)
    }
}
