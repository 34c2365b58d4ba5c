import Domain
import Foundation

/// A manifest file as JSON, edited by a command that adds sources (`aggregate import opml --write`) and written
/// back in a stable, readable order: the top level as docs/MANIFEST.md shows it (`$schema`, `version`, `store`,
/// `defaults`, `sources`, `sinks`), each source's `id` and `provider` first and its `options` last. Every member
/// the file had is kept; JSON has no comments to lose.
struct ManifestDocument {
    private var top: JSONObject
    private var sources: [JSONValue]

    private static let topOrder = ["$schema", "version", "store", "defaults", "sources", "sinks"]
    private static let sourceOrder = ["id", "provider", "enabled", "timeoutSeconds", "concurrency", "cacheTTLSeconds",
                                      "refreshSeconds"]

    /// An empty version 1 manifest.
    init() {
        top = ["version": .int(1)]
        sources = []
    }

    /// An existing manifest's text.
    init(_ data: Data) throws(ImportFeedsFromOPMLUseCase.ImportError) {
        let root: JSONValue
        do {
            root = try JSONValue.parse(data)
        } catch {
            throw .manifest("the manifest is not valid JSON: \(error)")
        }
        guard case .object(let object) = root else { throw .manifest("the manifest is not a JSON object") }
        switch object["sources"] {
        case .array(let list)?: sources = list
        case nil, .null?: sources = []
        case let other?: throw .manifest("the manifest's sources are \(other.typeName), not an array")
        }
        top = object
    }

    /// Ids of the sources already there.
    var sourceIDs: Set<String> {
        Set(sources.compactMap { $0.objectValue?["id"]?.stringValue })
    }

    /// The URLs of the `feed` sources already there (comparison keys), each with its source's id.
    var feedURLs: [String: String] {
        var result: [String: String] = [:]
        for source in sources {
            guard let object = source.objectValue, object["provider"]?.stringValue == "feed",
                  case .array(let urls)? = object["options"]?.objectValue?["urls"] else { continue }
            let id = object["id"]?.stringValue ?? "?"
            for case .string(let url) in urls { result[FeedURLKey.make(url)] = id }
        }
        return result
    }

    mutating func appendSource(id: String, provider: String, options: JSONObject) {
        sources.append(.object(["id": .string(id), "provider": .string(provider), "options": .object(options)]))
    }

    /// The manifest as pretty JSON, ending in a newline.
    var text: String {
        var writer = JSONWriter(pretty: true)
        writer.beginObject()
        var members = top
        members["sources"] = .array(sources)
        for key in Self.ordered(members.keys, first: Self.topOrder, last: []) {
            writer.key(key)
            if key == "sources" {
                writer.beginArray()
                for source in sources { Self.write(source, to: &writer) }
                writer.endArray()
            } else {
                writer.value(members[key]!)
            }
        }
        writer.endObject()
        return writer.text + "\n"
    }

    private static func write(_ source: JSONValue, to writer: inout JSONWriter) {
        guard let object = source.objectValue else {
            writer.value(source)
            return
        }
        writer.beginObject()
        for key in ordered(object.keys, first: sourceOrder, last: ["options"]) {
            writer.key(key)
            writer.value(object[key]!)
        }
        writer.endObject()
    }

    /// `keys` with those of `first` in that order, then the rest alphabetically, then those of `last`.
    private static func ordered(_ keys: [String], first: [String], last: [String]) -> [String] {
        let present = Set(keys)
        let rest = keys.filter { !first.contains($0) && !last.contains($0) }.sorted()
        return first.filter(present.contains) + rest + last.filter(present.contains)
    }
}
