import Domain
import Foundation

/// The list first (one request), then its first `maxItems` stories through a Domain use case with one unit per
/// story: `ReadRecordsUseCase` for records, `FetchFeedEntriesUseCase` for entries. The use case brings what
/// every source shares: the source's `concurrency`, the list's order, a warning per story that fails, failure
/// only when all did.
struct HackerNewsStoriesSource: ItemSource {
    let repository: HackerNewsStoryRepository
    let maxItems: Int
    let itemKind: StoryItemKind

    func load(_ context: LoadContext, into receiver: ItemReceiver) {
        let (repository, maxItems, itemKind) = (self.repository, self.maxItems, self.itemKind)
        repository.storyIDs(cancellation: context.cancellation) { result in
            let ids: [Int]
            switch result {
            case .success(let all):
                ids = Array(all.prefix(maxItems))
                if all.count > maxItems {
                    receiver.warn("\(maxItems) of the list's \(all.count) stories kept (maxItems); the others were not fetched")
                }
            case .failure(let error): return receiver.fail(error)
            }
            guard !ids.isEmpty else { return receiver.finish() }
            switch itemKind {
            case .record:
                ReadRecordsUseCase(repository: StoryRecords(repository: repository, ids: ids)).load(context, into: receiver)
            case .entry:
                FetchFeedEntriesUseCase(
                    repository: StoryFeeds(repository: repository), locations: ids.map { .url(discussionURL($0)) },
                    maxEntriesPerFeed: 1, label: { "story \(StoryFeeds.id(of: $0).map(String.init) ?? "?")" }
                ).load(context, into: receiver)
            }
        }
    }
}

/// Each story a unit of records.
private struct StoryRecords: WholeUnitRecordRepository {
    let repository: HackerNewsStoryRepository
    let ids: [Int]

    func recordUnits() -> Result<[String], SourceError> { .success(ids.map { "story \($0)" }) }

    func records(
        in unit: String, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<[Record], SourceError>) -> Void
    ) {
        guard let id = Int(unit.dropFirst("story ".count)) else {
            return completion(.failure(SourceError(.badResponse, "'\(unit)' is no story")))
        }
        repository.story(id, cancellation: cancellation) { completion($0.map { [$0.toRecord(id: id)] }) }
    }
}

/// Each story a feed of one entry, named after the list.
private struct StoryFeeds: FeedRepository {
    let repository: HackerNewsStoryRepository

    /// The story id of a discussion page URL.
    static func id(of location: FeedLocation) -> Int? {
        guard case .url(let url) = location,
              let value = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first(where: { $0.name == "id" })?.value
        else { return nil }
        return Int(value)
    }

    func feed(
        at location: FeedLocation, maxEntries: Int, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<Feed, SourceError>) -> Void
    ) {
        guard let id = Self.id(of: location) else {
            return completion(.failure(SourceError(.badResponse, "\(location) is no story")))
        }
        let title = repository.list.title
        repository.story(id, cancellation: cancellation) { result in
            completion(result.map { item in
                Feed(title: title, link: URL(string: "https://news.ycombinator.com/"), entries: [item.toFeedEntry(id: id)])
            })
        }
    }
}
