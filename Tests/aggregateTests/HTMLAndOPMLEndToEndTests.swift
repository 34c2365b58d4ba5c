import Foundation
import ProviderTesting
import Testing

@Suite("html provider and OPML commands (end to end)")
struct HTMLAndOPMLEndToEndTests {
    /// Newsboat's example export (Tests/AppTests/Fixtures/SOURCES.md), as a user's file.
    static let newsboatExample = """
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="1.0">
            <head>
                <title>Example OPML file for Newsboat tests</title>
            </head>

            <body>
                <outline type="rss" xmlUrl="https://example.com/feed.xml" title="example.com website" />
                <outline type="rss" title="Distrowatch mirror" xmlUrl="https://example.com/mirrors/distrowatch.rss" />
                <outline title="Blogs">
                    <outline xmlUrl="https://blogs.example.com/~john/posts.rss" title="John's musings" type="rss" />
                    <outline title="friends">
                        <outline xmlUrl="https://blogs.example.com/~mike/.rss" title="Notes by Mike" type="rss" />
                    </outline>
                </outline>
            </body>
        </opml>
        """

    @Test("a bad XPath stops the run with exit 78, naming the option and libxml2's reason, before any request")
    func badXPath() async throws {
        let server = try await FixtureServer.start()
        let sandbox = try Sandbox(manifest: """
            {"version": 1, "sources": [{"id": "page", "provider": "html",
              "options": {"urls": ["\(server.baseURL.absoluteString)/news"], "items": "//article",
                          "fields": {"title": ".//h2)"}}}]}
            """)
        for arguments in [["--format", "json"], ["validate"]] {
            let result = try await Aggregate.run(arguments + ["--manifest", sandbox.manifestPath])
            #expect(result.status == 78)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("sources[0].options.fields.title: not a valid XPath 1.0 expression: "), "\(result.stderr)")
        }
        await server.stop()
        #expect(server.requestCount == 0)
    }

    @Test("import prints a manifest, notes duplicates on stderr, and --write merges; export gives the URLs back")
    func importWriteExport() async throws {
        let sandbox = try Sandbox(manifest: """
            {"version": 1, "sources": [{"id": "mine", "provider": "feed", "options": {"urls": ["https://example.com/feed.xml"]}}]}
            """, files: ["subscriptions.opml": Self.newsboatExample])
        let opml = sandbox.root.appendingPathComponent("subscriptions.opml").path

        let printed = try await Aggregate.run(["import", "opml", opml])
        #expect(printed.status == 0)
        #expect(printed.stdout.contains("\"id\": \"notes-by-mike\""))
        #expect(printed.stdout.contains("\"friends\""))

        let merged = try await Aggregate.run(["import", "opml", opml, "--write", "--manifest", sandbox.manifestPath])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.isEmpty)
        #expect(merged.stderr.contains("note: skipped https://example.com/feed.xml: already the feed of source 'mine'"))
        #expect(merged.stderr.contains("added 3 feed source(s)"))

        let exported = try await Aggregate.run(["export", "opml", "--manifest", sandbox.manifestPath])
        #expect(exported.status == 0, "\(exported.stderr)")
        for url in ["https://example.com/feed.xml", "https://example.com/mirrors/distrowatch.rss",
                    "https://blogs.example.com/~john/posts.rss", "https://blogs.example.com/~mike/.rss"] {
            #expect(exported.stdout.contains("xmlUrl=\"\(url)\""), "\(url) is missing")
        }
    }

    @Test("a malformed OPML file exits 65 with the line and column, and the manifest is untouched")
    func malformedOPML() async throws {
        let manifest = #"{"version": 1, "sources": []}"#
        let sandbox = try Sandbox(manifest: manifest, files: ["broken.opml": "<opml version=\"2.0\">\n<body>\n<outline text=\"a\">\n</body></opml>"])
        let result = try await Aggregate.run(
            ["import", "opml", sandbox.root.appendingPathComponent("broken.opml").path, "--write", "--manifest", sandbox.manifestPath])
        #expect(result.status == 65)
        #expect(result.stderr.contains("not a readable OPML file: line 4, column "), "\(result.stderr)")
        #expect(try String(contentsOfFile: sandbox.manifestPath, encoding: .utf8) == manifest)
    }

    @Test("import --help teaches with examples")
    func help() async throws {
        let result = try await Aggregate.run(["import", "opml", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("aggregate import opml subscriptions.opml > manifest.json"))
        #expect(result.stdout.contains("--write"))
    }
}
