extension Sequence where Element == UInt8 {
    /// The bytes as lowercase hexadecimal, two digits a byte, without Foundation: digests in cache keys,
    /// fingerprints, ETags and signatures. Inlinable, so that a caller's byte collection is walked directly, not
    /// element by element through its `Sequence` witnesses. (What either cost: BENCHMARKS.md, "Figures behind the
    /// code".)
    @inlinable
    public var hexDigits: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
