import Domain
import Foundation
import Testing
@testable import App

@Suite("Feed files through the files provider")
struct FeedFileReaderTests {
    static let rss = """
        <?xml version="1.0" encoding="ISO-8859-1"?>
        <rss version="2.0"><channel><title>Notes</title>
        <item><title>Caf\u{E9}</title><link>https://example.test/1</link><guid>n-1</guid>
        <pubDate>Sun, 06 Jul 2014 12:56:00 GMT</pubDate></item>
        <item><title>Second</title><guid>n-2</guid></item>
        </channel></rss>
        """

    @Test("a .rss file in a files source gives one record per entry, with title, id, url and date mapped")
    func rssRecords() async throws {
        let manifest = #"{ "version": 1, "sources": [ { "id": "notes", "provider": "files", "options": { "paths": ["data/*.rss"] } } ] }"#
        let loaded = try container(manifest, registry: .builtIn)
        let data = loaded.manifest.baseDirectory.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try #require(Self.rss.data(using: .isoLatin1)).write(to: data.appendingPathComponent("notes.rss"))

        let report = await AggregateSourcesUseCase().execute(try loaded.plan(selection: ["notes"], query: nil))
        let items = report.sources[0].items
        #expect(report.sources[0].status == .ok)
        #expect(items.map(\.title) == ["Café", "Second"])
        #expect(items.map(\.id) == ["n-1", "n-2"])
        #expect(items[0].url == URL(string: "https://example.test/1"))
        #expect(items[0].date == (try Date("2014-07-06T12:56:00Z", strategy: .iso8601)))
    }
}
