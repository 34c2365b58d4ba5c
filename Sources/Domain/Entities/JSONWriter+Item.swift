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
}
