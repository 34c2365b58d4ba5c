import Domain
import FeedParsing
import Foundation
import HTTPClient
import ProviderKit

/// `"provider": "feed"`: entries of RSS 0.9x/2.0, Atom 1.0/0.3 and RSS 1.0 (RDF) feeds, over HTTP and
/// from local files.
///
///     { "id": "news", "provider": "feed",
///       "options": { "urls": ["https://example.org/feed.xml"], "paths": ["feeds/*.rss"],
///                    "maxItemsPerFeed": 20 } }
///
/// The format is read from each document's root element, never from its name. Feeds are fetched and
/// parsed concurrently (the source's `concurrency`); items come feed by feed in the order the options
/// list them (URLs, then paths, each pattern's matches sorted), each feed's entries in document order.
/// A feed that fails (HTTP 404, a truncated document) is a warning naming it while the other feeds
/// still count; the source is an error only when every feed failed.
///
/// Items: `kind: "entry"`, `title`, `subtitle` = the feed's title, `url` = the entry's resolved link,
/// `date` = published, else updated; `fields`: `feedTitle`, `author`, `categories`, `summary` (as
/// published, may be HTML), `content`, `published`, `updated`, `enclosureURL`, and `tags` when the source has
/// the `tags` option.
public struct FeedProvider: Provider {
    public static let defaultMaxItemsPerFeed = 50

    public init() {}

    public var name: String { "feed" }

    public var summary: String { "Entries of RSS, Atom and RDF feeds, over HTTP or from local files" }

    public var options: [OptionSpec] { Self.optionSpecs }

    /// Made once: the container asks for a source's options several times while loading a manifest and planning
    /// a run, and a manifest of 1,000 feeds spent a fifth of its loading building this list anew.
    private static let optionSpecs: [OptionSpec] = {
        DocumentLocations.specs("feed", plural: "feeds") + [
            OptionSpec("maxItemsPerFeed", "integer ≥ 1", default: String(Self.defaultMaxItemsPerFeed),
                       identity: .tuning, help: "Entries printed from each feed, from its top. Entries past it are named in a warning, recorded in the item history and offered to sinks, so --new and sinks lose none."),
            DocumentLocations.tagsSpec(help: " (an OPML import puts the feed's categories here)."),
        ] + HTTPSourceOptions.explicitURLSpecs
    }()

    public func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        let reader = OptionsReader(configuration, specs: options)
        let locations = DocumentLocations.read(reader, noun: "feed")
        let maxItems = reader.value("maxItemsPerFeed", as: Int.self) ?? Self.defaultMaxItemsPerFeed
        if maxItems < 1 { reader.problem("maxItemsPerFeed", "must be at least 1, found \(maxItems)") }
        let tags = DocumentLocations.readTags(reader)
        let http = HTTPSourceOptions.readForExplicitURLs(reader, fetchedURLs: DocumentLocations.urls(in: locations))
        try reader.finish()

        let client = configuration.httpClient(http.clientConfiguration(for: configuration))
        return FetchFeedEntriesUseCase(
            repository: XMLFeedRepository(client: client, logger: configuration.logger), locations: locations, maxEntriesPerFeed: maxItems,
            tags: tags,
            label: { location in
                if case .url(let url) = location { return Redactor.redact(url) }
                return location.description
            })
    }
}
