/// Writes compact JSON text as UTF-8 bytes: the one JSON writer of the output contract.
///
/// Strings are escaped the same way everywhere (`"`, `\`, and control characters; everything else,
/// non-ASCII included, is copied as is), object keys are sorted, doubles take their shortest round-tripping
/// form with integral values written without a fraction (`21`, never `21.0`), non-finite doubles are `null`.
///
/// Compact by default; `pretty` indents by two spaces with `"key": value` and empty containers as `[]` and
/// `{}`. Values go in whole (`value(_:)`) or, for documents whose key order matters, through `beginObject()`,
/// `key(_:)`, `endObject()` and their array twins.
///
/// It appends to a byte buffer rather than a `String`: NDJSON of a million items is written through it.
public struct JSONWriter: Sendable {
    /// The text so far.
    public private(set) var bytes: [UInt8] = []
    let pretty: Bool
    /// Per open container: whether it has an element yet.
    private var open: [Bool] = []
    /// A key was just written: its value follows without a separator.
    private var afterKey = false
    /// Where strings that need escaping are escaped (`appendEscaped`), made on first use.
    private var scratch: [UInt8] = []

    public init(capacity: Int = 256, pretty: Bool = false) {
        bytes.reserveCapacity(capacity)
        self.pretty = pretty
    }

    /// The text so far as a string.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Forgets the text, keeping the buffer's capacity.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    // MARK: - Containers

    public mutating func beginObject() { begin(UInt8(ascii: "{")) }
    public mutating func endObject() { end(UInt8(ascii: "}")) }
    public mutating func beginArray() { begin(UInt8(ascii: "[")) }
    public mutating func endArray() { end(UInt8(ascii: "]")) }

    /// The next member's key; its value is the next thing written.
    public mutating func key(_ key: String) {
        separate()
        writeString(key)
        if pretty { raw(": ") } else { byte(UInt8(ascii: ":")) }
        afterKey = true
    }

    /// `key(_:)` for a key known to need no escaping (the output contract's own), copied as it is.
    mutating func fixedKey(_ key: StaticString) {
        separate()
        byte(UInt8(ascii: "\""))
        raw(key)
        if pretty { raw("\": ") } else { raw("\":") }
        afterKey = true
    }

    private mutating func begin(_ bracket: UInt8) {
        separate()
        openContainer(bracket)
    }

    private mutating func openContainer(_ bracket: UInt8) {
        bytes.append(bracket)
        open.append(false)
    }

    private mutating func end(_ bracket: UInt8) {
        let hadElements = open.removeLast()
        if pretty, hadElements { newline() }
        bytes.append(bracket)
    }

    /// What goes before a value or a key: nothing after a key or at the top, else a comma after an
    /// earlier element, and in pretty mode a new line.
    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard let hasElements = open.last else { return }
        if hasElements { bytes.append(UInt8(ascii: ",")) }
        open[open.count - 1] = true
        if pretty { newline() }
    }

    private mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<open.count { raw("  ") }
    }

    // MARK: - Scalars

    /// Appends literal text as it is (punctuation, a newline, indentation).
    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func byte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends bytes as they are (text another writer or a filter made).
    public mutating func raw(bytes more: [UInt8]) {
        bytes.append(contentsOf: more)
    }

    // MARK: - Values

    public mutating func null() {
        separate()
        raw("null")
    }

    public mutating func bool(_ value: Bool) {
        separate()
        if value { raw("true") } else { raw("false") }
    }

    public mutating func int(_ value: Int) {
        separate()
        writeInt(value)
    }

    public mutating func double(_ value: Double) {
        separate()
        writeDouble(value)
    }

    /// A quoted, escaped string.
    public mutating func string(_ value: String) {
        separate()
        writeString(value)
    }

    /// A string, or `null` when absent.
    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// Any value, object keys sorted.
    public mutating func value(_ value: JSONValue) {
        separate()
        if pretty { writePretty(value) } else { writeCompact(value) }
    }

    /// `item(_:source:)` in compact mode: the envelope's keys and punctuation as a few runs of literal text
    /// rather than a container call per member (a million NDJSON lines are written through this).
    mutating func compactItem(_ item: Item, source: String) {
        separate()
        raw("{\"source\":")
        writeString(source)
        raw(",\"kind\":")
        writeString(item.kind.rawValue)
        raw(",\"id\":")
        writeString(item.id)
        raw(",\"title\":")
        writeString(item.title)
        raw(",\"subtitle\":")
        if let subtitle = item.subtitle { writeString(subtitle) } else { raw("null") }
        raw(",\"url\":")
        if let url = item.url { writeString(url.absoluteString) } else { raw("null") }
        raw(",\"date\":")
        if let date = item.date { writeString(ISO8601.string(from: date)) } else { raw("null") }
        raw(",\"fields\":")
        writeCompact(.object(item.fields))
        bytes.append(UInt8(ascii: "}"))
    }

    // MARK: - Writing

    private mutating func writeCompact(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let value): if value { raw("true") } else { raw("false") }
        case .int(let value): writeInt(value)
        case .double(let value): writeDouble(value)
        case .string(let value): writeString(value)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeCompact(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(key)
                bytes.append(UInt8(ascii: ":"))
                writeCompact(value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Containers through the container calls (indentation); `separate()` was done for `value` itself.
    private mutating func writePretty(_ value: JSONValue) {
        switch value {
        case .array(let values):
            openContainer(UInt8(ascii: "["))
            for element in values { self.value(element) }
            end(UInt8(ascii: "]"))
        case .object(let members):
            openContainer(UInt8(ascii: "{"))
            for (key, value) in members.members {
                self.key(key)
                self.value(value)
            }
            end(UInt8(ascii: "}"))
        default:
            writeCompact(value)
        }
    }

    private mutating func writeInt(_ value: Int) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // Twenty digits hold any Int64's magnitude; written backwards, then copied.
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            while magnitude > 0 {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    private mutating func writeDouble(_ value: Double) {
        guard value.isFinite else { return raw("null") }
        bytes.append(contentsOf: JSONValue.format(value).utf8)
    }

    private mutating func writeString(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            if let first = JSONStringEscaping.firstEscape(utf8) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<first]))
                appendEscaped(UnsafeBufferPointer(rebasing: utf8[first...]))
            } else {
                bytes.append(contentsOf: utf8)
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Escapes `utf8` a piece at a time into the writer's scratch buffer, appending each piece once: an append
    /// per run between two escapes was ~4 % of writing items with HTML content (a quote every few dozen bytes).
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        let pieceSize = 4096
        if scratch.isEmpty { scratch = [UInt8](repeating: 0, count: JSONStringEscaping.maxEscapedLength(pieceSize)) }
        var start = 0
        while start < utf8.count {
            let piece = UnsafeBufferPointer(rebasing: utf8[start..<min(utf8.count, start + pieceSize)])
            scratch.withUnsafeMutableBufferPointer { scratch in
                let count = JSONStringEscaping.escape(piece, into: scratch.baseAddress!)
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<count]))
            }
            start += piece.count
        }
    }
}
