import NavGraphCore
/// What the road network builder keeps of one accepted way between profiling and edge splitting: the fields of the
/// first profile that takes it (its class, posted speed, flags; RoadNetworkBuilder.appendGeometry reads these) and its
/// name and ref as ids into the builder's table of distinct way strings — 24 bytes instead of the profiles' whole
/// attributes, two strings and the way's guidance (kept aside when not empty).
package struct AcceptedWay {
    /// The way's index in the OSM source.
    package var way: Int32
    /// The name and ref: ids into `WayStrings` (of the way's range while profiling, of the whole build after the join).
    package var name: UInt32
    package var ref: UInt32
    /// The first profile's flags, used for a profile that does not take the way.
    package var flags: EdgeFlags
    package var roadClass: RoadClass
    /// Whether the way is a ferry with a `duration` (its edges then share the crossing time by length).
    package var hasFerryDuration: Bool
    /// `WayAttributes.maxspeedKmh` of the first profile that takes the way.
    package var maxspeedKmh: Double

    package init(way: Int, attributes: WayAttributes, name: UInt32, ref: UInt32) {
        self.way = Int32(way)
        roadClass = attributes.roadClass
        maxspeedKmh = attributes.maxspeedKmh
        flags = attributes.flags
        hasFerryDuration = attributes.ferryDurationSeconds != nil
        self.name = name
        self.ref = ref
    }
}

/// Distinct values, each stored once, by id in the order first added (way names and refs; ProfileWay records).
package struct DistinctValues<Value, Key: Hashable> {
    private(set) var values: [Value] = []
    private var ids: [Key: UInt32] = [:]
    private let key: (Value) -> Key

    package init(key: @escaping (Value) -> Key) { self.key = key }

    /// The id of `value`, added if new.
    package mutating func id(_ value: Value) -> UInt32 {
        let k = key(value)
        if let id = ids[k] { return id }
        let id = UInt32(values.count)
        values.append(value)
        ids[k] = id
        return id
    }

    package subscript(id: UInt32) -> Value { values[Int(id)] }
}

package typealias WayStrings = DistinctValues<String, String>
package typealias ProfileWayRecords = DistinctValues<ProfileWay, ProfileWay.Key>

extension DistinctValues where Value == String, Key == String {
    package init() { self.init(key: { $0 }) }
}

extension DistinctValues where Value == ProfileWay, Key == ProfileWay.Key {
    package init() { self.init(key: { $0.key }) }
}

/// One profile's part of an accepted way, as its edges' times and flags need it: one flat record per way and profile
/// (`ProfileWay.none` where the profile does not take the way).
package struct ProfileWay {
    package var speedKmhForward: Double
    package var speedKmhBackward: Double
    /// Ferry crossing time for the whole way in seconds; meaningful when `hasFerryDuration`.
    package var ferryDurationSeconds: Double
    package var flags: EdgeFlags
    package var forward: Bool
    package var backward: Bool
    package var hasFerryDuration: Bool
    /// Whether the profile takes the way at all.
    package var accepts: Bool

    package static let none = ProfileWay(speedKmhForward: 0, speedKmhBackward: 0, ferryDurationSeconds: 0, flags: [], forward: false,
                                 backward: false, hasFerryDuration: false, accepts: false)
}

extension ProfileWay {
    /// The record of a profile's attributes for a way, `none` when the profile does not take it.
    package init(_ attributes: WayAttributes?) {
        guard let attributes else { self = .none; return }
        self.init(speedKmhForward: attributes.speedKmhForward, speedKmhBackward: attributes.speedKmhBackward,
                  ferryDurationSeconds: attributes.ferryDurationSeconds ?? 0, flags: attributes.flags, forward: attributes.forward,
                  backward: attributes.backward, hasFerryDuration: attributes.ferryDurationSeconds != nil, accepts: true)
    }
}

extension ProfileWay {
    /// Every field, the speeds and durations by their bit patterns (so that only identical records share an id).
    package struct Key: Hashable {
        package var speedForward: UInt64, speedBackward: UInt64, ferryDuration: UInt64
        package var flags: UInt16
        package var bits: UInt8
    }

    package var key: Key {
        Key(speedForward: speedKmhForward.bitPattern, speedBackward: speedKmhBackward.bitPattern,
            ferryDuration: ferryDurationSeconds.bitPattern, flags: flags.rawValue,
            bits: (forward ? 1 : 0) | (backward ? 2 : 0) | (hasFerryDuration ? 4 : 0) | (accepts ? 8 : 0))
    }
}
