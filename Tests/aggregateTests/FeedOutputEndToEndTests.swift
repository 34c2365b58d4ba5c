import Foundation
import ProviderTesting
import Testing

/// `-f atom|rss|jsonfeed` through the built binary: the feed of the selected items, the same bytes for an
/// unchanged run (a reader polling a cron-written file sees each item once), and the feed options validated.
@Suite("aggregate: feed output (end to end)")
struct FeedOutputEndToEndTests {
    private func run(_ arguments: [String], sandbox: Sandbox? = nil) async throws -> CommandResult {
        let sandbox = try sandbox ?? Sandbox(manifest: ShapingEndToEndTests.manifest, files: ShapingEndToEndTests.files)
        return try await Aggregate.run(arguments + ["--manifest", sandbox.manifestPath])
    }

    @Test("-f atom --sort date: every item, newest first, stable ids; a second run prints the same bytes")
    func atom() async throws {
        let sandbox = try Sandbox(manifest: ShapingEndToEndTests.manifest, files: ShapingEndToEndTests.files)
        let first = try await run(["-f", "atom", "--sort", "date"], sandbox: sandbox)
        #expect(first.status == 0, "\(first.stderr)")
        let ids = first.stdout.components(separatedBy: "<id>").dropFirst(2).compactMap { $0.components(separatedBy: "</id>").first }
        #expect(ids == ["urn:aggregate:blog:b2", "urn:aggregate:news:n3", "urn:aggregate:news:n1",
                        "urn:aggregate:blog:b1", "urn:aggregate:news:n2"])
        let second = try await run(["-f", "atom", "--sort", "date"], sandbox: sandbox)
        #expect(second.stdout == first.stdout)
    }

    @Test("-f rss and -f jsonfeed with --feed-title and --feed-link")
    func rssAndJSONFeed() async throws {
        let rss = try await run(["-f", "rss", "--sources", "news", "--feed-title", "News", "--feed-link", "https://example.com/n"])
        #expect(rss.status == 0)
        #expect(rss.stdout.contains("<title>News</title>\n    <link>https://example.com/n</link>"))
        #expect(rss.stdout.contains(#"<guid isPermaLink="false">urn:aggregate:news:n2</guid>"#))
        let jsonFeed = try await run(["-f", "jsonfeed", "--dedupe", "url"])
        #expect(jsonFeed.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(jsonFeed.stdout.utf8)) as? [String: Any])
        #expect(document["version"] as? String == "https://jsonfeed.org/version/1.1")
        #expect((document["items"] as? [Any])?.count == 4)
    }

    @Test("feed options are checked before anything runs", arguments: [
        (["--feed-title", "x"], "use them with -f atom, rss or jsonfeed"),
        (["-f", "atom", "--feed-link", "ftp://example.com/"], "--feed-link must be an absolute http or https URL"),
        (["-f", "rss", "--feed-title", "  "], "--feed-title needs some text"),
    ])
    func validation(_ arguments: [String], message: String) async throws {
        let result = try await run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message))
        #expect(result.stdout.isEmpty)
    }
}
