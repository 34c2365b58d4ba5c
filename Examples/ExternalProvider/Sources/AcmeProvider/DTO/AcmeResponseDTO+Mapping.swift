import Domain
import Foundation

// MARK: - Data Transfer Object

/// `GET /search`, success body. Optional wherever real responses may omit a field.
struct AcmeResponseDTO: Decodable {
    struct ItemDTO: Decodable {
        let id: String
        let title: String?
        let url: String?
        let createdAt: String?
        let points: Int?
    }

    let items: [ItemDTO]
}

// MARK: - Mappings to Domain

extension AcmeResponseDTO {
    /// Field keys are camelCase and stable: scripts rely on them.
    func toDomain() -> Result<[Record], SourceError> {
        var records: [Record] = []
        for item in items {
            guard !item.id.isEmpty else { return .failure(SourceError(.badResponse, "an item has an empty id")) }
            var fields: JSONObject = ["id": .string(item.id)]
            fields["title"] = item.title.map(JSONValue.string)
            fields["url"] = item.url.map(JSONValue.string)
            fields["createdAt"] = item.createdAt.map(JSONValue.string)
            fields["points"] = item.points.map(JSONValue.int)
            records.append(Record(
                id: item.id, title: item.title ?? "(untitled)", url: item.url.flatMap(URL.init(string:)),
                date: item.createdAt.flatMap(ISO8601.date(from:)), fields: fields))
        }
        return .success(records)
    }
}
