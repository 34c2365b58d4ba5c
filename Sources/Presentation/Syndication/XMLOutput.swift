import Domain
import Foundation

/// Writes well-formed XML 1.0 for the Atom and RSS renderers: text and attribute values escaped, and the
/// characters XML 1.0 forbids (C0 controls but tab, line feed and carriage return; U+FFFE, U+FFFF) dropped,
/// since a single one makes a reader reject the whole document.
struct XMLOutput {
    private(set) var text = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    private var depth = 0

    mutating func open(_ name: String, _ attributes: KeyValuePairs<String, String> = [:]) {
        line("<" + name + Self.attributes(attributes) + ">")
        depth += 1
    }

    mutating func close(_ name: String) {
        depth -= 1
        line("</" + name + ">")
    }

    /// `<name attributes>text</name>`, or `<name attributes/>` when `text` is nil.
    mutating func element(_ name: String, _ text: String? = nil, _ attributes: KeyValuePairs<String, String> = [:]) {
        guard let text else {
            line("<" + name + Self.attributes(attributes) + "/>")
            return
        }
        line("<" + name + Self.attributes(attributes) + ">" + Self.escape(text, quotes: false) + "</" + name + ">")
    }

    private mutating func line(_ content: String) {
        text += String(repeating: "  ", count: depth) + content + "\n"
    }

    private static func attributes(_ attributes: KeyValuePairs<String, String>) -> String {
        attributes.map { " " + $0.key + "=\"" + escape($0.value, quotes: true) + "\"" }.joined()
    }

    static func escape(_ text: String, quotes: Bool) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            // Attribute values normalise raw line breaks and tabs away; character references keep them.
            case "\n" where quotes: out += "&#10;"
            case "\r": out += "&#13;"
            case "\t" where quotes: out += "&#9;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// RFC 822 dates as RSS 2.0 writes them (`Wed, 25 Nov 2026 12:00:00 +0000`), in UTC whatever the machine's
/// time zone and locale.
enum RFC822Date {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func string(from date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        let weekday = weekdays[((parts.weekday ?? 1) - 1 + 7) % 7]
        let month = months[((parts.month ?? 1) - 1 + 12) % 12]
        return "\(weekday), \(two(parts.day)) \(month) \(parts.year ?? 1970) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) +0000"
    }
}
