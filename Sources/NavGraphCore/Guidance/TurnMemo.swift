import CMemoryAccess
import Foundation

/// What the turn classifier said about turns it has seen, two words per directed edge arriving at a junction (the
/// last two edges left by, newest first): the edge left by and the answer with and without a name change, so a
/// junction a router has classified before costs one read instead of a pass over its roads, even where routes cross
/// it two ways. Only turns made from the arriving edge's plain routing node are kept (a turn restriction's copy of
/// the node sees other entries). The words are the first two of the edge's `MemoLines` line, next to the
/// intersection memo's. One memo serves one step builder (one thread).
final class TurnMemo {
    private let storage: MemoLines
    private let count: Int
    /// Every (type, modifier) a classifier answer can hold, by index.
    private static let types = ManeuverType.allCases
    private static let modifiers = ManeuverModifier.allCases

    package init(lines: MemoLines) {
        storage = lines
        count = lines.count
    }

    /// The classifier's answer for the turn from `incoming` onto `outgoing`, `renamed` saying whether the road taken
    /// changes the announced name; `classify` runs when the memo does not know it.
    @inline(__always) package func answer(incoming: Int, outgoing: Int, renamed: Bool,
                                  classify: () -> (ManeuverType, ManeuverModifier)?) -> (ManeuverType, ManeuverModifier)? {
        guard fits(incoming, outgoing) else { return classify() }
        let found = lookUp(incoming: incoming, outgoing: outgoing, renamed: renamed)
        if found.known { return found.answer }
        let made = classify()
        let code = UInt64(Self.encode(made)) << (renamed ? 48 : 32), key = UInt64(outgoing + 1)
        let pair = storage.line(incoming)
        // A word for this edge keeps its other answer; otherwise the older word goes and the new one comes first.
        if pair[0] & 0xffff_ffff == key {
            pair[0] |= code
        } else if pair[1] & 0xffff_ffff == key {
            pair[1] |= code
        } else {
            pair[1] = pair[0]
            pair[0] = key | code
        }
        return made
    }

    /// Whether the edges fit a word.
    @inline(__always) private func fits(_ incoming: Int, _ outgoing: Int) -> Bool {
        incoming >= 0 && incoming < count && outgoing >= 0 && outgoing < Int(UInt32.max)
    }

    /// Starts loading the line of `incoming` (its intersection memo entries too).
    @inline(__always) func prefetch(_ incoming: Int) {
        if incoming >= 0 && incoming < count { navgraph_prefetch(storage.line(incoming)) }
    }

    /// The classifier's answer for the turn from `incoming` onto `outgoing` when the memo holds it (`known` false
    /// when it does not: then `answer` is nil too).
    @inline(__always) func lookUp(incoming: Int, outgoing: Int, renamed: Bool) -> (known: Bool, answer: (ManeuverType, ManeuverModifier)?) {
        guard fits(incoming, outgoing) else { return (false, nil) }
        let pair = storage.line(incoming), key = UInt64(outgoing + 1)
        let word = pair[0] & 0xffff_ffff == key ? pair[0] : pair[1]
        guard word & 0xffff_ffff == key else { return (false, nil) }
        let code = Int((word >> (renamed ? 48 : 32)) & 0xffff)
        return code == 0 ? (false, nil) : (true, Self.decode(code))
    }

    /// 1 for no maneuver, else 2 + type index * 16 + modifier index.
    package static func encode(_ answer: (ManeuverType, ManeuverModifier)?) -> UInt16 {
        guard let (type, modifier) = answer, let t = types.firstIndex(of: type), let m = modifiers.firstIndex(of: modifier)
        else { return 1 }
        return UInt16(2 + t * 16 + m)
    }

    @inline(__always) package static func decode(_ code: Int) -> (ManeuverType, ManeuverModifier)? {
        guard code >= 2 else { return nil }
        let t = (code - 2) >> 4, m = (code - 2) & 15
        guard t < types.count, m < modifiers.count else { return nil }
        return (types[t], modifiers[m])
    }
}
