/// What the road network builder keeps of one accepted way between profiling and edge splitting: the fields of the
/// first profile that takes it (its class, posted speed, flags, names; RoadNetworkBuilder.appendEdge reads these) —
/// a few dozen bytes instead of the profiles' whole attributes and the way's guidance (kept aside when not empty).
struct AcceptedWay {
    /// The way's index in the OSM source.
    var way: Int
    var roadClass: RoadClass
    /// `WayAttributes.maxspeedKmh` of the first profile that takes the way.
    var maxspeedKmh: Double
    /// The first profile's flags, used for a profile that does not take the way.
    var flags: EdgeFlags
    /// Whether the way is a ferry with a `duration` (its edges then share the crossing time by length).
    var hasFerryDuration: Bool
    var name: String
    var ref: String

    init(way: Int, attributes: WayAttributes) {
        self.way = way
        roadClass = attributes.roadClass
        maxspeedKmh = attributes.maxspeedKmh
        flags = attributes.flags
        hasFerryDuration = attributes.ferryDurationSeconds != nil
        name = attributes.name
        ref = attributes.ref
    }
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
