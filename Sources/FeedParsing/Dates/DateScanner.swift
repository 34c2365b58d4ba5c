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

    /// A run of ASCII letters, lower-cased and packed big-endian into an integer (first eight letters), so
    /// names compare without building strings.
    struct Word {
        var key: UInt64 = 0
        var length = 0
        /// The first three letters, packed like `key`.
        var prefix3: UInt64 = 0
    }

    mutating func readWord() -> Word {
        var word = Word()
        while let byte = peek, Self.isLetter(byte) {
            if word.length < 8 { word.key = word.key << 8 | UInt64(byte | 0x20) }
            word.length += 1
            if word.length == 3 { word.prefix3 = word.key }
            index += 1
        }
        return word
    }

    mutating func readNumber(maxDigits: Int) -> Int? {
        readNumberWithCount(maxDigits: maxDigits)?.0
    }

    mutating func readNumberWithCount(maxDigits: Int) -> (Int, Int)? {
        var value = 0
        var digits = 0
        while digits < maxDigits, let byte = peek, Self.isDigit(byte) {
            value = value * 10 + Int(byte - 0x30)
            digits += 1
            index += 1
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
