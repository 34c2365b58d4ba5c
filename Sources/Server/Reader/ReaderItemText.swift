import App
import Domain
import Foundation

/// What reader apps show of an item from any provider: a feed entry's own HTML, else the item's subtitle and
/// fields as a small escaped HTML page, and the link to open (the item's URL, else its source's page here).
enum ReaderItemText {
    static func html(_ item: Item) -> String {
        for key in ["content", "summary"] {
            if let text = item.fields[key]?.stringValue, !text.isEmpty { return text }
        }
        var html = ""
        if let subtitle = item.subtitle, !subtitle.isEmpty { html += "<p>\(escaped(subtitle))</p>" }
        let rows = item.fields.keys.sorted().compactMap { key -> String? in
            guard let value = item.fields[key], let text = value.stringValue ?? value.scalarText else { return nil }
            return "<tr><th>\(escaped(key))</th><td>\(escaped(text))</td></tr>"
        }
        if !rows.isEmpty { html += "<table>" + rows.joined() + "</table>" }
        return html
    }

    static func author(_ item: Item) -> String? {
        item.fields["author"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    }

    static func link(_ item: ArchivedItem, base: String) -> String {
        item.item.url?.absoluteString ?? base + "/sources/" + item.sourceID
    }

    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}

private extension JSONValue {
    /// A number or a boolean as text; nil for anything else (arrays and objects stay out of the table).
    var scalarText: String? {
        switch self {
        case .int, .double, .bool: displayText
        default: nil
        }
    }
}
