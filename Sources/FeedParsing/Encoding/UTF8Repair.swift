/// UTF-8 helpers for the byte pipeline: validation that tells "invalid" from "cut off", and encoding.
enum UTF8Repair {
    /// The length of the valid UTF-8 sequence starting at `index` (1…4), 0 when the bytes there are not valid
    /// UTF-8, or -1 when they are a valid start cut off by the end of the buffer.
    @inline(__always)
    static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = bytes[index]
        if lead < 0x80 { return 1 }
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // the allowed range of the second byte
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF: length = 3
        case 0xED: length = 3; high = 0x9F  // no UTF-16 surrogates
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        for offset in 1..<length {
            guard index + offset < bytes.count else { return -1 }
            let byte = bytes[index + offset]
            if offset == 1 {
                guard byte >= low, byte <= high else { return 0 }
            } else {
                guard byte & 0xC0 == 0x80 else { return 0 }
            }
        }
        return length
    }

    /// Whether `bytes` are all valid UTF-8 (ASCII eight bytes at a time, the common case).
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        if let base = UnsafeRawPointer(bytes.baseAddress) {
            while index + 8 <= count, base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
            }
        }
        while index < count {
            let length = sequenceLength(bytes, at: index)
            guard length > 0 else { return false }
            index += length
        }
        return true
    }

    @inline(__always)
    static func append(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            out.append(UInt8(scalar))
        case ..<0x800:
            out.append(UInt8(0xC0 | (scalar >> 6)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        case ..<0x10000:
            out.append(UInt8(0xE0 | (scalar >> 12)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (scalar >> 18)))
            out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    /// Whether a code point may appear in an XML 1.0 document.
    @inline(__always)
    static func isXMLChar(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}

extension UTF8Repair {
    /// Appends `bytes` to `out` as UTF-8: valid sequences are copied, a byte that starts no valid sequence is read
    /// as windows-1252 (a Latin-1 document served or declared as UTF-8 keeps its accents). Returns where a
    /// sequence cut off by the end of `bytes` starts, for the caller to carry into the next chunk (unless
    /// `final`), else `bytes.count`.
    static func appendRepairing(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool, to out: inout [UInt8]) -> Int {
        let count = bytes.count
        var index = 0
        var runStart = 0
        let base = UnsafeRawPointer(bytes.baseAddress)
        while index < count {
            // Eight ASCII bytes at a time: the common case.
            if let base, index + 8 <= count,
                base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
                continue
            }
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                continue
            }
            let length = sequenceLength(bytes, at: index)
            if length > 0 {
                index += length
                continue
            }
            if length < 0 && !final {
                if index > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
                return index
            }
            if index > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
            append(SingleByteTable.windows1252.upper[Int(byte) - 0x80], to: &out)
            index += 1
            runStart = index
        }
        let end = min(index, count)
        if end > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<end])) }
        return count
    }
}
