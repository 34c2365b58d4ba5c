import Domain
import Foundation

/// What both stores write for an archived item, the same way: the text the full-text index reads besides the
/// title, subtitle and URL (`body`), and the item's fields as stored.
public enum ArchiveText {
    /// The most characters of an item's body the index reads.
    public static let maxBodyLength = 32_768

    /// The text of `item`'s fields: every string among them (a feed entry's summary and content, a record's
    /// values, tags), markup taken out, in field order, up to `maxBodyLength` characters. Strings the title,
    /// subtitle, id or URL already hold, and dates, are left out: they would make every item of a feed match its
    /// feed's title.
    public static func body(of item: Item) -> String {
        var text = ""
        let known: Set<String> = [item.title, item.subtitle ?? "", item.id, item.url?.absoluteString ?? ""]
        func add(_ value: JSONValue) {
            guard text.utf8.count < maxBodyLength else { return }
            switch value {
            case .string(let string):
                guard !known.contains(string), !isDate(string) else { return }
                let plain = string.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") })
                    ? stripMarkup(string) : string
                guard !plain.isEmpty else { return }
                if !text.isEmpty { text += "\n" }
                text += plain
            case .array(let values):
                values.forEach(add)
            default:
                break
            }
        }
        for (_, value) in item.fields { add(value) }
        return text.utf8.count > maxBodyLength ? String(text.prefix(maxBodyLength)) : text
    }

    /// An ISO 8601 date-time as fields carry them (`2026-11-20T08:00:00Z`).
    private static func isDate(_ string: String) -> Bool {
        let bytes = string.utf8
        return bytes.count >= 10 && bytes.count <= 40 && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes.first!)
            && ISO8601.date(from: string) != nil
    }

    /// `html` as text: tags dropped (a block-level one leaves a space), the common entities decoded, white
    /// space folded. For the index and for snippets, not for showing the page.
    public static func stripMarkup(_ html: String) -> String {
        var result = ""
        result.reserveCapacity(html.utf8.count)
        var index = html.startIndex
        var lastWasSpace = true
        func append(_ character: Character) {
            if character.isWhitespace {
                if !lastWasSpace { result.append(" ") }
                lastWasSpace = true
            } else {
                result.append(character)
                lastWasSpace = false
            }
        }
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let close = html[index...].firstIndex(of: ">") {
                append(" ")
                index = html.index(after: close)
                continue
            }
            if character == "&", let semicolon = html[index...].prefix(12).firstIndex(of: ";"),
               let decoded = entity(html[html.index(after: index)..<semicolon]) {
                append(decoded)
                index = html.index(after: semicolon)
                continue
            }
            append(character)
            index = html.index(after: index)
        }
        if result.last == " " { result.removeLast() }
        return result
    }

    private static func entity(_ name: Substring) -> Character? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos", "#39": return "'"
        case "nbsp": return " "
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.hasPrefix("x") || digits.hasPrefix("X")
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init).map(Character.init)
        }
    }

    /// `fields` as stored: compact JSON.
    public static func encode(_ fields: JSONObject) -> [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.value(.object(fields))
        return writer.bytes
    }

    /// Fields as `encode` stored them (an unreadable value reads as none).
    public static func decodeFields(_ data: Data) -> JSONObject {
        (try? JSONValue.parse(data))?.objectValue ?? [:]
    }
}
