/// Speech Synthesis Markup for announcements, in the form the Mapbox Directions API sends (`ssmlAnnouncement`).
enum SSML {
    /// `text` escaped and wrapped in `<speak><amazon:effect name="drc"><prosody rate="1.08">…`.
    static func announcement(_ text: String) -> String {
        "<speak><amazon:effect name=\"drc\"><prosody rate=\"1.08\">\(escaped(text))</prosody></amazon:effect></speak>"
    }

    /// XML text escaping of `& < > " '`.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(ch)
            }
        }
        return out
    }
}
