/// What the road network builder keeps of one accepted way between profiling and edge splitting: the fields of the
/// first profile that takes it (its class, posted speed, flags; RoadNetworkBuilder.appendGeometry reads these) and its
/// name and ref as ids into the builder's table of distinct way strings — 24 bytes instead of the profiles' whole
/// attributes, two strings and the way's guidance (kept aside when not empty).
struct AcceptedWay {
    /// The way's index in the OSM source.
    var way: Int32
    /// The name and ref: ids into `WayStrings` (of the way's range while profiling, of the whole build after the join).
    var name: UInt32
    var ref: UInt32
    /// The first profile's flags, used for a profile that does not take the way.
    var flags: EdgeFlags
    var roadClass: RoadClass
    /// Whether the way is a ferry with a `duration` (its edges then share the crossing time by length).
    var hasFerryDuration: Bool
    /// `WayAttributes.maxspeedKmh` of the first profile that takes the way.
    var maxspeedKmh: Double

    init(way: Int, attributes: WayAttributes, name: UInt32, ref: UInt32) {
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
struct DistinctValues<Value, Key: Hashable> {
    private(set) var values: [Value] = []
    private var ids: [Key: UInt32] = [:]
    private let key: (Value) -> Key

    init(key: @escaping (Value) -> Key) { self.key = key }

    /// The id of `value`, added if new.
    mutating func id(_ value: Value) -> UInt32 {
        let k = key(value)
        if let id = ids[k] { return id }
        let id = UInt32(values.count)
        values.append(value)
        ids[k] = id
        return id
    }

    subscript(id: UInt32) -> Value { values[Int(id)] }
}

typealias WayStrings = DistinctValues<String, String>
typealias ProfileWayRecords = DistinctValues<ProfileWay, ProfileWay.Key>

extension DistinctValues where Value == String, Key == String {
    init() { self.init(key: { $0 }) }
}

extension DistinctValues where Value == ProfileWay, Key == ProfileWay.Key {
    init() { self.init(key: { $0.key }) }
}

/// One profile's part of an accepted way, as its edges' times and flags need it: one flat record per way and profile
/// (`ProfileWay.none` where the profile does not take the way).
struct ProfileWay {
    var speedKmhForward: Double
    var speedKmhBackward: Double
    /// Ferry crossing time for the whole way in seconds; meaningful when `hasFerryDuration`.
    var ferryDurationSeconds: Double
    var flags: EdgeFlags
    var forward: Bool
    var backward: Bool
    var hasFerryDuration: Bool
    /// Whether the profile takes the way at all.
    var accepts: Bool

    static let none = ProfileWay(speedKmhForward: 0, speedKmhBackward: 0, ferryDurationSeconds: 0, flags: [], forward: false,
                                 backward: false, hasFerryDuration: false, accepts: false)
}

extension ProfileWay {
    /// The record of a profile's attributes for a way, `none` when the profile does not take it.
    init(_ attributes: WayAttributes?) {
        guard let attributes else { self = .none; return }
        self.init(speedKmhForward: attributes.speedKmhForward, speedKmhBackward: attributes.speedKmhBackward,
                  ferryDurationSeconds: attributes.ferryDurationSeconds ?? 0, flags: attributes.flags, forward: attributes.forward,
                  backward: attributes.backward, hasFerryDuration: attributes.ferryDurationSeconds != nil, accepts: true)
    }
}

extension ProfileWay {
    /// Every field, the speeds and durations by their bit patterns (so that only identical records share an id).
    struct Key: Hashable {
        var speedForward: UInt64, speedBackward: UInt64, ferryDuration: UInt64
        var flags: UInt16
        var bits: UInt8
    }

    var key: Key {
        Key(speedForward: speedKmhForward.bitPattern, speedBackward: speedKmhBackward.bitPattern,
            ferryDuration: ferryDurationSeconds.bitPattern, flags: flags.rawValue,
            bits: (forward ? 1 : 0) | (backward ? 2 : 0) | (hasFerryDuration ? 4 : 0) | (accepts ? 8 : 0))
    }
}
