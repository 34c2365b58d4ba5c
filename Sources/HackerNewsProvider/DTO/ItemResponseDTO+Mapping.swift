import Domain
import Foundation

// MARK: - Data Transfer Object

/// `GET /v0/item/{id}.json`: a story, job, poll, comment or poll option. Every field but `id` may be missing
/// (a deleted item has only `id`, `deleted`, `time`); an id that does not exist answers the JSON `null`.
struct ItemResponseDTO: Decodable {
    let id: Int
    let type: String?
    let by: String?
    let time: Int?
    let title: String?
    let url: String?
    /// The text of Ask HN posts and jobs (HTML).
    let text: String?
    let score: Int?
    /// Every comment below the story.
    let descendants: Int?
    let deleted: Bool?
    let dead: Bool?
}

// MARK: - Mappings to Domain

/// The page of a story on the site, whatever the API's base URL: what people open, and what HN's RSS uses as guid.
func discussionURL(_ id: Int) -> URL { URL(string: "https://news.ycombinator.com/item?id=\(id)")! }

extension ItemResponseDTO {
    /// Why the item is no story to show, when it is not.
    func unavailable(asked id: Int) -> SourceError? {
        if deleted == true { return SourceError(.notFound, "story \(id) was deleted") }
        if dead == true { return SourceError(.notFound, "story \(id) is dead (flagged or killed)") }
        if title == nil { return SourceError(.badResponse, "item \(id) has no title (a \(type ?? "item"), not a story)") }
        return nil
    }

    /// A link only when it is an absolute http(s) URL: the API has sent empty strings for jobs.
    private var link: URL? {
        guard let url, let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? "") else { return nil }
        return parsed
    }

    private var date: Date? { time.map { Date(timeIntervalSince1970: TimeInterval($0)) } }

    /// `id` is the id the list gave (the item's own, in every answer of the real API).
    func toRecord(id: Int) -> Record {
        var fields: JSONObject = ["hnId": .int(id), "discussionURL": .string(discussionURL(id).absoluteString)]
        fields["type"] = type.map(JSONValue.string)
        fields["by"] = by.map(JSONValue.string)
        fields["score"] = score.map(JSONValue.int)
        fields["comments"] = descendants.map(JSONValue.int)
        fields["time"] = date.map { .string(ISO8601.string(from: $0)) }
        fields["url"] = link.map { .string($0.absoluteString) }
        fields["text"] = text.map(JSONValue.string)
        var subtitle: [String] = []
        if let score { subtitle.append(score == 1 ? "1 point" : "\(score) points") }
        if let by { subtitle.append("by \(by)") }
        if let descendants { subtitle.append(descendants == 1 ? "1 comment" : "\(descendants) comments") }
        return Record(
            id: String(id), title: title ?? FeedEntry.untitledTitle, subtitle: subtitle.isEmpty ? nil : subtitle.joined(separator: " · "),
            url: link ?? discussionURL(id), date: date, fields: fields)
    }

    func toFeedEntry(id: Int) -> FeedEntry {
        FeedEntry(
            id: discussionURL(id).absoluteString, title: title, link: link ?? discussionURL(id), summary: text, author: by,
            categories: type.map { [$0] } ?? [], published: date)
    }
}
