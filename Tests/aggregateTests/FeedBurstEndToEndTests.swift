import Foundation
import ProviderTesting
import Testing

/// A feed that published more entries between two runs than `maxItemsPerFeed` prints: the cap is a display cap,
/// so the item history and the sinks see every entry, the run says what it left out, and nothing is lost.
@Suite("aggregate: a burst larger than maxItemsPerFeed (end to end)")
struct FeedBurstEndToEndTests {
    /// An RSS 2.0 document with the given guids, newest first.
    private static func rss(_ guids: [String]) -> String {
        let items = guids.map { guid in
            "<item><title>Entry \(guid)</title><guid isPermaLink=\"false\">\(guid)</guid></item>"
        }
        return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Busy</title>\(items.joined())</channel></rss>"
    }

    private static func guids(_ range: ClosedRange<Int>) -> [String] { range.reversed().map { "e\($0)" } }

    /// The feed over HTTP (a held source: the response cache decides after the load) or from a file (streamed).
    @Test("with default options, 55 new entries reach the webhook sink, 50 are printed with a warning, and the next --new run shows nothing old",
          arguments: [true, false])
    func burstReachesSinks(overHTTP: Bool) async throws {
        let server = try await FixtureServer.start()
        server.route("/hook", FixtureResponse(status: 204, body: Data()))
        let receiver = SinkReceiver(server: server, secret: SinkSandbox.secret)
        let feed = overHTTP
            ? #""urls": ["\#(server.baseURL.absoluteString)/feed.xml"]"# : #""paths": ["data/feed.xml"]"#
        let sandbox = try Sandbox(manifest: """
            {"version": 1, "sources": [{"id": "news", "provider": "feed", "options": {\(feed)}}],
             "sinks": [\(SinkSandbox.webhook(receiver.url))]}
            """)
        let home = Aggregate.temporaryHome()
        func publish(_ guids: [String]) throws {
            if overHTTP {
                server.route("/feed.xml", FixtureResponse(status: 200, headers: [("Content-Type", "application/rss+xml")],
                                                          body: Data(Self.rss(guids).utf8)))
            } else {
                try Data(Self.rss(guids).utf8).write(to: sandbox.root.appendingPathComponent("data/feed.xml"))
            }
        }
        func run() async throws -> CommandResult {
            let result = try await Aggregate.run(
                ["-f", "json", "--new", "--no-cache", "--manifest", sandbox.manifestPath],
                environment: ["AGGREGATE_HOME": home.path, "HOOK_SECRET": SinkSandbox.secret])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            return result
        }

        try publish(Self.guids(1...3))
        let before = try await run()
        #expect(try before.items().count == 3)
        try publish(Self.guids(1...58))  // 55 new on top of the 3 already seen
        let burst = try await run()
        try publish(Self.guids(1...58))
        let after = try await run()
        await server.stop()

        let printed = try burst.items().compactMap { $0["id"] as? String }
        #expect(printed == Self.guids(9...58), "the feed's first 50 entries, all new, are printed")
        let warnings = try burst.sources().first?["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("50 of 58 entries kept (maxItemsPerFeed)") }, "warnings: \(warnings)")
        #expect(receiver.itemIDs == Self.guids(1...3).map { "news/\($0)" } + Self.guids(4...58).map { "news/\($0)" },
                "the sink got the first 3, then all 55 new entries, each once")
        #expect(try after.items().isEmpty, "the 5 entries past the cap were recorded: the next --new run shows none of them")
    }
}
