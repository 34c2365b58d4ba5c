import Foundation

/// Entries of many feeds at once: each feed's entries in document order, feeds in the order asked for.
public struct FetchFeedEntriesUseCase: ItemSource {
    private let repository: any FeedRepository
    private let locations: [FeedLocation]
    private let maxEntriesPerFeed: Int
    private let label: @Sendable (FeedLocation) -> String

    /// - Parameter label: how a feed is named in its warning or error; the provider redacts credentials in
    ///   URLs here (a feed URL may carry `?token=…`), which Domain cannot do itself.
    public init(
        repository: any FeedRepository, locations: [FeedLocation], maxEntriesPerFeed: Int,
        label: @escaping @Sendable (FeedLocation) -> String = { $0.description }
    ) {
        self.repository = repository
        self.locations = locations
        self.maxEntriesPerFeed = maxEntriesPerFeed
        self.label = label
    }

    public func load(_ context: LoadContext, into sink: ItemSink) {
        let (repository, locations, maxEntries, label) = (self.repository, self.locations, self.maxEntriesPerFeed, self.label)
        sink.collect(locations.map(label), context: context) { index, done in
            repository.feed(at: locations[index], maxEntries: maxEntries, cancellation: context.cancellation) { result in
                if case .success(let feed) = result {
                    for warning in feed.warnings { sink.warn("\(label(locations[index])): \(warning)") }
                }
                done(result.map { feed in feed.entries.prefix(maxEntries).map { $0.toItem(in: feed) } })
            }
        }
    }
}

extension FeedEntry {
    /// Field keys are part of the output contract (README, "entry" items).
    public func toItem(in feed: Feed) -> Item {
        var fields: [String: JSONValue] = ["categories": .array(categories.map(JSONValue.string))]
        fields["feedTitle"] = feed.title.map(JSONValue.string)
        fields["author"] = author.map(JSONValue.string)
        fields["summary"] = summary.map(JSONValue.string)
        fields["content"] = content.map(JSONValue.string)
        fields["published"] = published.map { .string(ISO8601.string(from: $0)) }
        fields["updated"] = updated.map { .string(ISO8601.string(from: $0)) }
        fields["enclosureURL"] = enclosureURL.map { .string($0.absoluteString) }
        if published == nil { fields["publishedRaw"] = publishedRaw.map(JSONValue.string) }
        if updated == nil { fields["updatedRaw"] = updatedRaw.map(JSONValue.string) }
        return Item(
            kind: .entry, id: id, title: title ?? Self.untitledTitle, subtitle: feed.title, url: link,
            date: published ?? updated, fields: fields
        )
    }
}
