/// Turns a feed's raw bytes, chunk by chunk, into the UTF-8 XML libxml2 is given.
///
/// The prolog (byte-order mark, XML declaration) decides the encoding together with the HTTP charset (see
/// `CharacterEncoding.resolve`). Text we convert ourselves loses its declaration (the output is UTF-8, which
/// needs none); whitespace is kept so libxml2's line numbers still match the original document. Every
/// ASCII-compatible stream then goes through `MarkupRepair`.
struct FeedTranscoder {
    /// Bytes examined before the encoding is decided: enough for any real XML declaration.
    private static let prologSize = 1024

    private let httpEncoding: CharacterEncoding?
    private var encoding: CharacterEncoding?
    private var head: [UInt8] = []
    /// Raw bytes not decoded yet (a UTF-8 sequence cut by the chunk's end).
    private var rawCarry: [UInt8] = []
    /// Decoded bytes waiting for the repair pass, which needs lookahead across chunk ends.
    private var decoded: [UInt8] = []
    private var repair = MarkupRepair()

    init(httpCharset: String?) {
        self.httpEncoding = httpCharset.flatMap(CharacterEncoding.init(label:))
    }

    /// The encoding chosen, once the prolog has been read.
    var chosenEncoding: CharacterEncoding? { encoding }
    /// Bytes before the document's real start that were dropped (a comment, a stray byte, a broken
    /// declaration before the real one): 0 when the document started where it should.
    private(set) var skippedLeadingBytes = 0

