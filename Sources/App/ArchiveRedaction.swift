import Domain
import Foundation
import HTTPClient

/// What the store keeps of a run's items: a URL carrying a credential (a password, a secret query value such as
/// `token=` or `api_key=`), as the item's `url` or as a string anywhere in its `fields`, is kept redacted
/// (`Redactor`, as in every message and log line), so no secret reaches the item archive, its search index or
/// what serve and the reader APIs show from it. The run's own output keeps the items as the provider gave them.
enum ArchiveRedaction {
    static func redacted(_ items: [Item]) -> [Item] {
        items.map(redacted)
    }

    static func redacted(_ item: Item) -> Item {
        var copy = item
        if let url = item.url, mayCarryCredential(url.absoluteString), let text = redactedText(url) {
            copy.url = URL(string: text) ?? url
        }
        if hasCredentialURL(item.fields) {
            copy.fields = item.fields.mapValues(redacted)
        }
        return copy
    }

    private static func redacted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text) where mayCarryCredential(text):
            guard let url = URL(string: text), let redacted = redactedText(url) else { return value }
            return .string(redacted)
        case .array(let values): return .array(values.map(redacted))
        case .object(let object): return .object(object.mapValues(redacted))
        default: return value
        }
    }

    /// `url` redacted, or nil when it carries no credential (it stays as it was, not re-encoded).
    private static func redactedText(_ url: URL) -> String? {
        let text = Redactor.redact(url)
        return text.contains("***") && text != url.absoluteString ? text : nil
    }

    private static func hasCredentialURL(_ object: JSONObject) -> Bool {
        object.contains { hasCredentialURL($0.value) }
    }

    private static func hasCredentialURL(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): mayCarryCredential(text)
        case .array(let values): values.contains(where: hasCredentialURL)
        case .object(let object): hasCredentialURL(object)
        default: false
        }
    }

    /// An absolute http(s) URL with a query or user information: only such a text is parsed. Read byte by byte,
    /// making no string: every string field of every archived item passes here.
    private static func mayCarryCredential(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count > 8 else { return false }
        var index = utf8.startIndex
        for expected in "http".utf8 {
            guard utf8[index] | 0x20 == expected else { return false }  // ASCII letters, either case
            index = utf8.index(after: index)
        }
        if utf8[index] | 0x20 == UInt8(ascii: "s") { index = utf8.index(after: index) }
        for expected in "://".utf8 {
            guard utf8[index] == expected else { return false }
            index = utf8.index(after: index)
        }
        return utf8[index...].contains { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "@") }
    }
}
