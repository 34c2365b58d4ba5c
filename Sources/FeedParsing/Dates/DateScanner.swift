/// A cursor over the UTF-8 bytes of a date, for the hand-written date parsers.
struct DateScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var atEnd: Bool { index >= bytes.count }
    var remaining: Int { bytes.count - index }
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }
    var peekIsDigit: Bool { peek.map(Self.isDigit) ?? false }
    var peekIsLetter: Bool { peek.map(Self.isLetter) ?? false }
    /// An ASCII letter, or the first byte of a two-byte Latin letter with an accent (`Sáb`, `Út`).
    @inline(__always) var peekIsWordStart: Bool {
        guard let byte = peek else { return false }
        return Self.isLetter(byte) || (byte >= 0xC3 && byte <= 0xC5)
    }

    var startsWithFourDigits: Bool {
        remaining >= 4 && (0..<4).allSatisfy { Self.isDigit(bytes[index + $0]) }
    }

    mutating func advance() { index += 1 }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    mutating func skipSpaces() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    /// Spaces, commas, dashes and dots between date parts.
    mutating func skipSeparators() {
        while let byte = peek,
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ",")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        {
            index += 1
        }
    }

    /// A run of letters, lower-cased and packed big-endian into an integer (first eight letters), so names
    /// compare without building strings. In `readName`, Latin letters with accents (two-byte UTF-8,
    /// U+00C0–U+017F) count as their base letter (`é` → `e`, `ř` → `r`) and combining accents are skipped,
    /// so `févr`, `Mär` and `říjen` read as `fevr`, `mar`, `rijen`.
    struct Word {
        var key: UInt64 = 0
        var length = 0
        /// The first three letters, packed like `key`.
        var prefix3: UInt64 = 0

        /// The first four letters, packed like `key` (0 when the word is shorter).
        var prefix4: UInt64 {
            length < 4 ? 0 : key >> UInt64(8 * (min(length, 8) - 4))
        }

        mutating func append(_ letter: UInt8) {
            if length < 8 { key = key << 8 | UInt64(letter) }
            length += 1
            if length == 3 { prefix3 = key }
        }
    }

    /// ASCII letters only: zone names and the common case of the names below.
    mutating func readWord() -> Word {
        var word = Word()
        while let byte = peek, Self.isLetter(byte) {
            word.append(byte | 0x20)
            index += 1
        }
        return word
    }

    /// A day or month name, in any language: `readWord`, then, only when a byte that is not ASCII follows,
    /// the accented rest. Inlined into the parser so the ASCII path pays one comparison for it.
    @inline(__always)
    mutating func readName() -> Word {
        var word = readWord()
        if let byte = peek, byte >= 0xC3 { readAccentedRest(of: &word) }
        return word
    }

    /// The rest of a word once a byte that is not ASCII follows its first letters: letters with accents
    /// count as their base letter, combining marks (U+0300–U+036F) as nothing. Apart from `readWord`'s
    /// loop, which ASCII words never leave.
    @inline(never)
    private mutating func readAccentedRest(of word: inout Word) {
        while let byte = peek {
            if Self.isLetter(byte) {
                word.append(byte | 0x20)
                index += 1
                continue
            }
            guard index + 1 < bytes.count, bytes[index + 1] & 0xC0 == 0x80 else { return }
            if byte == 0xCC || (byte == 0xCD && bytes[index + 1] < 0xB0) {
                index += 2
                continue
            }
            guard byte >= 0xC3, byte <= 0xC5 else { return }
            let letter = Self.latinBaseLetters[Int(byte - 0xC3) * 64 + Int(bytes[index + 1] & 0x3F)]
            guard letter != UInt8(ascii: ".") else { return }
            word.append(letter)
            index += 2
        }
    }

    /// Base letters of U+00C0…U+017F (Latin-1 Supplement letters and Latin Extended-A), lower case; `.` for
    /// the two signs among them. From Unicode's canonical decompositions, plus `ø`, `ł`, `đ`, `ß`… by hand.
    private static let latinBaseLetters: [UInt8] = Array(
        ("aaaaaaaceeeeiiiidnooooo.ouuuuytsaaaaaaaceeeeiiiidnooooo.ouuuuyty"
            + "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiiiiijjkkkllllllllllnnnnnnnnnoooooooorrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs")
            .utf8)

    mutating func readNumber(maxDigits: Int) -> Int? {
        readNumberWithCount(maxDigits: maxDigits)?.0
    }

    /// At most `maxDigits` (4 at most in these parsers) digits, so the unchecked arithmetic cannot overflow. (Why
    /// unchecked: BENCHMARKS.md, "Figures behind the code".)
    mutating func readNumberWithCount(maxDigits: Int) -> (Int, Int)? {
        var value = 0
        var digits = 0
        while digits < maxDigits, let byte = peek, Self.isDigit(byte) {
            value = value &* 10 &+ Int(byte &- 0x30)
            digits &+= 1
            index &+= 1
        }
        return digits > 0 ? (value, digits) : nil
    }

    mutating func readNumber(exactly count: Int) -> Int? {
        guard remaining >= count, (0..<count).allSatisfy({ Self.isDigit(bytes[index + $0]) }) else { return nil }
        return readNumber(maxDigits: count)
    }

    /// `.123456` or `,5` after seconds, as nanoseconds (digits past the ninth ignored). 0 when absent.
    mutating func readFraction() -> Int {
        guard let byte = peek, byte == UInt8(ascii: ".") || byte == UInt8(ascii: ","),
            index + 1 < bytes.count, Self.isDigit(bytes[index + 1])
        else { return 0 }
        index += 1
        var nanos = 0
        var digits = 0
        while let byte = peek, Self.isDigit(byte) {
            if digits < 9 {
                nanos = nanos * 10 + Int(byte - 0x30)
                digits += 1
            }
            index += 1
        }
        while digits < 9 {
            nanos *= 10
            digits += 1
        }
        return nanos
    }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    @inline(__always) static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
}
