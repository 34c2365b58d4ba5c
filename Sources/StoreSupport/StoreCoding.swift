import Domain
import Foundation

/// What every store implementation writes the same way, so SQLite and PostgreSQL keep identical bytes: a last
/// good copy's items, a response's headers, a sink's deliveries.
public enum StoreCoding {
    /// The recent queries kept per movies source, in either store.
    public static let maxStoredQueries = 20

    /// A last good copy's items as stored (JSON).
    public static func encodeItems(_ items: [Item], of sourceID: String) throws(SourceError) -> Data {
        do {
            return try JSONEncoder().encode(items.map(StoredItemDTO.init))
        } catch {
            throw SourceError(.io, "the items of \(sourceID) could not be encoded for the store")
        }
    }

    /// The items of a last good copy written by ``encodeItems(_:of:)``; an unreadable copy is an `io` error naming
    /// `sourceID`.
    public static func decodeItems(_ data: Data, of sourceID: String) throws(SourceError) -> [Item] {
        do {
            return try JSONDecoder().decode([StoredItemDTO].self, from: data).map { $0.toDomain() }
        } catch {
            throw SourceError(.io, "the last good copy of \(sourceID) is unreadable")
        }
    }

    /// How many items a stored copy holds (`cache stats`), 0 when unreadable.
    public static func itemCount(_ data: Data) -> Int {
        (try? JSONDecoder().decode([StoredItemDTO].self, from: data))?.count ?? 0
    }

    /// A response's headers as stored (a JSON array of name/value pairs).
    public static func encodeHeaders(_ headers: [StoredResponse.Header]) -> String {
        String(decoding: (try? JSONEncoder().encode(headers)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// Headers written by ``encodeHeaders(_:)``; none when the text is unreadable.
    public static func decodeHeaders(_ text: String) -> [StoredResponse.Header] {
        (try? JSONDecoder().decode([StoredResponse.Header].self, from: Data(text.utf8))) ?? []
    }

    /// `items` minus those `inserted` does not name (the (source, item) pairs a sink had not seen), in order.
    public static func unseen(_ items: [SinkItem], inserted: [(source: String, item: String)]) -> [SinkItem] {
        var unseen = Set(inserted.map { SeenKey(source: $0.source, item: $0.item) })
        return items.filter { unseen.remove(SeenKey(source: $0.source, item: $0.item.id)) != nil }
    }

    /// `fresh` as deliveries of at most `batchSize` items each, in order, each with a new id and its NDJSON.
    public static func deliveries(of fresh: [SinkItem], sink: String, batchSize: Int, at date: Date) -> [SinkDelivery] {
        stride(from: 0, to: fresh.count, by: max(1, batchSize)).map { start in
            let batch = fresh[start..<min(fresh.count, start + max(1, batchSize))]
            var lines = JSONWriter(capacity: batch.count * 512)
            for entry in batch {
                lines.item(entry.item, source: entry.source)
                lines.byte(UInt8(ascii: "\n"))
            }
            return SinkDelivery(
                id: UUID().uuidString.lowercased(), sink: sink, itemLines: Data(lines.bytes), itemCount: batch.count,
                createdAt: date)
        }
    }
}

/// A (source, item) pair a sink has seen.
private struct SeenKey: Hashable {
    var source: String
    var item: String
}