    /// Appends the UTF-8 XML for `chunk` to `out`. Call once more with `final: true` (and any last bytes).
    mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout [UInt8]) {
        guard let encoding else {
            if head.isEmpty, chunk.count >= Self.prologSize || final {
                startBody(chunk, final: final, into: &out)  // the whole prolog in one chunk: read where it lies
                return
            }
            head.append(contentsOf: chunk)
            guard head.count >= Self.prologSize || final else { return }
            let bytes = head
            head = []
            bytes.withUnsafeBufferPointer { startBody($0, final: final, into: &out) }
            return
        }
        decodeAndRepair(chunk, as: encoding, final: final, into: &out)
    }

    /// Decodes `chunk` and repairs what is decoded into `out`. UTF-8 that is valid, with nothing held back from
    /// the chunk before, is repaired where it lies: only what the repair leaves for the next chunk is copied.
    private mutating func decodeAndRepair(
        _ chunk: UnsafeBufferPointer<UInt8>, as encoding: CharacterEncoding, final: Bool, into out: inout [UInt8]
    ) {
        if encoding == .utf8, decoded.isEmpty, rawCarry.isEmpty, UTF8Repair.isValid(chunk) {
            let consumed = repair.process(chunk, final: final, into: &out)
            decoded.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[consumed...]))
            return
        }
        decode(chunk, as: encoding, final: final)
        repairDecoded(final: final, into: &out)
    }

    // MARK: - Prolog

    private mutating func startBody(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout [UInt8]) {
        var start = 0
        var bom: CharacterEncoding?
        if Self.hasPrefix(bytes, [0xEF, 0xBB, 0xBF]) {
            bom = .utf8
            start = 3
        } else if Self.hasPrefix(bytes, [0xFF, 0xFE]) || Self.hasPrefix(bytes, [0xFE, 0xFF])
            || Self.hasPrefix(bytes, [0x3C, 0x00, 0x3F, 0x00]) || Self.hasPrefix(bytes, [0x00, 0x3C, 0x00, 0x3F])
        {
            // UTF-16: libxml2 detects and decodes it; nothing of ours applies to its bytes.
            encoding = .utf16
            out.append(contentsOf: bytes)
            return
        }
        var position = start
        var newlines = 0
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) {
            if bytes[position] == 0x0A { newlines += 1 }
            position += 1
        }
        // Anything before a well-formed declaration further on (a comment, a stray byte, a broken declaration)
        // is not part of the document: libxml2 would ignore the declared encoding after it, drop entries and
        // miss a truncation. It is dropped, newlines kept for line numbers, and counted for a warning.
        var leadingNewlines = 0  // of dropped junk, written back as plain newlines
        if let real = Self.declarationStart(in: bytes, from: position), real > position {
            for index in position..<real where bytes[index] == 0x0A { leadingNewlines += 1 }
            skippedLeadingBytes = real - position
            newlines += leadingNewlines
            position = real
        }
        let leading = skippedLeadingBytes > 0
            ? [UInt8](repeating: 0x0A, count: newlines) : Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        var declarationEnd: Int?
        var declared: CharacterEncoding?
        if Self.hasPrefix(UnsafeBufferPointer(rebasing: bytes[position...]), Array("<?xml".utf8)),
            position + 5 < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position + 5]),
            let close = Self.find(Array("?>".utf8), in: bytes, from: position)
        {
            declarationEnd = close + 2
            let declaration = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<close]), as: UTF8.self)
            declared = Self.encodingLabel(in: declaration).flatMap(CharacterEncoding.init(label:))
        }
        let chosen = CharacterEncoding.resolve(
            bom: bom, http: httpEncoding, declared: declared, sample: UnsafeBufferPointer(rebasing: bytes[start...]))
        encoding = chosen

        switch chosen {
        case .utf8, .singleByte:
            // Converted to UTF-8 by us: the declaration goes (it would name the old encoding), the whitespace
            // before it stays (legal without a declaration, and it keeps line numbers).
            leading.withUnsafeBufferPointer { decode($0, as: chosen, final: false) }
            decodeAndRepair(
                UnsafeBufferPointer(rebasing: bytes[(declarationEnd ?? position)...]), as: chosen, final: final, into: &out)
            return
        case .declared(let name):
            // libxml2 decodes it: the declaration must come first and name the encoding (it may have come
            // from HTTP only). Newlines after it keep line numbers.
            out.append(contentsOf: Array("<?xml version=\"1.0\" encoding=\"\(name)\"?>".utf8))
            out.append(contentsOf: [UInt8](repeating: 0x0A, count: newlines))
            decode(UnsafeBufferPointer(rebasing: bytes[(declarationEnd ?? position)...]), as: chosen, final: final)
        case .utf16:
            out.append(contentsOf: bytes)
            return
        }
        repairDecoded(final: final, into: &out)
    }

    // MARK: - Decoding

    private mutating func decode(_ chunk: UnsafeBufferPointer<UInt8>, as encoding: CharacterEncoding, final: Bool) {
        switch encoding {
        case .utf8:
            if rawCarry.isEmpty {
                decodeUTF8(chunk, final: final)
            } else {
                let joined = rawCarry + Array(chunk)
                rawCarry = []
                joined.withUnsafeBufferPointer { decodeUTF8($0, final: final) }
            }
        case .singleByte(let table):
            decodeSingleByte(chunk, table: table)
        case .declared, .utf16:
            decoded.append(contentsOf: chunk)
        }
    }

    private mutating func decodeUTF8(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool) {
        let end = UTF8Repair.appendRepairing(bytes, final: final, to: &decoded)
        if end < bytes.count { rawCarry = Array(bytes[end...]) }
    }

    private mutating func decodeSingleByte(_ bytes: UnsafeBufferPointer<UInt8>, table: SingleByteTable) {
        table.appendUTF8(bytes, to: &decoded)
    }

    private mutating func repairDecoded(final: Bool, into out: inout [UInt8]) {
        if encoding == .utf16 {
            out.append(contentsOf: decoded)
            decoded.removeAll(keepingCapacity: true)
            return
        }
        let finalNow = final && rawCarry.isEmpty
        let consumed = decoded.withUnsafeBufferPointer { repair.process($0, final: finalNow, into: &out) }
        decoded.removeFirst(consumed)
        if final, !rawCarry.isEmpty {
            // A UTF-8 sequence cut off by the end of the document: decode what is left as windows-1252.
            let rest = rawCarry
            rawCarry = []
            rest.withUnsafeBufferPointer { decodeUTF8($0, final: true) }
            repairDecoded(final: true, into: &out)
        }
    }

    // MARK: - Helpers

    /// Where the first well-formed XML declaration at or after `start` begins: `<?xml`, white space, then
    /// printable ASCII up to `?>` (a declaration holds nothing else). Nil when the prolog has none.
    static func declarationStart(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let opening = Array("<?xml".utf8)
        var search = start
        while let found = find(opening, in: bytes, from: search) {
            search = found + 1
            guard found + 5 < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[found + 5]),
                  let close = find(Array("?>".utf8), in: bytes, from: found + 5)
            else { continue }
            if bytes[(found + 5)..<close].allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }),
               !bytes[(found + 5)..<close].contains(UInt8(ascii: "<"))
            {
                return found
            }
        }
        return nil
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Bool {
        bytes.count >= prefix.count && zip(bytes, prefix).allSatisfy { $0 == $1 }
    }

    private static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0], zip(bytes[index...], needle).allSatisfy({ $0 == $1 }) { return index }
            index += 1
        }
        return nil
    }

    /// The value of `encoding="…"` in an XML declaration.
    static func encodingLabel(in declaration: String) -> String? {
        let bytes = Array(declaration.utf8)
        let name = Array("encoding".utf8)
        guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: name) }) else { return nil }
        var rest = bytes[(start + name.count)...].drop { $0 == 0x20 || $0 == 0x3D || $0 == 0x09 }
        guard let quote = rest.first, quote == 0x22 || quote == 0x27 else { return nil }
        rest = rest.dropFirst()
        return String(decoding: rest.prefix { $0 != quote }, as: UTF8.self)
    }
}
