/// ANSI SGR styles for terminal output; every use goes through `apply`, which is a no-op when colour is off.
enum ANSIStyle: String, Sendable {
    case bold = "1"
    case dim = "2"
    case red = "31"
    case green = "32"
    case yellow = "33"
    case cyan = "36"

    func apply(_ text: String, enabled: Bool) -> String {
        guard enabled, !text.isEmpty else { return text }
        return "\u{1B}[\(rawValue)m\(text)\u{1B}[0m"
    }
}
