import Foundation

extension JSONWriter {
    /// A source's error as the output contract writes it: `{"kind": …, "message": …}`.
    public mutating func sourceError(_ error: SourceError) {
        beginObject()
        key("kind")
        string(error.kind.rawValue)
        key("message")
        string(error.message)
        endObject()
    }

    /// An item in the output contract's shape (docs/OUTPUT.md, "Output contract"): `source` first, `subtitle`, `url` and
    /// `date` always present (`null` when absent), `fields` keys sorted. The JSON and NDJSON renderers and
    /// the sinks' deliveries all write items through this, the whole item through one stage, its keys as literal
    /// text.
    public mutating func item(_ item: Item, source: String) {
        separate()
        if pretty {
            let depth = depth
            staged { Self.writePrettyItem(item, source: source, depth: depth, to: &$0) }
        } else {
            staged { Self.writeCompactItem(item, source: source, to: &$0) }
        }
    }

    /// The compact item: keys and punctuation as a few runs of literal text (a million NDJSON lines are written
    /// through this).
    private static func writeCompactItem(_ item: Item, source: String, to stage: inout JSONByteStage) {
        stage.put("{\"source\":")
        writeString(source, to: &stage)
        stage.put(",\"kind\":")
        writeString(item.kind.rawValue, to: &stage)
        stage.put(",\"id\":")
        writeString(item.id, to: &stage)
        stage.put(",\"title\":")
        writeString(item.title, to: &stage)
        stage.put(",\"subtitle\":")
        writeString(item.subtitle, to: &stage)
        stage.put(",\"url\":")
        writeString(item.url?.absoluteString, to: &stage)
        stage.put(",\"date\":")
        writeString(item.date.map(ISO8601.string(from:)), to: &stage)
        stage.put(",\"fields\":")
        writeCompact(.object(item.fields), to: &stage)
        stage.put(UInt8(ascii: "}"))
    }

    /// The same members indented as the container calls would indent them, `depth` containers in.
    private static func writePrettyItem(_ item: Item, source: String, depth: Int, to stage: inout JSONByteStage) {
        func member(_ key: StaticString, _ value: String?) {
            newline(depth: depth + 1, to: &stage)
            stage.put(key)
            writeString(value, to: &stage)
            stage.put(UInt8(ascii: ","))
        }
        stage.put(UInt8(ascii: "{"))
        member("\"source\": ", source)
        member("\"kind\": ", item.kind.rawValue)
        member("\"id\": ", item.id)
        member("\"title\": ", item.title)
        member("\"subtitle\": ", item.subtitle)
        member("\"url\": ", item.url?.absoluteString)
        member("\"date\": ", item.date.map(ISO8601.string(from:)))
        newline(depth: depth + 1, to: &stage)
        stage.put("\"fields\": ")
        writePretty(.object(item.fields), depth: depth + 1, to: &stage)
        newline(depth: depth, to: &stage)
        stage.put(UInt8(ascii: "}"))
    }

    private static func writeString(_ value: String?, to stage: inout JSONByteStage) {
        if let value { writeString(value, to: &stage) } else { stage.put("null") }
    }
}
