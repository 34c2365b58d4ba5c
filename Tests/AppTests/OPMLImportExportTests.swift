import App
import Domain
import Foundation
import ProviderKit
import ProviderTesting
import Testing

/// `aggregate import opml` / `export opml` on real subscription lists (Fixtures/SOURCES.md, `opml/`).
@Suite("OPML import and export")
struct OPMLImportExportTests {
    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/opml")
    static let realExports = [
        "newsboat-example.opml", "newsboat-category.opml", "newsboat-with_unsupported_schemas.opml",
        "miniflux-mySubscriptions.opml", "miniflux-rssowl-nested.opml", "freshrss-opml-extension-example.opml",
    ]

    static func opml(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }

    /// The sources of a manifest's text: (id, provider, options).
    static func sources(_ manifest: String) throws -> [(id: String, provider: String, options: JSONObject)] {
        let root = try JSONValue.parse(Data(manifest.utf8))
        guard case .array(let list)? = root.objectValue?["sources"] else { return [] }
        return list.compactMap { value in
            guard let object = value.objectValue, let id = object["id"]?.stringValue,
                  let provider = object["provider"]?.stringValue, let options = object["options"]?.objectValue else { return nil }
            return (id, provider, options)
        }
    }

    static func urls(_ options: JSONObject) -> [String] {
        guard case .array(let list)? = options["urls"] else { return [] }
        return list.compactMap(\.stringValue)
    }

    static func tags(_ options: JSONObject) -> [String] {
        guard case .array(let list)? = options["tags"] else { return [] }
        return list.compactMap(\.stringValue)
    }

    /// Writes `text` as a manifest in a scratch directory and loads it as `aggregate` would.
    static func load(_ text: String) throws -> Manifest {
        let directory = try ScratchDirectory.make("opml")
        let url = directory.appendingPathComponent("manifest.json")
        try Data(text.utf8).write(to: url)
        return try AppDIContainer.load(manifestAt: url).manifest
    }

