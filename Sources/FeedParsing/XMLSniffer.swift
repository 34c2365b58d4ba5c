/// Tells from a document's first bytes whether it is XML, so a feed saved under any name (`.rdf`, `.php`, no
/// extension at all) is read as a feed. The root element then decides which feed format it is, as it does
/// for the feed provider; a document that is XML but no feed fails there with the parser's message.
public enum XMLSniffer {
    /// True when, after optional byte order marks and white space, the bytes start with `<` and then `?`
    /// (a declaration), `!` (a comment or DOCTYPE) or a name (the root element); also when an XML
    /// declaration comes after a few stray bytes. UTF-8 and UTF-16 (with or without a byte order mark).
    public static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        var units = CodeUnits(bytes)
        while let unit = units.peek, unit == 0xFEFF || unit == 0x20 || unit == 0x09 || unit == 0x0A || unit == 0x0D {
            units.advance()
        }
        if units.peek == UInt32(UInt8(ascii: "<")), let next = units.peek(at: 1) {
            return next == UInt32(UInt8(ascii: "?")) || next == UInt32(UInt8(ascii: "!")) || isNameStart(next)
        }
        // Stray bytes before the declaration (a BOM in another encoding, a byte a CMS put there).
        let declaration = Array("<?xml".utf8)
        let window = bytes.prefix(16 + declaration.count)
        return window.indices.contains { start in window[start...].starts(with: declaration) }
    }

    private static func isNameStart(_ unit: UInt32) -> Bool {
        (unit | 0x20) >= UInt32(UInt8(ascii: "a")) && (unit | 0x20) <= UInt32(UInt8(ascii: "z"))
            || unit == UInt32(UInt8(ascii: "_")) || unit == UInt32(UInt8(ascii: ":")) || unit >= 0x80
    }

    /// The bytes as UTF-8 or UTF-16 code units, the encoding told by a byte order mark or by the zero byte
    /// of an ASCII `<` (XML 1.0, appendix F). Only what the sniffing needs: ASCII and the BOM itself.
    private struct CodeUnits {
        enum Encoding { case utf8, utf16LittleEndian, utf16BigEndian }

        let bytes: [UInt8]
        let encoding: Encoding
        var offset = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            switch (bytes.first, bytes.dropFirst().first) {
            case (0xFF, 0xFE), (0x3C, 0x00): encoding = .utf16LittleEndian
            case (0xFE, 0xFF), (0x00, 0x3C): encoding = .utf16BigEndian
            default: encoding = .utf8
            }
        }

        var peek: UInt32? { peek(at: 0) }

        func peek(at distance: Int) -> UInt32? {
            switch encoding {
            case .utf8:
                let start = offset + distance
                guard start < bytes.count else { return nil }
                if bytes[start] == 0xEF, start + 2 < bytes.count, bytes[start + 1] == 0xBB, bytes[start + 2] == 0xBF {
                    return 0xFEFF
                }
                return UInt32(bytes[start])
            case .utf16LittleEndian, .utf16BigEndian:
                let start = offset + 2 * distance
                guard start + 1 < bytes.count else { return nil }
                let (low, high) = encoding == .utf16LittleEndian
                    ? (bytes[start], bytes[start + 1]) : (bytes[start + 1], bytes[start])
                return UInt32(high) << 8 | UInt32(low)
            }
        }

        mutating func advance() {
            switch encoding {
            case .utf8: offset += peek == 0xFEFF ? 3 : 1
            case .utf16LittleEndian, .utf16BigEndian: offset += 2
            }
        }
    }
}
