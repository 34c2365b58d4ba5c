import Foundation

/// Entries of many feeds at once: each feed's entries in document order, feeds in the order asked for.
public struct FetchFeedEntriesUseCase: ItemSource {
    private let repository: any FeedRepository
    private let locations: [FeedLocation]
    private let maxEntriesPerFeed: Int
    private let label: @Sendable (FeedLocation) -> String
    private let tags: [String]
    private let capOption: String

    /// - Parameters:
    ///   - repository: reads one feed.
    ///   - locations: the feeds, in the order their entries are presented.
    ///   - maxEntriesPerFeed: the most entries kept of one feed, the first in document order.
    ///   - label: how a feed is named in its warning or error; the provider redacts credentials in URLs here (a
    ///     feed URL may carry `?token=…`), which Domain cannot do itself.
    ///   - tags: the source's own labels (an OPML category), carried by every item as `fields.tags`.
    ///   - capOption: the option that sets `maxEntriesPerFeed`, named by the warning of a feed past it.
    public init(
        repository: any FeedRepository, locations: [FeedLocation], maxEntriesPerFeed: Int, tags: [String] = [],
        capOption: String = "maxItemsPerFeed", label: @escaping @Sendable (FeedLocation) -> String = { $0.description }
    ) {
        self.capOption = capOption
        self.repository = repository
        self.locations = locations
        self.maxEntriesPerFeed = maxEntriesPerFeed
        self.tags = tags
        self.label = label
    }

    /// Entries read from one feed, at most: what `maxEntriesPerFeed` leaves out is still recorded and offered to
    /// sinks (below), so the bound on reading is far above it; a feed's size cap bounds it too.
    public static let maxEntriesRead = 10_000

    /// Each feed's first `maxEntriesPerFeed` entries are the source's items; the entries after them are
    /// emitted past the cap (`ItemReceiver.emitPastCap`: recorded in the history and offered to sinks, not
    /// printed) with a warning that counts them, so a burst of more new entries than the cap between two runs
    /// is never lost.
    public func load(_ context: LoadContext, into receiver: ItemReceiver) {
        let (repository, locations, maxEntries, label) = (self.repository, self.locations, self.maxEntriesPerFeed, self.label)
        let capOption = self.capOption
        let tags: JSONValue? = self.tags.isEmpty ? nil : .array(self.tags.map(JSONValue.string))
        let labels = locations.map(label)
        let readLimit = max(maxEntries, Self.maxEntriesRead)
        OrderedFanOut.run(
            count: locations.count, limit: context.concurrency, cancellation: context.cancellation,
            notStarted: { Result<(kept: [Item], pastCap: [Item]), SourceError>.failure(.notStarted) },
            job: { index, done in
                repository.feed(at: locations[index], maxEntries: readLimit, cancellation: context.cancellation) { result in
                    if case .success(let feed) = result {
                        for warning in feed.warnings { receiver.warn("\(labels[index]): \(warning)") }
                        if let warning = Self.capWarning(
                            read: feed.entries.count, kept: maxEntries, readLimit: readLimit, option: capOption) {
                            receiver.warn("\(labels[index]): \(warning)")
                        }
                    }
                    done(result.map { feed in
                        let items = feed.entries.map { entry in
                            var item = entry.toItem(in: feed)
                            if let tags { item.fields["tags"] = tags }
                            return item
                        }
                        return (kept: Array(items.prefix(maxEntries)), pastCap: Array(items.dropFirst(maxEntries)))
                    })
                }
            },
            completion: { results in
                var outcomes: [(label: String, error: SourceError?)] = []
                for (label, result) in zip(labels, results) {
                    switch result {
                    case .success(let feed):
                        receiver.emit(feed.kept)
                        receiver.emitPastCap(feed.pastCap)
                        outcomes.append((label, nil))
                    case .failure(let error):
                        outcomes.append((label, error))
                    }
                }
                receiver.finish(reporting: outcomes)
            })
    }

    /// The warning of a feed with more entries than its cap (`option`), nil when it had no more.
    static func capWarning(read: Int, kept: Int, readLimit: Int, option: String = "maxItemsPerFeed") -> String? {
        guard read > kept else { return nil }
        let total = read >= readLimit ? "at least \(read)" : "\(read)"
        return "\(kept) of \(total) entries kept (\(option)); the other \(read - kept) are recorded in the "
            + "item history and offered to sinks, not printed"
    }
}

extension FeedEntry {
    /// Field keys are part of the output contract (docs/PROVIDERS.md, "entry" items).
    public func toItem(in feed: Feed) -> Item {
        Item(
            kind: .entry, id: id, title: title ?? Self.untitledTitle, subtitle: feed.title, url: link,
            date: published ?? updated, fields: itemFields(feedTitle: feed.title)
        )
    }

    /// The item's `fields`, their members gathered in key order (so the object takes them without sorting) and
    /// allocated once at their final size (plus `extra` members for a caller that adds its own, as the files
    /// provider's feed reader does).
    public func itemFields(feedTitle: String?, reserving extra: Int = 0) -> JSONObject {
        var members: [JSONObject.Member] = []
        members.reserveCapacity(10 + extra)
        if let author { members.append(("author", .string(author))) }
        members.append(("categories", .array(categories.map(JSONValue.string))))
        if let content { members.append(("content", .string(content))) }
        if let enclosureURL { members.append(("enclosureURL", .string(enclosureURL.absoluteString))) }
        if let feedTitle { members.append(("feedTitle", .string(feedTitle))) }
        if let image { members.append(("image", .string(image.absoluteString))) }
        if let published {
            members.append(("published", .string(ISO8601.string(from: published))))
        } else if let publishedRaw {
            members.append(("publishedRaw", .string(publishedRaw)))
        }
        if let summary { members.append(("summary", .string(summary))) }
        if let updated {
            members.append(("updated", .string(ISO8601.string(from: updated))))
        } else if let updatedRaw {
            members.append(("updatedRaw", .string(updatedRaw)))
        }
        let fields = JSONObject(members: members)
        return fields
    }
}
