/// References (`&name;`, `&#…;`) and the entities a document declares in its internal subset.
extension MarkupRepair {
    /// Looks at the `&` at `start`: how many bytes the reference spans and what to write instead (nil keeps
    /// the bytes as they are).
    func repairEntity(_ input: UnsafeBufferPointer<UInt8>, at start: Int) -> (Int, [UInt8]?) {
        let count = input.count
        var index = start + 1
        if index < count, input[index] == 0x23 {  // "&#"
            index += 1
            let hex = index < count && (input[index] == 0x78 || input[index] == 0x58)
            if hex { index += 1 }
            let digitsStart = index
            var value: UInt32 = 0
            while index < count, index - digitsStart < 8, let digit = Self.digitValue(input[index], hex: hex) {
                value = value &* (hex ? 16 : 10) &+ UInt32(digit)
                index += 1
            }
            guard index > digitsStart, index < count, input[index] == 0x3B else { return (1, Self.escapedAmpersand) }
            let length = index + 1 - start
            if (0x80...0x9F).contains(value) {
                var bytes: [UInt8] = []
                UTF8Repair.append(SingleByteTable.windows1252.upper[Int(value) - 0x80], to: &bytes)
                return (length, bytes)
            }
            return UTF8Repair.isXMLChar(value) ? (length, nil) : (length, [])
        }
        guard let (name, length) = Self.referenceName(input, at: start) else { return (1, Self.escapedAmpersand) }
        if Self.predefinedEntities.contains(name) { return (length, nil) }
        if declaredEntities.contains(name) { return (length, nil) }
        if let scalar = HTMLEntities.codePoint(named: name) {
            var bytes: [UInt8] = []
            UTF8Repair.append(scalar, to: &bytes)
            return (length, bytes)
        }
        return (1, Self.escapedAmpersand)
    }

    /// The five entities XML defines itself.
    static let predefinedEntities: Set<String> = ["amp", "lt", "gt", "quot", "apos"]

    /// The name of the named reference (`&name;`) at `start` and the bytes it spans; nil when there is none.
    static func referenceName(_ input: UnsafeBufferPointer<UInt8>, at start: Int) -> (name: String, length: Int)? {
        var index = start + 1
        while index < input.count, index - start <= 33, isNameByte(input[index]) { index += 1 }
        guard index < input.count, input[index] == 0x3B, index > start + 1 else { return nil }
        return (String(decoding: UnsafeBufferPointer(rebasing: input[(start + 1)..<index]), as: UTF8.self), index + 1 - start)
    }

    /// `<!ENTITY name …` in the internal subset: the document defines `&name;` itself.
    mutating func recordEntityDeclaration(_ input: UnsafeBufferPointer<UInt8>, at start: Int) {
        var index = start
        while index < input.count, Self.isSpace(input[index]) { index += 1 }
        guard index < input.count, input[index] != 0x25 else { return }  // '%': a parameter entity
        let nameStart = index
        while index < input.count, Self.isNameByte(input[index]) { index += 1 }
        guard index > nameStart else { return }
        let name = String(decoding: UnsafeBufferPointer(rebasing: input[nameStart..<index]), as: UTF8.self)
        declaredEntities.insert(name)
    }

    /// Whether the `&` at `start` refers to an entity the document declares.
    func isDeclaredReference(_ input: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard let (name, _) = Self.referenceName(input, at: start) else { return false }
        return declaredEntities.contains(name)
    }
}