    @Test("nested folders become tags, ids come from titles, and the manifest is valid")
    func newsboatNested() throws {
        let outcome = try ImportFeedsFromOPMLUseCase().run(opml: try Self.opml("newsboat-example.opml"))
        let sources = try Self.sources(outcome.manifest)
        #expect(sources.map(\.id) == [
            "example-com-website", "distrowatch-mirror", "example-com-website-atom-feed", "example-com-website-rss-0-9-feed",
            "john-s-musings", "notes-by-mike", "fred-on-everything",
        ])
        #expect(sources.allSatisfy { $0.provider == "feed" })
        #expect(Self.urls(sources[5].options) == ["https://blogs.example.com/~mike/.rss"])
        #expect(Self.tags(sources[5].options) == ["Blogs", "friends"])
        #expect(Self.tags(sources[4].options) == ["Blogs"])
        #expect(Self.tags(sources[6].options) == ["eloquent"])
        #expect(Self.tags(sources[0].options).isEmpty && sources[0].options["tags"] == nil)
        #expect(outcome.notes.isEmpty)
        _ = try Self.load(outcome.manifest)
    }

    @Test("category attributes become tags; a feed without a title is named after its host")
    func newsboatCategories() throws {
        let sources = try Self.sources(try ImportFeedsFromOPMLUseCase().run(opml: try Self.opml("newsboat-category.opml")).manifest)
        #expect(sources.count == 1)
        #expect(sources.first?.id == "feeds-bbci-co-uk")
        #expect(Self.tags(sources[0].options) == ["tag one", "tag_two", "tag/three"])
        #expect(Self.urls(sources[0].options) == ["http://feeds.bbci.co.uk/news/business/rss.xml?edition=int"])
    }

    @Test("feeds that are not http or https are skipped with a note each")
    func unsupportedSchemes() throws {
        let outcome = try ImportFeedsFromOPMLUseCase().run(opml: try Self.opml("newsboat-with_unsupported_schemas.opml"))
        #expect(try Self.sources(outcome.manifest).map(\.id) == ["normal-feed"])
        #expect(outcome.notes.count == 2)
        #expect(outcome.notes.first?.contains("ftp://example.com/~user/news.rss") == true)
    }

    @Test("an outline of type rss without a URL is named in a note, not dropped in silence; a folder of that type is no feed")
    func rssOutlineWithoutURL() throws {
        let opml = Data("""
            <?xml version="1.0"?>
            <opml version="2.0"><head><title>Mine</title></head><body>
              <outline text="Tech" type="rss">
                <outline text="Lost feed" type="RSS" htmlUrl="https://lost.example/"/>
                <outline text="Good" type="rss" xmlUrl="https://good.example/feed.xml"/>
              </outline>
              <outline title="Top-level lost" type="atom"/>
              <outline text="A plain note"/>
            </body></opml>
            """.utf8)
        let outcome = try ImportFeedsFromOPMLUseCase().run(opml: opml)
        #expect(try Self.sources(outcome.manifest).map(\.id) == ["good"])
        #expect(outcome.notes == [
            "skipped 'Lost feed' in Tech: an outline of type 'RSS' without an xmlUrl, so no feed to read",
            "skipped 'Top-level lost': an outline of type 'atom' without an xmlUrl, so no feed to read",
        ])
    }

    @Test("the classic mySubscriptions list: 13 feeds, entities in titles decoded")
    func mySubscriptions() throws {
        let sources = try Self.sources(try ImportFeedsFromOPMLUseCase().run(opml: try Self.opml("miniflux-mySubscriptions.opml")).manifest)
        #expect(sources.count == 13)
        #expect(sources.first?.id == "cnet-news-com")
        #expect(sources.contains { $0.id == "nyt-business" })
        #expect(Self.urls(sources[3].options) == ["http://rss.news.yahoo.com/rss/tech"])
    }

    @Test("an RSSOwl export's nested categories are kept outermost first")
    func rssowlNested() throws {
        let sources = try Self.sources(try ImportFeedsFromOPMLUseCase().run(opml: try Self.opml("miniflux-rssowl-nested.opml")).manifest)
        #expect(sources.map(\.id) == ["feed-1", "feed-2", "feed-3"])
        #expect(Self.tags(sources[0].options) == ["My Feeds", "Some Category"])
        #expect(Self.tags(sources[2].options) == ["My Feeds", "Another Category"])
    }

    @Test("a FreshRSS HTML+XPath outline becomes an html source with its expressions")
    func freshRSSScraping() throws {
        let outcome = try ImportFeedsFromOPMLUseCase().run(opml: try Self.opml("freshrss-opml-extension-example.opml"))
        let source = try #require(try Self.sources(outcome.manifest).first)
        #expect(source.provider == "html")
        #expect(source.options["items"]?.stringValue == "//a[contains(@href, '/interesting/')]/ancestor::article")
        #expect(source.options["fields"]?.objectValue?["link"]?.stringValue == "descendant::a[string-length(@href)>0]/@href")
        #expect(source.options["fields"]?.objectValue?["title"]?.stringValue == "descendant::h2")
        _ = try Self.load(outcome.manifest)
    }

    @Test("round trip import → export → import keeps every URL and tag of every real export", arguments: realExports)
    func roundTrip(_ name: String) throws {
        let first = try ImportFeedsFromOPMLUseCase().run(opml: try Self.opml(name))
        let manifest = try Self.load(first.manifest)
        let exported = ExportFeedsToOPMLUseCase().run(manifest: manifest)
        let second = try ImportFeedsFromOPMLUseCase().run(opml: Data(exported.utf8))
        let before = try Self.sources(first.manifest).filter { $0.provider == "feed" }
        let after = try Self.sources(second.manifest)
        #expect(after.flatMap { Self.urls($0.options) } == before.flatMap { Self.urls($0.options) })
        #expect(after.map { Self.tags($0.options) } == before.map { Self.tags($0.options) })
        #expect(after.map(\.id) == before.map(\.id))
        // Only feed sources are exported: a list of html sources alone comes back empty, and says so.
        #expect(second.notes.isEmpty == !before.isEmpty)
    }

    @Test("a URL already in the list or in the manifest is skipped with a note naming its source")
    func duplicates() throws {
        let doubled = String(decoding: try Self.opml("newsboat-example.opml"), as: UTF8.self).replacingOccurrences(
            of: "<outline title=\"eloquent\">",
            with: "<outline title=\"again\" xmlUrl=\"HTTPS://EXAMPLE.com:443/feed.xml\" /><outline title=\"eloquent\">")
        let outcome = try ImportFeedsFromOPMLUseCase().run(opml: Data(doubled.utf8))
        #expect(try Self.sources(outcome.manifest).count == 7)
        #expect(outcome.notes == ["skipped HTTPS://EXAMPLE.com:443/feed.xml: already the feed of source 'example-com-website'"])

        let merged = try ImportFeedsFromOPMLUseCase().run(opml: try Self.opml("newsboat-example.opml"), existing: Data(outcome.manifest.utf8))
        #expect(merged.added.isEmpty)
        #expect(merged.notes.count == 7)
    }

    @Test("--write merges into an existing manifest, keeps its sources, and makes ids unique across both")
    func mergeIntoManifest() throws {
        let directory = try ScratchDirectory.make("opml")
        let url = directory.appendingPathComponent("manifest.json")
        let existing = """
            {"version": 1, "defaults": {"timeoutSeconds": 5},
             "sources": [{"id": "feed-1", "provider": "feed", "options": {"urls": ["https://other.example/feed"]}},
                         {"id": "local", "provider": "files", "options": {"paths": ["data/*.json"]}}]}
            """
        try Data(existing.utf8).write(to: url)
        let outcome = try ImportFeedsFromOPMLUseCase().merge(opml: try Self.opml("miniflux-rssowl-nested.opml"), intoManifestAt: url)
        #expect(outcome.added == ["feed-1-2", "feed-2", "feed-3"])
        let manifest = try AppDIContainer.load(manifestAt: url).manifest
        #expect(manifest.sources.map(\.id) == ["feed-1", "local", "feed-1-2", "feed-2", "feed-3"])
        #expect(manifest.defaults.timeoutSeconds == 5)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.hasPrefix("{\n  \"version\": 1,"))
        #expect(!FileManager.default.fileExists(atPath: url.path + ".import"))
    }

    @Test("a malformed file is an error with libxml2's message, line and column; the manifest is left as it was")
    func malformed() throws {
        let text = String(decoding: try Self.opml("newsboat-example.opml"), as: UTF8.self)
        let broken = text.replacingOccurrences(of: "</outline>\n        <outline title=\"eloquent\">", with: "<outline title=\"eloquent\">")
        do {
            _ = try ImportFeedsFromOPMLUseCase().run(opml: Data(broken.utf8))
            Issue.record("a malformed file was imported")
        } catch {
            let message = error.description
            #expect(message.hasPrefix("not a readable OPML file: line 2"), "\(message)")
            #expect(message.contains(", column "), "\(message)")
            #expect(message.contains("Premature end of data in tag"), "\(message)")
        }
        let notOPML = Data("<rss><channel/></rss>".utf8)
        #expect(throws: ImportFeedsFromOPMLUseCase.ImportError.self) { try ImportFeedsFromOPMLUseCase().run(opml: notOPML) }
    }

    @Test("export writes OPML 2.0 with folders from the first tag and every tag in category")
    func exportShape() throws {
        let manifest = try Self.load("""
            {"version": 1, "sources": [
              {"id": "a", "provider": "feed", "options": {"urls": ["https://a.example/feed?x=1&y=2"], "tags": ["Tech", "Apple"]}},
              {"id": "b", "provider": "feed", "options": {"urls": ["https://b.example/rss"]}},
              {"id": "c", "provider": "feed", "options": {"urls": ["https://c.example/atom"], "tags": ["Tech"]}},
              {"id": "d", "provider": "files", "options": {"paths": ["x.json"]}}]}
            """)
        let opml = ExportFeedsToOPMLUseCase().run(manifest: manifest, title: "Mine & yours")
        #expect(opml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">"))
        #expect(opml.contains("<title>Mine &amp; yours</title>"))
        #expect(opml.contains("""
                <outline text="Tech" title="Tech">
                  <outline type="rss" text="a" title="a" xmlUrl="https://a.example/feed?x=1&amp;y=2" category="Tech,Apple"/>
                  <outline type="rss" text="c" title="c" xmlUrl="https://c.example/atom" category="Tech"/>
                </outline>
            """))
        #expect(opml.contains("    <outline type=\"rss\" text=\"b\" title=\"b\" xmlUrl=\"https://b.example/rss\"/>\n"))
        #expect(!opml.contains("x.json"))
    }
}
