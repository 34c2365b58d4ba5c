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

    /// An item in the output contract's shape (README, "JSON output"): `source` first, `subtitle`, `url` and
    /// `date` always present (`null` when absent), `fields` keys sorted. The JSON and NDJSON renderers and
    /// the sinks' deliveries all write items through this.
    public mutating func item(_ item: Item, source: String) {
        if !isPretty { return compactItem(item, source: source) }
        beginObject()
        key("source")
        string(source)
        key("kind")
        string(item.kind.rawValue)
        key("id")
        string(item.id)
        key("title")
        string(item.title)
        key("subtitle")
        string(item.subtitle)
        key("url")
        string(item.url?.absoluteString)
        key("date")
        string(item.date.map(ISO8601.string(from:)))
        key("fields")
        value(.object(item.fields))
        endObject()
    }

    /// `item` without indentation (NDJSON, the sinks): the same bytes, its fixed keys written as literal text
    /// rather than member by member.
    private mutating func compactItem(_ item: Item, source: String) {
        beginValue()
        raw("{\"source\":")
        writeString(source)
        raw(",\"kind\":")
        writeString(item.kind.rawValue)
        raw(",\"id\":")
        writeString(item.id)
        raw(",\"title\":")
        writeString(item.title)
        raw(",\"subtitle\":")
        writeOptional(item.subtitle)
        raw(",\"url\":")
        writeOptional(item.url?.absoluteString)
        raw(",\"date\":")
        writeOptional(item.date.map(ISO8601.string(from:)))
        raw(",\"fields\":")
        writeValue(.object(item.fields))
        byte(UInt8(ascii: "}"))
    }

    private mutating func writeOptional(_ string: String?) {
        if let string { writeString(string) } else { raw("null") }
    }
}
