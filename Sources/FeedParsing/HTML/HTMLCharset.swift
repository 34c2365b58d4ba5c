import Foundation

/// The encoding of an HTML page, and its bytes as libxml2's HTML parser is given them.
///
/// Order, as browsers do it: a byte-order mark, then the HTTP charset, then what the page says of itself in its
/// first bytes (`<meta charset>`, `<meta http-equiv="Content-Type" content="…; charset=…">`, an XML
/// declaration). When the HTTP charset and the page disagree and one says UTF-8, the bytes decide
/// (`CharacterEncoding.resolve`, as for feeds). Nothing said at all: UTF-8, where a byte that is no UTF-8 is read
/// as windows-1252, so a Latin-1 page served without a charset keeps its accents.
///
/// UTF-8 and the single-byte encodings real pages use are converted here and handed over as UTF-8; any other
/// encoding libxml2 decodes by name. libxml2 is told to ignore the page's own declarations either way
/// (`HTML_PARSE_IGNORE_ENC`): the choice is made once, here.
struct HTMLCharset {
    /// The bytes for libxml2.
    var bytes: [UInt8]
    /// The encoding name libxml2 reads `bytes` in.
    var libxmlEncoding: String

    /// How far into the page its own declaration is looked for: the HTML standard's prescan reads 1024 bytes;
    /// real pages put scripts and comments first often enough that more is worth reading.
    static let prescanSize = 4096

    init(_ data: Data, httpCharset: String?) {
        let http = httpCharset.flatMap(CharacterEncoding.init(label:))
        (bytes, libxmlEncoding) = data.withUnsafeBytes { raw in
            let all = raw.bindMemory(to: UInt8.self)
            var start = 0
            var bom: CharacterEncoding?
            if all.starts(with: [0xEF, 0xBB, 0xBF]) {
                bom = .utf8
                start = 3
            } else if all.starts(with: [0xFF, 0xFE]) || all.starts(with: [0xFE, 0xFF]) {
                bom = .utf16
            }
            let body = UnsafeBufferPointer(rebasing: all[start...])
            let head = UnsafeBufferPointer(rebasing: body.prefix(Self.prescanSize))
            let declared = bom == nil ? Self.declaredLabel(in: head).flatMap(CharacterEncoding.init(label:)) : nil
            // A page cannot declare UTF-16 in ASCII bytes it can read: such a declaration means UTF-8 (HTML standard).
            let pageSays = declared == .utf16 ? .utf8 : declared
            let chosen = CharacterEncoding.resolve(bom: bom, http: http == .utf16 ? nil : http, declared: pageSays, sample: head)
            switch chosen {
            case .utf8:
                var out: [UInt8] = []
                out.reserveCapacity(body.count)
                _ = UTF8Repair.appendRepairing(body, final: true, to: &out)
                return (out, "UTF-8")
            case .singleByte(let table):
                var out: [UInt8] = []
                table.appendUTF8(body, to: &out)
                return (out, "UTF-8")
            case .declared(let name):
                return (Array(body), name)
            case .utf16:
                return (Array(all), all.starts(with: [0xFE, 0xFF]) ? "UTF-16BE" : "UTF-16LE")
            }
        }
    }

    /// The charset a page declares in its first bytes: the first `<meta>` that names one, else an XML declaration.
    static func declaredLabel(in head: UnsafeBufferPointer<UInt8>) -> String? {
        // ASCII-lowercased text of the head; other bytes become spaces (they can be part of no name or keyword).
        let text = String(decoding: head.map { byte -> UInt8 in
            if byte >= 0x80 { return 0x20 }
            return byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
        }, as: UTF8.self)
        var rest = text[...]
        while let open = rest.range(of: "<meta") {
            let tail = rest[open.upperBound...]
            let close = tail.firstIndex(of: ">") ?? tail.endIndex
            if let label = charsetValue(in: tail[..<close]) { return label }
            rest = tail[close...]
        }
        if let start = text.range(of: "<?xml"), let end = text[start.upperBound...].range(of: "?>") {
            return FeedTranscoder.encodingLabel(in: String(text[start.lowerBound..<end.lowerBound]))
        }
        return nil
    }

    /// `charset=VALUE` inside a `<meta …>` tag: the attribute (`charset="utf-8"`) or the parameter inside
    /// `content="text/html; charset=iso-8859-1"`.
    private static func charsetValue(in tag: Substring) -> String? {
        guard let found = tag.range(of: "charset") else { return nil }
        var rest = tag[found.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
        if let quote = rest.first, quote == "\"" || quote == "'" { rest = rest.dropFirst() }
        let value = rest.prefix { !"\"'; \t\r\n/>".contains($0) }
        return value.isEmpty ? nil : String(value)
    }
}
