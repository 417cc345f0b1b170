/// What guidance keeps of one OSM way besides routing: lane arrows, signposted destinations, exit numbers.
public struct WayGuidance: Sendable, Equatable {
    /// `turn:lanes` of the way's forward and backward directions ("" when untagged), OSM syntax "left|through;right".
    public var turnLanesForward = ""
    public var turnLanesBackward = ""
    /// Signposted destinations per direction, OSRM style "ref, ref: destination, destination" ("" when none).
    public var destinationsForward = ""
    public var destinationsBackward = ""
    /// `junction:ref` of the way (exit number of a motorway link), "" when none.
    public var junctionRef = ""
    /// `lanes` per direction, 0 when unknown.
    public var laneCountForward: UInt8 = 0
    public var laneCountBackward: UInt8 = 0

    public init() {}

    public var isEmpty: Bool { self == WayGuidance() }

    /// Reads the guidance tags of a way; `onewayReversed` says the way is drawn against its only direction (`oneway=-1`).
    public init(tags: OSMTags, isOneway: Bool, onewayReversed: Bool) {
        let plainLanes = tags["turn:lanes"] ?? ""
        turnLanesForward = tags["turn:lanes:forward"] ?? (onewayReversed ? "" : plainLanes)
        turnLanesBackward = tags["turn:lanes:backward"] ?? (onewayReversed ? plainLanes : "")
        func destinations(_ keys: DestinationKeys) -> String {
            let ref = tags[keys.ref] ?? ""
            let names = tags[keys.names] ?? tags[keys.street] ?? ""
            if ref.isEmpty && names.isEmpty { return "" }
            let refs = Self.list(ref), places = Self.list(names)
            if refs.isEmpty { return places }
            return places.isEmpty ? refs : refs + ": " + places
        }
        let plainDestinations = destinations(.plain)
        let forward = destinations(.forward), backward = destinations(.backward)
        destinationsForward = !forward.isEmpty ? forward : (onewayReversed ? "" : plainDestinations)
        destinationsBackward = !backward.isEmpty ? backward : (onewayReversed ? plainDestinations : "")
        junctionRef = tags["junction:ref"].map(Self.list) ?? ""
        let lanes = Int(tags["lanes"] ?? "") ?? 0
        let lanesForward = Int(tags["lanes:forward"] ?? "") ?? (isOneway ? lanes : (lanes > 0 ? lanes / 2 : 0))
        let lanesBackward = Int(tags["lanes:backward"] ?? "") ?? (isOneway ? 0 : (lanes > 0 ? lanes - lanes / 2 : 0))
        laneCountForward = UInt8(clamping: onewayReversed ? lanesBackward : lanesForward)
        laneCountBackward = UInt8(clamping: onewayReversed ? lanesForward : lanesBackward)
    }

    /// The destination keys of one direction ("", ":forward" or ":backward").
    struct DestinationKeys {
        package let ref: String, names: String, street: String
        package init(_ suffix: String) { ref = "destination:ref" + suffix; names = "destination" + suffix; street = "destination:street" + suffix }
        package static let plain = DestinationKeys(""), forward = DestinationKeys(":forward"), backward = DestinationKeys(":backward")
    }

    /// "a;b; c" as "a, b, c".
    package static func list(_ value: String) -> String {
        value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: ", ")
    }
}

/// Traffic controls and other guidance marks on an OSM node, kept per junction and per shape point.
public struct NodeControl: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let trafficSignals = NodeControl(rawValue: 1 << 0)
    public static let stop = NodeControl(rawValue: 1 << 1)
    public static let giveWay = NodeControl(rawValue: 1 << 2)
    public static let tollBooth = NodeControl(rawValue: 1 << 3)
    public static let motorwayJunction = NodeControl(rawValue: 1 << 4)
    /// `railway=level_crossing` (a turn-cost delay, see TurnCosts).
    public static let levelCrossing = NodeControl(rawValue: 1 << 5)
    /// `traffic_signals:direction` (or `direction`) = forward / backward: the signal faces only traffic along / against the way.
    public static let signalsForwardOnly = NodeControl(rawValue: 1 << 6)
    public static let signalsBackwardOnly = NodeControl(rawValue: 1 << 7)

    /// Reads `highway=traffic_signals|stop|give_way|motorway_junction`, `barrier=toll_booth`, `railway=level_crossing`.
    public init(tags: OSMTags) {
        var control: NodeControl = []
        switch tags["highway"] {
        case "traffic_signals": control.insert(.trafficSignals)
        case "stop": control.insert(.stop)
        case "give_way": control.insert(.giveWay)
        case "motorway_junction": control.insert(.motorwayJunction)
        default: break
        }
        if tags["barrier"] == "toll_booth" { control.insert(.tollBooth) }
        if tags["railway"] == "level_crossing" { control.insert(.levelCrossing) }
        if control.contains(.trafficSignals) {
            switch tags["traffic_signals:direction"] ?? tags["direction"] {
            case "forward": control.insert(.signalsForwardOnly)
            case "backward": control.insert(.signalsBackwardOnly)
            default: break
            }
        }
        self = control
    }
}

/// Layout of one guidance record in the `guide.fields` section: string ids, then packed lane counts.
public enum GuideRecord {
    public static let fieldCount = 6
    public static let turnLanesForward = 0, turnLanesBackward = 1, destinationsForward = 2, destinationsBackward = 3
    public static let junctionRef = 4
    /// Lane count forward in the low byte, backward in the next one.
    public static let laneCounts = 5
}
