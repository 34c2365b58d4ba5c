/// Rewrites the markup mistakes real feeds make into well-formed XML, on UTF-8 bytes, as they stream past.
///
/// libxml2 in recovery mode drops what it cannot parse: `&aacute;` (an HTML entity XML does not define)
/// vanishes, a bare `&` in `A & B` loses the text after it. So before libxml2 sees the bytes:
/// - an HTML named entity becomes its character; an unknown name or a bare `&` becomes `&amp;`;
/// - a numeric reference to a windows-1252 code (`&#150;`) becomes the character meant; one to a character
///   XML forbids (`&#0;`) is dropped;
/// - a `<` that cannot start markup (`a < b`) becomes `&lt;`;
/// - control characters XML forbids are dropped.
/// CDATA sections and comments pass untouched, and so do references to entities the document declares
/// itself (`<!ENTITY site "Example">`): libxml2's SAX2 parser delivers their text, within its limits (a
/// "billion laughs" document fails there, fast).
struct MarkupRepair {
    private enum State { case text, cdata, comment }

    private var state = State.text
    /// Between `<` and `>` of a tag or declaration.
    private var inTag = false
    /// The quote of the attribute value being read, or 0.
    private var quote: UInt8 = 0
    /// Whether an element has started: only then is text content (never DTD text).
    private var seenElement = false
    /// Entities the document declares itself, by name: their references are left to libxml2, which
    /// delivers their text (within its amplification bound) and never resolves an external one.
    var declaredEntities: Set<String> = []

    /// Longest lookahead any decision needs; with fewer bytes left (and more to come) we wait.
    static let entityLookahead = 40
    static let declarationLookahead = 128
    /// Longest text run rewritten as CDATA; longer ones keep their references.
    static let maxTextRun = 16 * 1024

    /// Repairs `input` into `out` and returns how many input bytes were consumed. Unconsumed bytes (a
    /// construct cut by the chunk's end) must be passed again, in front of the next chunk.
    mutating func process(_ input: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout [UInt8]) -> Int {
        Self.byteClasses.withUnsafeBufferPointer { classes in
            process(input, classes: classes, final: final, into: &out)
        }
    }

