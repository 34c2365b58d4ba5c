import Domain
import Foundation
import Synchronization
import Testing

/// `maxItemsPerFeed` is a display cap: what is past it goes to the stream's past-cap channel, with a warning.
@Suite("FetchFeedEntriesUseCase: entries past the cap")
struct FeedCapTests {
    private struct Feeds: FeedRepository {
        let sizes: [String: Int]

        func feed(at location: FeedLocation, maxEntries: Int, cancellation: CancellationToken,
                  completion: @escaping @Sendable (Result<Feed, SourceError>) -> Void) {
            let name = location.description.split(separator: "/").last.map(String.init) ?? ""
            let count = min(maxEntries, sizes[name] ?? 0)
            completion(.success(Feed(title: name, entries: (0..<count).map { FeedEntry(id: "\(name)-\($0)") })))
        }
    }

    private final class Stream: ItemStream {
        let shown = Mutex<[String]>([])
        let pastCap = Mutex<[String]>([])
        func source(at index: Int, _ source: SourceDescriptor, didEmit items: [Item]) {
            shown.withLock { $0 += items.map(\.id) }
        }
        func source(at index: Int, _ source: SourceDescriptor, didEmitPastCap items: [Item]) {
            pastCap.withLock { $0 += items.map(\.id) }
        }
        func source(at index: Int, didFinish report: SourceReport) {}
    }

    @Test("each feed's first entries are items, the rest go past the cap, and a warning counts them per feed")
    func pastCap() async {
        let useCase = FetchFeedEntriesUseCase(
            repository: Feeds(sizes: ["a": 5, "b": 2]), locations: [.file(URL(fileURLWithPath: "a")), .file(URL(fileURLWithPath: "b"))],
            maxEntriesPerFeed: 3, label: { $0.description.split(separator: "/").last.map(String.init) ?? "" })
        let stream = Stream()
        let report = await AggregateSourcesUseCase().execute(
            [PlannedSource(descriptor: descriptor("s"), plan: .load(useCase))], stream: stream).sources[0]
        #expect(report.status == .ok)
        #expect(stream.shown.withLock { $0 }.count == 5, "3 of a, both of b")
        #expect(stream.pastCap.withLock { $0 }.count == 2, "a's last two")
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.hasSuffix(
            "3 of 5 entries kept (maxItemsPerFeed); the other 2 are recorded in the item history and offered to sinks, not printed") == true,
                "\(report.warnings)")
    }
}
