import Foundation
import ProviderTesting
import Testing

/// A run waiting on a slow server waits: its threads sleep until the answer comes. FoundationNetworking keeps a
/// socket's write source after libcurl has sent the request, and a connected socket can always be written, so
/// without CCurlOnDemand's socket callback (socket_events.c) every wait was a busy loop: tens of wake-ups a
/// millisecond, a core's worth of CPU for as long as the server took.
@Suite("aggregate: waiting on a slow server (end to end)")
struct SlowServerEndToEndTests {
    static let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Slow</title><link>https://slow.example.org/</link>
        <item><title>Worth the wait</title><link>https://slow.example.org/1</link><guid>s1</guid></item>
        </channel></rss>
        """

    @Test("a feed that answers after a second costs the run tens of wake-ups, not a busy loop")
    func waitIsIdle() async throws {
        let server = try await FixtureServer.start()
        server.route("/feed.xml", FixtureResponse(
            headers: [("Content-Type", "application/rss+xml")], body: Data(Self.feed.utf8), delay: 1))
        let sandbox = try Sandbox(manifest: """
            {"version": 1, "defaults": {"cacheTTLSeconds": 0}, "sources": [
              {"id": "slow", "provider": "feed", "options": {"urls": ["\(server.baseURL.absoluteString)/feed.xml"]}}
            ]}
            """)
        defer { try? FileManager.default.removeItem(at: sandbox.root) }
        let run = try await Aggregate.run(["--manifest", sandbox.manifestPath, "-f", "ndjson"])
        await server.stop()
        #expect(run.status == 0, "\(run.stderr.suffix(2_000))")
        #expect(run.stdout.contains(#""title":"Worth the wait""#))
        // Counted, not timed: the idle run's wake-ups do not grow with the wait (about 50 for the whole run here);
        // the busy loop made one each time the socket's write source fired (45,000 over this second).
        #expect(run.voluntaryContextSwitches < 2_000, "\(run.voluntaryContextSwitches) wake-ups while waiting 1 s")
    }
}
