/// How `JSONWriter` escapes a string's UTF-8: quotes, backslashes and control characters (as `\n`, `\r`, `\t`,
/// else `\u00XX`); every other byte, non-ASCII included, is copied as it is.
enum JSONStringEscaping {
    /// The offset of the first byte that needs escaping, or nil when none does (most text). Inlined: it runs for
    /// every string written, most of them short.
    @inline(__always)
    static func firstEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index < utf8.count {
            // Eight bytes at a time while none needs escaping, then byte by byte.
            if index + 8 <= utf8.count, !needsEscape(word(utf8, at: index)) {
                index += 8
                continue
            }
            if needsEscape(utf8[index]) { return index }
            index += 1
        }
        return nil
    }

    /// Copies `utf8`'s bytes to `out` up to the first one that needs escaping, checking and copying in one pass
    /// (eight bytes at a time, the way `firstEscape` looks); returns how many it copied (`utf8.count` when none
    /// needs escaping). `out` has room for `utf8.count` bytes.
    @inline(__always)
    static func copyUntilEscape(_ utf8: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var index = 0
        while index + 8 <= utf8.count {
            let word = word(utf8, at: index)
            if needsEscape(word) { break }
            UnsafeMutableRawPointer(out + index).storeBytes(of: word, as: UInt64.self)
            index += 8
        }
        while index < utf8.count, !needsEscape(utf8[index]) {
            out[index] = utf8[index]
            index += 1
        }
        return index
    }

    /// The most bytes `escape` writes for `count` bytes of input (each may become `\u00XX`).
    static func maxEscapedLength(_ count: Int) -> Int { count * 6 }

    /// Writes `utf8` escaped to `out`, which has room for `maxEscapedLength(utf8.count)` bytes; returns how many
    /// it wrote. Runs between escapes are copied whole.
    static func escape(_ utf8: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var written = 0
        var runStart = 0
        var index = 0
        while index < utf8.count {
            if index + 8 <= utf8.count, !needsEscape(word(utf8, at: index)) {
                index += 8
                continue
            }
            let byte = utf8[index]
            index += 1
            guard needsEscape(byte) else { continue }
            let run = index - 1 - runStart
            (out + written).initialize(from: utf8.baseAddress! + runStart, count: run)
            written += run
            written += write(byte, to: out + written)
            runStart = index
        }
        (out + written).initialize(from: utf8.baseAddress! + runStart, count: utf8.count - runStart)
        return written + utf8.count - runStart
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    @inline(__always)
    private static func word(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64 {
        UnsafeRawPointer(utf8.baseAddress! + index).loadUnaligned(as: UInt64.self)
    }

    /// Whether any of the eight bytes is below 0x20, a quote or a backslash (exact, no false answers: the
    /// classic "has a byte less than n" / "has a zero byte" bit tricks).
    @inline(__always)
    static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highs
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let quote = (quotes &- ones) & ~quotes & highs
        let backslash = (backslashes &- ones) & ~backslashes & highs
        return control | quote | backslash != 0
    }

    /// Writes the escape of `byte` (one that needs it) and returns its length.
    private static func write(_ byte: UInt8, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out[1] = byte
        case UInt8(ascii: "\n"): out[1] = UInt8(ascii: "n")
        case UInt8(ascii: "\r"): out[1] = UInt8(ascii: "r")
        case UInt8(ascii: "\t"): out[1] = UInt8(ascii: "t")
        default:
            out[1] = UInt8(ascii: "u")
            out[2] = UInt8(ascii: "0")
            out[3] = UInt8(ascii: "0")
            out[4] = hexDigit(byte >> 4)
            out[5] = hexDigit(byte & 0x0F)
            return 6
        }
        return 2
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
