#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finding the next byte that needs a look in the repair pass's long runs (a description's escaped HTML), eight
/// bytes at a time. Not for element content in general: there a newline (no class, but below 0x20) comes within a
/// few bytes of most tags, and the word test only cost more (measured with callgrind on 250 feeds).
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Where the first byte at or after `start` whose class (in `classes`) has a bit of `mask` is, or `input.count`.
    /// The classes `mask` selects must hold only `first`, `second` and control characters (below 0x20): a word of
    /// eight bytes that has none of those is passed whole, and only a word that has one is looked at byte by byte
    /// (a newline or tab has no class, and the scan goes on past it).
    @inline(__always)
    static func firstFlagged(
        _ input: UnsafeBufferPointer<UInt8>, from start: Int, mask: UInt8, classes: UnsafeBufferPointer<UInt8>,
        first: UInt8, second: UInt8
    ) -> Int {
        var index = start
        let count = input.count
        if let base = UnsafeRawPointer(input.baseAddress) {
            let firstPattern = ones &* UInt64(first), secondPattern = ones &* UInt64(second)
            let control = ones &* 0x20
            while index + 8 <= count {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                // Each term is non-zero exactly when some byte of the word is zero (is the byte, is below 0x20).
                let first = (word ^ firstPattern) &- ones & ~(word ^ firstPattern)
                let second = (word ^ secondPattern) &- ones & ~(word ^ secondPattern)
                let below = (word &- control) & ~word
                if (first | second | below) & highs != 0 {
                    for offset in 0..<8 where classes[Int(input[index + offset])] & mask != 0 { return index + offset }
                }
                index += 8
            }
        }
        while index < count, classes[Int(input[index])] & mask == 0 { index += 1 }
        return index
    }

    /// Where the first `byte` at or after `start` and before `end` is (libc's `memchr`), or nil.
    @inline(__always)
    static func first(_ byte: UInt8, in input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        guard start < end, let base = input.baseAddress,
              let found = memchr(base + start, Int32(byte), end - start)
        else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}
