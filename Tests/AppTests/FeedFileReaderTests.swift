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

    @Test("a row's fields: the entry's item fields plus id, title, url and date (as published or updated wrote it)")
    func rowFields() {
        let published = Date(timeIntervalSince1970: 1_404_651_360)
        let updated = Date(timeIntervalSince1970: 1_404_737_760)
        let full = FeedEntry(
            id: "n-1", title: "Café", link: URL(string: "https://example.test/1"), summary: "S", content: "C", author: "A",
            categories: ["x", "y"], published: published, updated: updated,
            enclosureURL: URL(string: "https://example.test/a.mp3"), publishedRaw: "raw p", updatedRaw: "raw u")
        #expect(FeedFileReader.fields(of: full) == [
            "id": "n-1", "title": "Café", "url": "https://example.test/1", "date": "2014-07-06T12:56:00Z",
            "summary": "S", "content": "C", "author": "A", "categories": ["x", "y"],
            "published": "2014-07-06T12:56:00Z", "updated": "2014-07-07T12:56:00Z",
            "enclosureURL": "https://example.test/a.mp3",
        ])
        let bare = FeedEntry(id: "n-2", updated: updated, publishedRaw: "the day after tomorrow")
        #expect(FeedFileReader.fields(of: bare) == [
            "id": "n-2", "title": "(untitled)", "date": "2014-07-07T12:56:00Z", "categories": [],
            "publishedRaw": "the day after tomorrow", "updated": "2014-07-07T12:56:00Z",
        ])
        let undated = FeedEntry(id: "n-3", title: "T", updatedRaw: "someday")
        #expect(FeedFileReader.fields(of: undated) == ["id": "n-3", "title": "T", "categories": [], "updatedRaw": "someday"])
        // The feed provider's item has the same fields, less the four the files provider adds, plus the feed's title.
        var item = full.toItem(in: Feed(title: "Notes", entries: [])).fields
        #expect(item.removeValue(forKey: "feedTitle") == "Notes")
        #expect(item == FeedFileReader.fields(of: full).filter { !["id", "title", "url", "date"].contains($0.key) })
    }

    /// The items of a files source reading `data/<name>` holding `contents`.
    private func items(file name: String, contents: String) async throws -> SourceReport {
        let manifest = #"{ "version": 1, "sources": [ { "id": "notes", "provider": "files", "options": { "paths": ["data/"# + name + #""] } } ] }"#
        let loaded = try container(manifest, registry: .builtIn)
        let data = loaded.manifest.baseDirectory.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: data.appendingPathComponent(name))
        return await AggregateSourcesUseCase().execute(try loaded.plan(selection: ["notes"], query: nil)).sources[0]
    }

    static let rdf = """
        <?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
        <channel rdf:about="https://example.test/"><title>R</title></channel>
        <item rdf:about="https://example.test/a"><title>A</title><link>https://example.test/a</link></item>
        </rdf:RDF>
        """

    @Test("a .rdf file is a feed too")
    func rdfFile() async throws {
        let report = try await items(file: "news.rdf", contents: Self.rdf)
        #expect(report.status == .ok, "\(report.error?.description ?? "")")
        #expect(report.items.map(\.title) == ["A"])
    }

    @Test("a file of any extension that starts like XML after a BOM, whitespace or a comment is read as a feed",
          arguments: ["news", "news.txt", "feed.php"])
    func sniffed(name: String) async throws {
        let report = try await items(file: name, contents: "\u{FEFF}\n  <!-- generated -->\n" + Self.rdf)
        #expect(report.status == .ok, "\(report.error?.description ?? "")")
        #expect(report.items.map(\.title) == ["A"])
    }

    @Test("an untitled entry reads '(untitled)' through files as through the feed provider")
    func untitled() async throws {
        let rss = #"<rss version="2.0"><channel><title>T</title><item><link>https://example.test/u</link></item></channel></rss>"#
        let report = try await items(file: "u.rss", contents: rss)
        #expect(report.items.map(\.title) == ["(untitled)"])
    }

    @Test("a file that is neither a known extension nor XML still asks for a format")
    func unknownFormat() async throws {
        let report = try await items(file: "notes.txt", contents: "just words")
        #expect(report.status == .error)
        #expect(report.error?.message.contains("cannot tell the format") == true)
    }
}
