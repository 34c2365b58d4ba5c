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
/// It appends to a byte buffer rather than a `String`: NDJSON of a million items is written through it. A value's
/// pieces go through a small staging buffer (`JSONByteStage`) and reach `bytes` at most 1 KiB at a time, or
/// directly when they are long runs.
public struct JSONWriter: Sendable {
    /// The text so far.
    public private(set) var bytes: [UInt8] = []
    package let pretty: Bool
    /// Per open container: whether it has an element yet.
    private var open: [Bool] = []
    /// A key was just written: its value follows without a separator.
    private var afterKey = false

    /// An empty writer; `capacity` bytes are reserved up front, and `pretty` indents.
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

    /// Opens an object: `key(_:)` and a value for each member follow, then `endObject()`.
    public mutating func beginObject() { begin(UInt8(ascii: "{")) }
    /// Closes the innermost open object.
    public mutating func endObject() { end(UInt8(ascii: "}")) }
    /// Opens an array: its elements follow, then `endArray()`.
    public mutating func beginArray() { begin(UInt8(ascii: "[")) }
    /// Closes the innermost open array.
    public mutating func endArray() { end(UInt8(ascii: "]")) }

    /// The next member's key; its value is the next thing written.
    public mutating func key(_ key: String) {
        separate()
        staged { Self.writeString(key, to: &$0) }
        if pretty { raw(": ") } else { byte(UInt8(ascii: ":")) }
        afterKey = true
    }

    private mutating func begin(_ bracket: UInt8) {
        separate()
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
    package mutating func separate() {
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

    /// Appends one byte as it is.
    public mutating func byte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends bytes as they are (text another writer or a filter made).
    public mutating func raw(bytes more: [UInt8]) {
        bytes.append(contentsOf: more)
    }

    // MARK: - Values

    /// `null`.
    public mutating func null() {
        separate()
        raw("null")
    }

    /// `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        if value { raw("true") } else { raw("false") }
    }

    /// An integer, in decimal.
    public mutating func int(_ value: Int) {
        separate()
        staged { Self.writeInt(value, to: &$0) }
    }

    /// A number in its shortest round-tripping form, integral values without a fraction; `null` when not finite.
    public mutating func double(_ value: Double) {
        separate()
        staged { Self.writeDouble(value, to: &$0) }
    }

    /// A quoted, escaped string.
    public mutating func string(_ value: String) {
        separate()
        staged { Self.writeString(value, to: &$0) }
    }

    /// A string, or `null` when absent.
    public mutating func string(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// Any value, object keys sorted.
    public mutating func value(_ value: JSONValue) {
        separate()
        if pretty {
            let depth = depth
            staged { Self.writePretty(value, depth: depth, to: &$0) }
        } else {
            staged { Self.writeCompact(value, to: &$0) }
        }
    }

    // MARK: - Writing

    /// How many containers are open around what is written next.
    package var depth: Int { open.count }

    /// Runs `body` with a stage holding the writer's bytes, then takes them back with what it wrote.
    ///
    /// The stage's buffer is a temporary allocation on the stack (`JSONByteStage.capacity`).
    package mutating func staged(_ body: (inout JSONByteStage) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: JSONByteStage.capacity) { storage in
            // Swapped, not copied: the stage's appends find the bytes uniquely referenced.
            var stage = JSONByteStage(buffer: storage)
            swap(&stage.out, &bytes)
            body(&stage)
            stage.flush()
            swap(&stage.out, &bytes)
        }
    }

    package static func writeCompact(_ value: JSONValue, to stage: inout JSONByteStage) {
        switch value {
        case .null: stage.put("null")
        case .bool(let value): stage.put(value ? "true" : "false")
        case .int(let value): writeInt(value, to: &stage)
        case .double(let value): writeDouble(value, to: &stage)
        case .string(let value): writeString(value, to: &stage)
        case .array(let values):
            stage.put(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { stage.put(UInt8(ascii: ",")) }
                writeCompact(element, to: &stage)
            }
            stage.put(UInt8(ascii: "]"))
        case .object(let members):
            stage.put(UInt8(ascii: "{"))
            for (index, (key, value)) in members.members.enumerated() {
                if index > 0 { stage.put(UInt8(ascii: ",")) }
                writeString(key, to: &stage)
                stage.put(UInt8(ascii: ":"))
                writeCompact(value, to: &stage)
            }
            stage.put(UInt8(ascii: "}"))
        }
    }

    /// `value` indented as the container calls indent (`depth` containers are open around it): elements and
    /// members on lines of their own, empty containers as `[]` and `{}`. Whole, through one stage.
    package static func writePretty(_ value: JSONValue, depth: Int, to stage: inout JSONByteStage) {
        switch value {
        case .array(let values) where !values.isEmpty:
            stage.put(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { stage.put(UInt8(ascii: ",")) }
                newline(depth: depth + 1, to: &stage)
                writePretty(element, depth: depth + 1, to: &stage)
            }
            newline(depth: depth, to: &stage)
            stage.put(UInt8(ascii: "]"))
        case .object(let members) where !members.members.isEmpty:
            stage.put(UInt8(ascii: "{"))
            for (index, (key, value)) in members.members.enumerated() {
                if index > 0 { stage.put(UInt8(ascii: ",")) }
                newline(depth: depth + 1, to: &stage)
                writeString(key, to: &stage)
                stage.put(": ")
                writePretty(value, depth: depth + 1, to: &stage)
            }
            newline(depth: depth, to: &stage)
            stage.put(UInt8(ascii: "}"))
        default:
            writeCompact(value, to: &stage)
        }
    }

    package static func newline(depth: Int, to stage: inout JSONByteStage) {
        stage.put(UInt8(ascii: "\n"))
        for _ in 0..<depth { stage.put("  ") }
    }

    static func writeInt(_ value: Int, to stage: inout JSONByteStage) {
        if value == 0 { return stage.put(UInt8(ascii: "0")) }
        if value < 0 { stage.put(UInt8(ascii: "-")) }
        // Twenty digits hold any Int64's magnitude; written backwards, then copied.
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            while magnitude > 0 {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            stage.put(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    static func writeDouble(_ value: Double, to stage: inout JSONByteStage) {
        guard value.isFinite else { return stage.put("null") }
        var text = JSONValue.format(value)
        text.withUTF8 { stage.put($0) }
    }

    package static func writeString(_ value: String, to stage: inout JSONByteStage) {
        var value = value
        value.withUTF8 { utf8 in
            stage.put(UInt8(ascii: "\""))
            stage.putEscaped(utf8)
            stage.put(UInt8(ascii: "\""))
        }
    }
}
