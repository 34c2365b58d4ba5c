import Domain
import Foundation
import HTTPClient
import ProviderKit

/// `"provider": "hacker-news"`: the top, new or best stories of Hacker News from its Firebase API (no key):
/// `GET {baseURL}/v0/{list}stories.json` (up to 500 ids), then `GET {baseURL}/v0/item/{id}.json` for the first
/// `maxItems` of them, fetched concurrently (the source's `concurrency`) and reported in the list's order.
///
///     { "id": "hn", "provider": "hacker-news", "options": { "list": "best", "maxItems": 20, "itemKind": "entry" } }
///
/// A story that cannot be read (deleted, `null`, a failed request) is a warning naming it; the source fails only
/// when the list fails or every story did.
///
/// Items, `itemKind: "entry"` (the default, like a feed's): `id` = the discussion page
/// (`https://news.ycombinator.com/item?id=N`, what HN's RSS uses as guid), `title`, `url` = the story's link
/// (the discussion page for Ask HN), `date` = submission time, `subtitle` = "Hacker News top stories";
/// `fields`: the `entry` fields (`author`, `published`, `summary` = the text of Ask HN posts, `categories` = the
/// item type, `feedTitle`). `itemKind: "record"`: `id` = the item id (`"8863"`), `fields`: `hnId`, `type`, `by`,
/// `score`, `comments` (all descendants), `time` (ISO 8601), `url`, `discussionURL`, `text`.
public struct HackerNewsProvider: Provider {
    public static let defaultBaseURL = URL(string: "https://hacker-news.firebaseio.com")!
    public static let defaultMaxItems = 30
    /// The lists hold at most 500 ids.
    public static let maxItemsLimit = 500

    public init() {}

    public var name: String { "hacker-news" }

    public var summary: String { "Top, new or best Hacker News stories (its Firebase API, no key)" }

    public var options: [OptionSpec] {
        [
            OptionSpec("list", "top|new|best", default: StoryList.top.rawValue, help: "Which list of stories to read."),
            OptionSpec("maxItems", "integer 1–\(Self.maxItemsLimit)", default: String(Self.defaultMaxItems),
                       identity: .tuning, help: "Stories to read from the top of the list (one request each)."),
            OptionSpec("itemKind", "entry|record", default: StoryItemKind.entry.rawValue,
                       help: "Feed entries (`entry`, like the feed provider's) or records with HN's own fields (`record`)."),
        ] + HTTPSourceOptions.specs(defaultBaseURL: Self.defaultBaseURL)
    }

    public func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        let reader = OptionsReader(configuration, specs: options)
        let list = reader.value("list", as: StoryList.self) ?? .top
        let itemKind = reader.value("itemKind", as: StoryItemKind.self) ?? .entry
        let maxItems = reader.value("maxItems", as: Int.self) ?? Self.defaultMaxItems
        if !(1...Self.maxItemsLimit).contains(maxItems) {
            reader.problem("maxItems", "must be between 1 and \(Self.maxItemsLimit), found \(maxItems)")
        }
        let http = HTTPSourceOptions.read(reader, defaultBaseURL: Self.defaultBaseURL)
        try reader.finish()

        let client = configuration.httpClient(http.clientConfiguration(for: configuration))
        let repository = HackerNewsStoryRepository(client: client, baseURL: http.baseURL, list: list)
        return HackerNewsStoriesSource(repository: repository, maxItems: maxItems, itemKind: itemKind)
    }
}

/// The story lists of the API.
enum StoryList: String, Sendable, CaseIterable, OptionEnum {
    case top, new, best

    /// How the feed entries' `feedTitle` names the list.
    var title: String { "Hacker News \(rawValue) stories" }
}

/// What kind of items the stories become.
enum StoryItemKind: String, Sendable, CaseIterable, OptionEnum {
    case entry, record
}
