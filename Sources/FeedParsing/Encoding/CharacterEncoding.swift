import Foundation

/// How the raw bytes of a feed are turned into the UTF-8 that libxml2 is given.
///
/// We convert the encodings real feeds use ourselves, so that a missing or wrong declaration cannot lose an
/// entry; anything else is handed to libxml2 (iconv) under its declared name.
enum CharacterEncoding: Equatable {
    /// UTF-8, where a byte that is not valid UTF-8 is read as windows-1252 (a Latin-1 feed served as UTF-8,
    /// or with no declaration at all, keeps its accents).
    case utf8
    /// A single-byte encoding converted by table.
    case singleByte(SingleByteTable)
    /// UTF-16 (either byte order): libxml2 decodes it; its bytes are not ASCII-compatible, so no repair.
    case utf16
    /// Another encoding libxml2 knows by this name (Shift_JIS, GB2312, KOI8-R …); ASCII-compatible.
    case declared(String)

    /// Reads a charset label (`ISO-8859-1`, `"utf8"`, `windows-1251`), as given in a declaration or an HTTP
    /// `Content-Type`. Latin-1 and US-ASCII are read as windows-1252, as browsers do: feeds labelled
    /// Latin-1 use the 0x80–0x9F range for curly quotes and dashes far more often than for C1 controls.
    init?(label: String) {
        switch Self.normalized(label) {
        case "": return nil
        case "utf-8", "utf8", "unicode-1-1-utf-8": self = .utf8
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "cp819", "ibm819",
            "us-ascii", "ascii", "windows-1252", "cp1252", "x-cp1252", "iso-8859-15", "latin9":
            self = .singleByte(.windows1252)
        case "windows-1251", "cp1251", "x-cp1251": self = .singleByte(.windows1251)
        case "utf-16", "utf-16le", "utf-16be", "utf16", "ucs-2": self = .utf16
        case let name: self = .declared(name)
        }
    }

    /// The label without surrounding blanks and quotes, its ASCII letters lower-cased (encoding names are ASCII).
    /// On bytes: Foundation's `trimmingCharacters(in:)` and `lowercased()` were 1 % of reading 1,000 small feeds.
    private static func normalized(_ label: String) -> String {
        let bytes = Array(label.utf8)
        let isTrimmed = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x22 || byte == 0x27 }
        guard let first = bytes.firstIndex(where: { !isTrimmed($0) }),
              let last = bytes.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        let lowered = bytes[first...last].map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        return String(decoding: lowered, as: UTF8.self)
    }
}

extension CharacterEncoding {
    /// Picks the encoding of a document from what it and its transport say.
    ///
    /// Order: a byte-order mark, then the HTTP charset and the XML declaration. When those two disagree and
    /// one says UTF-8, the bytes decide (valid non-ASCII UTF-8 in the sample means UTF-8); otherwise the HTTP
    /// charset wins, as RFC 7303 asks. With neither, UTF-8 (which repairs stray single-byte text).
    static func resolve(bom: CharacterEncoding?, http: CharacterEncoding?, declared: CharacterEncoding?,
                        sample: UnsafeBufferPointer<UInt8>) -> CharacterEncoding {
        if let bom {
            // A UTF-8 BOM before a declaration of another encoding (a CMS that prepends one to whatever it
            // serves): the bytes decide, as feedparser's order does (declared first) where they are no UTF-8.
            if bom == .utf8, let declared, declared != .utf8, !UTF8Sniffer.looksLikeUTF8(sample) { return declared }
            return bom
        }
        switch (http, declared) {
        case (nil, nil): return .utf8
        case (let http?, nil): return http
        case (nil, let declared?): return declared
        case (let http?, let declared?):
            if http == declared { return http }
            if http == .utf8 || declared == .utf8 {
                let other = http == .utf8 ? declared : http
                return UTF8Sniffer.looksLikeUTF8(sample) ? .utf8 : other
            }
            return http
        }
    }
}

/// Whether a sample of bytes is UTF-8 with at least one multi-byte sequence and no invalid one.
enum UTF8Sniffer {
    static func looksLikeUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        var sawMultiByte = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                continue
            }
            let length = UTF8Repair.sequenceLength(bytes, at: index)
            if length == 0 { return false }
            if length < 0 { break }  // cut off at the end of the sample
            sawMultiByte = true
            index += length
        }
        return sawMultiByte
    }
}
