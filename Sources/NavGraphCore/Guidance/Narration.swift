/// The seam between the language-neutral steps and their words: the text layer implements `StepNarrator` per
/// locale; the output layer writes what it returns. Plain `Sendable` values.

/// A spoken instruction, Mapbox Directions `voiceInstructions` entry.
public struct VoiceInstruction: Sendable, Equatable {
    /// Metres before the end of the step at which to speak it (counts down within the step).
    public var distanceAlongGeometry: Double
    public var announcement: String
    /// The same text as SSML (`<speak><amazon:effect name="drc"><prosody rate="1.08">...</prosody></amazon:effect></speak>`).
    public var ssmlAnnouncement: String

    public init(distanceAlongGeometry: Double, announcement: String, ssmlAnnouncement: String) {
        self.distanceAlongGeometry = distanceAlongGeometry; self.announcement = announcement; self.ssmlAnnouncement = ssmlAnnouncement
    }
}

/// One piece of a banner's text, Mapbox `components` entry.
public struct BannerComponent: Sendable, Equatable {
    /// "text", "icon", "delimiter", "exit-number", "exit", "lane", "guidance-view"
    public var type: String
    public var text: String
    /// Shorter form of `text` when space is tight.
    public var abbreviation: String?
    public var abbreviationPriority: Int?
    /// For lane components: the lane's indications; `active` says whether it is usable for the maneuver.
    public var directions: [String]?
    public var active: Bool?
    /// For lane components: the indication the maneuver uses (Mapbox `active_direction`).
    public var activeDirection: String?

    public init(type: String, text: String, abbreviation: String? = nil, abbreviationPriority: Int? = nil,
                directions: [String]? = nil, active: Bool? = nil, activeDirection: String? = nil) {
        self.type = type; self.text = text; self.abbreviation = abbreviation; self.abbreviationPriority = abbreviationPriority
        self.directions = directions; self.active = active; self.activeDirection = activeDirection
    }
}

/// The content of one banner row (`primary`, `secondary` or `sub`).
public struct BannerContent: Sendable, Equatable {
    public var text: String
    /// Maneuver type wire string (nil on lane-only `sub` rows).
    public var type: String?
    public var modifier: String?
    /// Roundabout exit angle in degrees, 0...360, on roundabout maneuvers.
    public var degrees: Double?
    /// "left" or "right": the roundabout's driving side.
    public var drivingSide: String?
    public var components: [BannerComponent]

    public init(text: String, type: String?, modifier: String?, degrees: Double? = nil, drivingSide: String? = nil,
                components: [BannerComponent]) {
        self.text = text; self.type = type; self.modifier = modifier; self.degrees = degrees
        self.drivingSide = drivingSide; self.components = components
    }
}

/// A visual instruction, Mapbox Directions `bannerInstructions` entry.
public struct BannerInstruction: Sendable, Equatable {
    /// Metres before the end of the step at which to show it.
    public var distanceAlongGeometry: Double
    public var primary: BannerContent
    public var secondary: BannerContent?
    public var sub: BannerContent?

    public init(distanceAlongGeometry: Double, primary: BannerContent, secondary: BannerContent? = nil, sub: BannerContent? = nil) {
        self.distanceAlongGeometry = distanceAlongGeometry; self.primary = primary; self.secondary = secondary; self.sub = sub
    }
}

/// Words for steps in one language and unit system. Implementations are immutable and thread-safe.
public protocol StepNarrator: Sendable {
    /// The BCP-47 tag actually used (after fallback), e.g. "de" for a "de-AT" request without an Austrian phrasebook.
    var voiceLocale: String { get }
    /// `maneuver.instruction` of `steps[index]`.
    func instruction(steps: [GuidanceStep], index: Int) -> String
    /// `instruction(steps:index:)` handed to `body` as UTF-8 valid only during the call (`body` is called once).
    func withInstruction(steps: [GuidanceStep], index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void)
    /// Voice announcements for `steps[index]`, spoken while driving that step, ordered by decreasing distance.
    func voiceInstructions(steps: [GuidanceStep], index: Int) -> [VoiceInstruction]
    /// `voiceInstructions(steps:index:)` handed to `body` one by one as distance, announcement and SSML, the texts as
    /// UTF-8 valid only during the call: what a writer streams without keeping the Strings.
    func forEachVoiceInstruction(steps: [GuidanceStep], index: Int,
                                 _ body: (Double, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Void)
    /// Banners shown while driving `steps[index]`, ordered by decreasing distance.
    func bannerInstructions(steps: [GuidanceStep], index: Int) -> [BannerInstruction]
}

extension StepNarrator {
    /// By way of `instruction(steps:index:)`.
    public func withInstruction(steps: [GuidanceStep], index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var text = instruction(steps: steps, index: index)
        text.withUTF8 { body($0) }
    }

    /// By way of `voiceInstructions(steps:index:)`.
    public func forEachVoiceInstruction(steps: [GuidanceStep], index: Int,
                                        _ body: (Double, UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Void) {
        for voice in voiceInstructions(steps: steps, index: index) {
            var announcement = voice.announcement, ssml = voice.ssmlAnnouncement
            announcement.withUTF8 { text in ssml.withUTF8 { body(voice.distanceAlongGeometry, text, $0) } }
        }
    }
}