    mutating func process(
        _ input: UnsafeBufferPointer<UInt8>, classes: UnsafeBufferPointer<UInt8>, final: Bool,
        into out: inout [UInt8]
    ) -> Int {
        let count = input.count
        var index = 0
        var runStart = 0

        @inline(__always) func flush(to end: Int) {
            if end > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<end])) }
        }
        @inline(__always) func replace(_ length: Int, with bytes: [UInt8]) {
            flush(to: index)
            out.append(contentsOf: bytes)
            index += length
            runStart = index
        }

        while index < count {
            // Skip what the current state has no interest in: most bytes, one table look each.
            let mask = currentMask
            while index < count, classes[Int(input[index])] & mask == 0 { index += 1 }
            guard index < count else { break }
            let byte = input[index]
            if byte < 0x20 {  // a control character XML forbids (the table lets \t \n \r through)
                replace(1, with: [])
                continue
            }
            switch state {
            case .text where quote != 0:
                // Inside an attribute value.
                if byte == quote {
                    quote = 0
                    index += 1
                } else if byte == 0x26 {
                    if !final && count - index < Self.entityLookahead { flush(to: index); return index }
                    let (length, replacement) = repairEntity(input, at: index)
                    if let replacement { replace(length, with: replacement) } else { index += length }
                } else if byte == 0x3C {
                    replace(1, with: Self.escapedLessThan)
                } else {
                    index += 1
                }
            case .text where inTag:
                if byte == 0x22 || byte == 0x27 {
                    quote = byte
                } else if byte == 0x3E {
                    inTag = false
                } else if byte == 0x3C {  // a declaration inside `<!DOCTYPE … [`
                    if !final && count - index < Self.declarationLookahead { flush(to: index); return index }
                    if Self.matches(input, at: index, "<!ENTITY") { recordEntityDeclaration(input, at: index + 8) }
                }
                index += 1
            case .text:
                // Element content.
                if byte == 0x26 {
                    if seenElement, let end = Self.textRunEnd(input, from: index, final: final) {
                        if end < 0 { flush(to: index); return index }  // the run continues in the next chunk
                        flush(to: index)
                        let mark = out.count
                        out.append(contentsOf: Self.cdataOpen)
                        if decodeTextRun(input, from: index, to: end, classes: classes, into: &out) {
                            out.append(contentsOf: Self.cdataClose)
                            index = end
                            runStart = end
                            continue
                        }
                        out.removeSubrange(mark...)
                        runStart = index
                    }
                    if !final && count - index < Self.entityLookahead { flush(to: index); return index }
                    let (length, replacement) = repairEntity(input, at: index)
                    if let replacement { replace(length, with: replacement) } else { index += length }
                    continue
                }
                // '<'
                if !final && count - index < Self.declarationLookahead { flush(to: index); return index }
                guard index + 1 < count else {
                    replace(1, with: Self.escapedLessThan)
                    continue
                }
                let next = input[index + 1]
                if next == 0x21 {  // "<!"
                    if Self.matches(input, at: index, "<![CDATA[") {
                        state = .cdata
                        index += 9
                    } else if Self.matches(input, at: index, "<!--") {
                        state = .comment
                        index += 4
                    } else {
                        if Self.matches(input, at: index, "<!ENTITY") { recordEntityDeclaration(input, at: index + 8) }
                        inTag = true
                        index += 2
                    }
                } else if Self.canFollowLessThan(next) {
                    if next != 0x2F && next != 0x3F { seenElement = true }
                    inTag = true
                    index += 1
                } else {
                    replace(1, with: Self.escapedLessThan)
                }
            case .cdata:  // ']'
                if !final && count - index < 3 { flush(to: index); return index }
                if Self.matches(input, at: index, "]]>") {
                    state = .text
                    index += 3
                } else {
                    index += 1
                }
            case .comment:  // '-'
                if !final && count - index < 3 { flush(to: index); return index }
                if Self.matches(input, at: index, "-->") {
                    state = .text
                    index += 3
                } else {
                    index += 1
                }
            }
        }
        flush(to: count)
        return count
    }

    private var currentMask: UInt8 {
        switch state {
        case .text: quote != 0 ? Self.inAttribute : inTag ? Self.inTagMask : Self.inContent
        case .cdata: Self.inCDATA
        case .comment: Self.inComment
        }
    }

    // MARK: - Byte classes

    static let inContent: UInt8 = 1 << 0
    static let inTagMask: UInt8 = 1 << 1
    static let inAttribute: UInt8 = 1 << 2
    static let inCDATA: UInt8 = 1 << 3
    static let inComment: UInt8 = 1 << 4
    static let inTextRun: UInt8 = 1 << 5

    /// For each byte, the states in which it needs a look (a bit per state).
    static let byteClasses: [UInt8] = (0..<256).map { value in
        let byte = UInt8(value)
        var classes: UInt8 = 0
        if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
            classes = inContent | inTagMask | inAttribute | inCDATA | inComment | inTextRun
        }
        switch byte {
        case UInt8(ascii: "&"): classes |= inContent | inAttribute | inTextRun
        case UInt8(ascii: "<"): classes |= inContent | inAttribute | inTagMask
        case UInt8(ascii: "\""), UInt8(ascii: "'"): classes |= inTagMask | inAttribute
        case UInt8(ascii: ">"): classes |= inTagMask
        case UInt8(ascii: "]"): classes |= inCDATA | inTextRun
        case UInt8(ascii: "-"): classes |= inComment
        default: break
        }
        return classes
    }

    // MARK: - Bytes

    static let escapedAmpersand = Array("&amp;".utf8)
    static let escapedLessThan = Array("&lt;".utf8)
    static let cdataOpen = Array("<![CDATA[".utf8)
    static let cdataClose = Array("]]>".utf8)

    @inline(__always)
    static func matches(_ input: UnsafeBufferPointer<UInt8>, at index: Int, _ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard index + length <= input.count else { return false }
        let pointer = literal.utf8Start
        for offset in 0..<length where input[index + offset] != pointer[offset] { return false }
        return true
    }

    /// After `<`: a name start, `/`, `?` or `!`. Anything else means the `<` was meant as text.
    @inline(__always)
    static func canFollowLessThan(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
            UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "!"), 0x80...0xFF:
            true
        default: false
        }
    }

    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: ":"), 0x80...0xFF:
            true
        default: false
        }
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    @inline(__always)
    static func digitValue(_ byte: UInt8, hex: Bool) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
