import Foundation

/// String work the handler does per field: trimming, escaping markup back, resolving URLs.
enum FeedText {
    /// Trims XML whitespace. Most values have none, so that case costs two byte looks and no copy.
    static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last else { return text }
        guard isSpace(first) || isSpace(last) else { return text }
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, isSpace(utf8[start]) { start = utf8.index(after: start) }
        while end > start, isSpace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        return String(text[start..<end])
    }

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// Appends text as it must appear inside HTML markup (the parser unescaped it), as UTF-8.
    /// Byte by byte: `&`, `<`, `>` and `"` never occur inside a multi-byte sequence of valid UTF-8. The bytes
    /// between two that need escaping are skipped with one table look each and appended in one piece.
    static func appendEscaped(_ text: String, to buffer: inout [UInt8], quotes: Bool = false) {
        var text = text
        text.withUTF8 { appendEscaped($0, to: &buffer, quotes: quotes) }
    }

    /// The same for text that is still UTF-8 bytes (a text node's, straight from the parser).
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8], quotes: Bool = false) {
        let mask: UInt8 = quotes ? 0b11 : 0b01
        escapeClasses.withUnsafeBufferPointer { classes in
            let count = bytes.count
            var start = 0
            var index = 0
            while true {
                while index < count, classes[Int(bytes[index])] & mask == 0 { index += 1 }
                guard index < count else { break }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                let escape: StaticString = switch bytes[index] {
                case 0x26: "&amp;"
                case 0x3C: "&lt;"
                case 0x3E: "&gt;"
                default: "&quot;"
                }
                escape.withUTF8Buffer { buffer.append(contentsOf: $0) }
                index += 1
                start = index
            }
            if start == 0 {
                buffer.append(contentsOf: bytes)
            } else if start < count {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            }
        }
    }

    /// For each byte: 1 when text must escape it, 2 when an attribute value must too (`"`).
    private static let escapeClasses: [UInt8] = (0..<256).map { byte in
        switch byte {
        case 0x26, 0x3C, 0x3E: 0b01
        case 0x22: 0b10
        default: 0
        }
    }

    /// A URL from feed text, resolved against `base` when relative. An empty reference is the base itself
    /// (RFC 3986 §5.2), without its fragment.
    static func url(_ text: String, base: URL?) -> URL? {
        if text.hasPrefix("https://") || text.hasPrefix("http://") {
            return URL(string: text) ?? URL(string: text, encodingInvalidCharacters: true)
        }
        guard let base else { return text.isEmpty ? nil : URL(string: text) }
        if text.isEmpty {
            guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else { return base }
            components.fragment = nil
            return components.url ?? base
        }
        let relative = URL(string: text, relativeTo: base) ?? URL(string: text, encodingInvalidCharacters: true)
        return relative?.absoluteURL
    }

    /// Makes relative `href` and `src` attribute values in HTML absolute against `base`, as an explicit
    /// `xml:base` asks. Values that already have a scheme, and fragments, are left alone.
    static func resolvingRelativeURLs(inHTML html: String, base: URL) -> String {
        guard html.contains("href=") || html.contains("src=") || html.contains("HREF=") || html.contains("SRC=") else {
            return html
        }
        var result = ""
        result.reserveCapacity(html.utf8.count + 64)
        var rest = html[...]
        while let match = nextAttribute(in: rest) {
            result += rest[rest.startIndex..<match.valueStart]
            let value = String(rest[match.valueStart..<match.valueEnd])
            if !hasScheme(value), !value.hasPrefix("#"), let resolved = url(value, base: base) {
                result += resolved.absoluteString
            } else {
                result += value
            }
            rest = rest[match.valueEnd...]
        }
        result += rest
        return result
    }

    private static func nextAttribute(in text: Substring) -> (valueStart: String.Index, valueEnd: String.Index)? {
        var search = text
        while let equals = search.firstIndex(of: "=") {
            let name = text[text.startIndex..<equals].suffix(4).lowercased()
            let afterEquals = text.index(after: equals)
            if name.hasSuffix("href") || name.hasSuffix("src"), afterEquals < text.endIndex,
                let quote = Optional(text[afterEquals]), quote == "\"" || quote == "'"
            {
                let valueStart = text.index(after: afterEquals)
                if let close = text[valueStart...].firstIndex(of: quote) { return (valueStart, close) }
            }
            search = text[afterEquals...]
        }
        return nil
    }

    private static func hasScheme(_ value: String) -> Bool {
        guard let colon = value.firstIndex(of: ":") else { return false }
        let scheme = value[..<colon]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
    }
}
