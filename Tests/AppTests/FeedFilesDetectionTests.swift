import Domain
import Foundation
import Testing
@testable import App

/// Feeds in a files source recognised by extension or content, and named as the feed provider names them.
@Suite("Feed files found by name or content, titled like the feed provider")
struct FeedFilesDetectionTests {
    static let rdf = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
          xmlns:dc="http://purl.org/dc/elements/1.1/">
        <channel rdf:about="https://example.test/"><title>Science</title><link>https://example.test/</link></channel>
        <item rdf:about="https://example.test/a"><title>First paper</title><link>https://example.test/a</link>
          <dc:date>2017-06-15T10:29:47-07:00</dc:date></item>
        <item rdf:about="https://example.test/b"><title>Second paper</title><link>https://example.test/b</link></item>
        </rdf:RDF>
        """

    static let rssWithUntitledEntry = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Notes</title>
        <item><title>Titled</title><guid>n-1</guid><pubDate>Seg, 24 Set 2018 19:42:40 -0300</pubDate></item>
        <item><description>No title here</description><pubDate>the day after tomorrow</pubDate></item>
        </channel></rss>
        """

    /// Runs the manifest's sources after writing `files` (path → bytes) next to it; one report per source.
    static func reports(sources: String, files: [String: Data]) async throws -> [SourceReport] {
        let loaded = try container(#"{ "version": 1, "sources": [ "# + sources + " ] }", registry: .builtIn)
        for (path, data) in files {
            let url = loaded.manifest.baseDirectory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        return await AggregateSourcesUseCase().execute(try loaded.plan(selection: nil, query: nil)).sources
    }

    /// A files source over `path`.
    static func items(paths: [String], files: [String: Data]) async throws -> SourceReport {
        let pathList = paths.map { "\"\($0)\"" }.joined(separator: ", ")
        let source = #"{ "id": "notes", "provider": "files", "options": { "paths": ["# + pathList + "] } }"
        return try await reports(sources: source, files: files)[0]
    }

    @Test("a .rdf file is read as a feed")
    func rdfExtension() async throws {
        let report = try await Self.items(paths: ["papers.rdf"], files: ["papers.rdf": Data(Self.rdf.utf8)])
        #expect(report.status == .ok, "\(report.error?.description ?? "")")
        #expect(report.items.map(\.title) == ["First paper", "Second paper"])
        #expect(report.items.map(\.id) == ["https://example.test/a", "https://example.test/b"])
        #expect(report.items[0].date == Date(timeIntervalSince1970: 1_497_547_787))
    }

    @Test("a feed with junk before its declaration is read as a feed whatever the file is called", arguments: [
        ("feeds/papers", [0xEF, 0xBB, 0xBF, 0x0A, 0x20]),
        ("feeds/papers.txt", Array("\n\n   ".utf8)),
        ("feeds/index.php", Array("<!-- cached copy -->\n".utf8)),
        ("feeds/papers.feed", [0xEF, 0xBB, 0xBF]),
    ] as [(String, [UInt8])])
    func sniffedFeed(path: String, junk: [UInt8]) async throws {
        let report = try await Self.items(paths: [path], files: [path: Data(junk) + Data(Self.rdf.utf8)])
        #expect(report.status == .ok, "\(report.error?.description ?? "")")
        #expect(report.items.map(\.title) == ["First paper", "Second paper"])
    }

    @Test("an untitled entry is (untitled) through files, as through the feed provider; its id stays a stable hash")
    func untitledRule() async throws {
        let reports = try await Self.reports(
            sources: #"{ "id": "viafiles", "provider": "files", "options": { "paths": ["notes.xml"] } },"#
                + #"{ "id": "viafeed", "provider": "feed", "options": { "paths": ["notes.xml"] } }"#,
            files: ["notes.xml": Data(Self.rssWithUntitledEntry.utf8)])
        let viaFiles = try #require(reports[0].items.last)
        let viaFeed = try #require(reports[1].items.last)

        #expect(viaFiles.title == "(untitled)")
        #expect(viaFeed.title == viaFiles.title)
        #expect(viaFiles.id == viaFeed.id)
        #expect(viaFiles.id.hasPrefix("hash:"))
        #expect(viaFiles.fields["title"] == "(untitled)")
    }

    @Test("dates in other languages date the record, unreadable ones are kept in publishedRaw")
    func datesThroughFiles() async throws {
        let report = try await Self.items(paths: ["notes.xml"], files: ["notes.xml": Data(Self.rssWithUntitledEntry.utf8)])
        #expect(report.items.map(\.date) == [Date(timeIntervalSince1970: 1_537_828_960), nil])
        #expect(report.items.map { $0.fields["publishedRaw"] } == [nil, "the day after tomorrow"])
    }
}
