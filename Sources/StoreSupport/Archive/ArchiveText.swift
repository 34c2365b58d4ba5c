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
    /// space (Unicode's White_Space) folded to one space, none at either end. For the index and for snippets, not
    /// for showing the page. Works on the UTF-8 bytes: every run archives each item's fields through it.
    public static func stripMarkup(_ html: String) -> String {
        var html = html
        return html.withUTF8 { bytes in
            var result = [UInt8]()
            result.reserveCapacity(bytes.count)
            var lastWasSpace = true
            /// Appends one character's UTF-8 `bytes`, or one space for a run of white space.
            func put<Bytes: Sequence<UInt8>>(_ bytes: Bytes, whiteSpace: Bool) {
                if whiteSpace {
                    if !lastWasSpace { result.append(UInt8(ascii: " ")) }
                } else {
                    result.append(contentsOf: bytes)
                }
                lastWasSpace = whiteSpace
            }
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "<"), let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) {
                    put(EmptyCollection(), whiteSpace: true)
                    index = close + 1
                } else if byte == UInt8(ascii: "&"),
                          let semicolon = bytes[index..<min(index + 12, bytes.count)].firstIndex(of: UInt8(ascii: ";")),
                          let decoded = entity(bytes[(index + 1)..<semicolon]) {
                    put(String(decoded).utf8, whiteSpace: decoded.properties.isWhitespace)
                    index = semicolon + 1
                } else if byte < 0x80 {
                    put(CollectionOfOne(byte), whiteSpace: byte == 0x20 || (0x09...0x0D).contains(byte))
                    index += 1
                } else {
                    let end = min(index + (byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2), bytes.count)
                    var scalarBytes = bytes[index..<end].makeIterator()
                    var decoder = UTF8()
                    let whiteSpace = if case .scalarValue(let scalar) = decoder.decode(&scalarBytes) {
                        scalar.properties.isWhitespace
                    } else {
                        false
                    }
                    put(bytes[index..<end], whiteSpace: whiteSpace)
                    index = end
                }
            }
            if result.last == UInt8(ascii: " ") { result.removeLast() }
            return String(decoding: result, as: UTF8.self)
        }
    }

    /// The character an entity's name (between `&` and `;`) stands for: the common named ones and numeric ones.
    private static func entity(_ name: Slice<UnsafeBufferPointer<UInt8>>) -> Unicode.Scalar? {
        guard name.count >= 2 else { return nil }
        if name.first == UInt8(ascii: "#") {
            let digits = name.dropFirst()
            let hex = digits.first == UInt8(ascii: "x") || digits.first == UInt8(ascii: "X")
            let text = String(decoding: hex ? digits.dropFirst() : digits, as: UTF8.self)
            return UInt32(text, radix: hex ? 16 : 10).flatMap(Unicode.Scalar.init)
        }
        switch String(decoding: name, as: UTF8.self) {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return " "
        default: return nil
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
