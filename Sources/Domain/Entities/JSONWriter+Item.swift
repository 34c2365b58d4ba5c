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
    /// the sinks' deliveries all write items through this. Its keys are written as literal text (`fixedKey`; in
    /// compact mode `compactItem`, which writes the same members in the same order).
    public mutating func item(_ item: Item, source: String) {
        if !pretty { return compactItem(item, source: source) }
        beginObject()
        fixedKey("source")
        string(source)
        fixedKey("kind")
        string(item.kind.rawValue)
        fixedKey("id")
        string(item.id)
        fixedKey("title")
        string(item.title)
        fixedKey("subtitle")
        string(item.subtitle)
        fixedKey("url")
        string(item.url?.absoluteString)
        fixedKey("date")
        string(item.date.map(ISO8601.string(from:)))
        fixedKey("fields")
        value(.object(item.fields))
        endObject()
    }
}
