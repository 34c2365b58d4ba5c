/// Text runs with references, rewritten as CDATA sections (see `decodeTextRun`).
extension MarkupRepair {
    /// Where the text run holding the `&` at `start` ends (the next `<`); -1 when that is beyond this chunk
    /// and the run may still be short enough to wait for; nil when it is too long to rewrite.
    static func textRunEnd(_ input: UnsafeBufferPointer<UInt8>, from start: Int, final: Bool) -> Int? {
        let limit = min(input.count, start + maxTextRun)
        if let lessThan = ByteScan.first(0x3C, in: input, from: start, to: limit) { return lessThan }
        if limit == input.count { return final ? input.count : -1 }
        return nil
    }

    /// Writes a text run with references in it as the characters they stand for, ready to sit in a CDATA
    /// section: libxml2 reports a text node with entities as one piece per reference (`&lt;p&gt;` is five),
    /// and escaped HTML in descriptions is the common case. False (with `out` partly written: the caller
    /// rolls back) when the run cannot be CDATA: a `]]` in it, or an entity only the document defines.
    func decodeTextRun(
        _ input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, classes: UnsafeBufferPointer<UInt8>,
        into out: inout [UInt8]
    ) -> Bool {
        var index = start
        var runStart = start
        let run = UnsafeBufferPointer(rebasing: input[..<end])
        while true {
            index = ByteScan.firstFlagged(run, from: index, mask: Self.inTextRun, classes: classes, first: 0x26, second: 0x5D)
            if index > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<index])) }
            guard index < end else { return true }
            switch input[index] {
            case 0x26:
                let (length, scalar) = decodeReference(run, at: index)
                guard let scalar else { return false }
                if scalar != 0 { UTF8Repair.append(scalar, to: &out) }
                index += length
            case 0x5D:
                if index + 1 < end, input[index + 1] == 0x5D { return false }
                out.append(0x5D)
                index += 1
            default:  // a control character: dropped
                index += 1
            }
            runStart = index
        }
    }

    /// The character a reference at `start` stands for, and its length. 0 drops it (a character XML
    /// forbids); nil means it cannot be decoded here (a declared entity).
    func decodeReference(_ input: UnsafeBufferPointer<UInt8>, at start: Int) -> (Int, UInt32?) {
        // The five XML entities, by their bytes: what escaped HTML is made of.
        if start + 3 < input.count, input[start + 3] == 0x3B {
            let word = UInt16(input[start + 1]) << 8 | UInt16(input[start + 2])
            if word == 0x6C74 { return (4, 0x3C) }  // &lt;
            if word == 0x6774 { return (4, 0x3E) }  // &gt;
        }
        if start + 4 < input.count, input[start + 1] == 0x61, input[start + 2] == 0x6D, input[start + 3] == 0x70,
            input[start + 4] == 0x3B
        {
            return (5, 0x26)  // &amp;
        }
        if isDeclaredReference(input, at: start) { return (0, nil) }  // text of the document's own: not here
        let (length, replacement) = repairEntity(input, at: start)
        if let replacement {
            if replacement.isEmpty { return (length, 0) }
            if replacement == Self.escapedAmpersand { return (length, 0x26) }
            var scalar: UInt32 = 0
            var iterator = replacement.makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let value) = decoder.decode(&iterator) { scalar = value.value }
            return (length, scalar)
        }
        // Kept as written: a predefined entity, a valid numeric reference, or a declared entity.
        let body = UnsafeBufferPointer(rebasing: input[(start + 1)..<(start + length - 1)])
        if body.first == 0x23 {
            let hex = body.count > 1 && (body[1] == 0x78 || body[1] == 0x58)
            var value: UInt32 = 0
            for digit in body.dropFirst(hex ? 2 : 1) {
                value = value &* (hex ? 16 : 10) &+ UInt32(Self.digitValue(digit, hex: hex) ?? 0)
            }
            return (length, value)
        }
        switch String(decoding: body, as: UTF8.self) {
        case "lt": return (length, 0x3C)
        case "gt": return (length, 0x3E)
        case "amp": return (length, 0x26)
        case "quot": return (length, 0x22)
        case "apos": return (length, 0x27)
        default: return (length, nil)
        }
    }
}
