import Domain
import Foundation
import HackerNewsProvider
import ProviderKit
import ProviderTesting
import Testing

@Suite("Hacker News provider")
struct HackerNewsProviderTests {
    let provider = HackerNewsProvider()

    @Test("options: every one optional; a wrong list, kind or maxItems is named with its path")
    func optionProblems() {
        #expect(provider.optionProblems([:]).isEmpty)
        let byPath = Dictionary(provider.optionProblems(["list": "hot", "itemKind": "story", "maxItems": 501]).map { ($0.path, $0.message) },
                                uniquingKeysWith: { $0 + "; " + $1 })
        #expect(byPath["sources[0].options.list"]?.contains("top, new, best") == true)
        #expect(byPath["sources[0].options.itemKind"]?.contains("entry, record") == true)
        #expect(byPath["sources[0].options.maxItems"]?.contains("between 1 and 500") == true)
        #expect(HackerNewsProvider().options.allSatisfy { !$0.help.isEmpty })
    }

    @Test("the list is read first, then only its first maxItems stories, in the list's order", arguments: ["top", "new", "best"])
    func listThenItems(list: String) async throws {
        let server = try await FixtureServer.start()
        try server.serveRecordedStories(list: list)
        let report = try await run(options(server: server, ["list": .string(list), "maxItems": 2, "itemKind": "record"]))
        await server.stop()
        #expect(report.status == .ok, "\(String(describing: report.error))")
        #expect(report.items.map(\.id) == ["16072368", "8863"])
        #expect(server.requests.first?.path == "/v0/\(list)stories.json")
        #expect(Set(server.requests.dropFirst().map(\.path)) == [itemPath(16072368), itemPath(8863)])
    }

    @Test("the recorded top stories list: 500 ids, maxItems of them asked for")
    func recordedTopList() async throws {
        let server = try await FixtureServer.start()
        server.route("/v0/topstories.json", try Fixture.topStories.response())
        server.route(itemPath(16072368), try Fixture.intel.response())
        server.fallback(try Fixture.null.response())
        let report = try await run(options(server: server, ["maxItems": 3, "itemKind": "record"]))
        await server.stop()
        #expect(server.requests.dropFirst().map(\.path).sorted() == [itemPath(16072368), itemPath(16073745), itemPath(16073874)])
        #expect(report.status == .ok)
        #expect(report.items.map(\.id) == ["16072368"])
        // The two stories HN answers null for, each named, and the cap's own word on the 497 ids not asked for.
        let missing = report.warnings.filter { $0.contains("notFound") }
        #expect(missing.count == 2 && missing.allSatisfy { $0.contains("answered null") }, "\(report.warnings)")
        #expect(report.warnings.count == 3 && report.warnings.contains { $0.contains("(maxItems)") }, "\(report.warnings)")
    }

    @Test("records carry HN's own fields; a job's empty url falls back to its discussion page")
    func records() async throws {
        let server = try await FixtureServer.start()
        try server.serveRecordedStories()
        let report = try await run(options(server: server, ["itemKind": "record"]))
        await server.stop()
        #expect(report.items.map(\.kind) == [.record, .record, .record])
        let intel = try #require(report.items.first)
        #expect(intel.title == "Intel Issues Updates to Protect Systems from Security Exploits")
        #expect(intel.fields["hnId"] == 16072368 && intel.fields["score"] == 224 && intel.fields["comments"] == 166)
        #expect(intel.fields["by"] == "runesoerensen" && intel.fields["type"] == "story")
        #expect(intel.fields["time"] == "2018-01-04T17:53:36Z")
        #expect(intel.url?.host == "newsroom.intel.com")
        #expect(intel.subtitle == "224 points · by runesoerensen · 166 comments")
        let job = try #require(report.items.last)
        #expect(job.fields["type"] == "job" && job.fields["url"] == nil && job.fields["comments"] == nil)
        #expect(job.url?.absoluteString == "https://news.ycombinator.com/item?id=192327")
        #expect(job.fields["text"]?.displayText.hasPrefix("Justin.tv is the biggest") == true)
    }

    @Test("entries look like a feed's: discussion page as id, author, published, the list as feed title")
    func entries() async throws {
        let server = try await FixtureServer.start()
        try server.serveRecordedStories(list: "best")
        let report = try await run(options(server: server, ["list": "best"]))
        await server.stop()
        #expect(report.items.map(\.kind) == [.entry, .entry, .entry])
        let dropbox = report.items[1]
        #expect(dropbox.id == "https://news.ycombinator.com/item?id=8863")
        #expect(dropbox.url?.absoluteString == "http://www.getdropbox.com/u/2/screencast.html")
        #expect(dropbox.fields["author"] == "dhouston" && dropbox.fields["published"] == "2007-04-04T19:16:40Z")
        #expect(dropbox.fields["feedTitle"] == "Hacker News best stories" && dropbox.subtitle == "Hacker News best stories")
        #expect(dropbox.fields["categories"] == ["story"])
    }

    @Test("a story that fails is a warning naming it; the list failing fails the source")
    func failures() async throws {
        let server = try await FixtureServer.start()
        try server.serveRecordedStories()
        server.route(itemPath(8863), .json(#"{"error":"boom"}"#, status: 500))
        let report = try await run(options(server: server, ["itemKind": "record", "maxRetries": 0]))
        #expect(report.status == .ok && report.items.map(\.id) == ["16072368", "192327"])
        #expect(report.warnings.contains { $0.contains("story 8863") && $0.contains("network") }, "\(report.warnings)")

        server.route("/v0/topstories.json", .json("{}", status: 503))
        let failed = try await run(options(server: server, ["maxRetries": 0]))
        await server.stop()
        #expect(failed.status == .error && failed.error?.kind == .network)
        #expect(failed.error?.message.contains("top stories list") == true)
    }

    @Test("stories are fetched concurrently, never more at once than the source's concurrency", arguments: [1, 3])
    func boundedConcurrency(limit: Int) async throws {
        let server = try await FixtureServer.start()
        server.route("/v0/topstories.json", try Fixture.topStories.response())
        server.fallback(try Fixture.intel.response().delayed(0.2))
        let report = try await run(options(server: server, ["maxItems": 6, "itemKind": "record"]), concurrency: limit)
        await server.stop()
        #expect(report.items.count == 6)
        #expect(server.peakConcurrentRequests <= limit)
        if limit > 1 { #expect(server.peakConcurrentRequests > 1, "the stories were fetched one at a time") }
    }
}
