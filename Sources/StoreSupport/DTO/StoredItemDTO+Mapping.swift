import Domain
import Foundation

// MARK: - Data Transfer Object

/// An `Item` as a last good copy keeps it (JSON in `source_snapshot.items`).
struct StoredItemDTO: Codable {
    var kind: ItemKind
    var id: String
    var title: String
    var subtitle: String?
    var url: String?
    /// Seconds since 1970, exact (ISO 8601 text would drop fractions).
    var date: Double?
    var fields: JSONObject
}

// MARK: - Mappings to Domain

extension StoredItemDTO {
    init(_ item: Item) {
        self.init(
            kind: item.kind, id: item.id, title: item.title, subtitle: item.subtitle, url: item.url?.absoluteString,
            date: item.date?.timeIntervalSince1970, fields: item.fields)
    }

    func toDomain() -> Item {
        Item(
            kind: kind, id: id, title: title, subtitle: subtitle, url: url.flatMap(URL.init(string:)),
            date: date.map(Date.init(timeIntervalSince1970:)), fields: fields)
    }
}
