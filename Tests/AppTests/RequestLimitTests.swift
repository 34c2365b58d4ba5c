@testable import App
import Domain
import Foundation
import ProviderTesting
import Testing

/// `defaults.maxConcurrentRequests`: one limit on the requests in flight across every source of a container.
@Suite("Process-wide request limit")
struct RequestLimitTests {
    static let feed = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/rss2_spec_sample_liftoff_news.xml")

    /// Serves the recorded feed at every path, each answer after `delay` (so requests overlap unless limited).
    private func server(delay: TimeInterval) async throws -> FixtureServer {
        let server = try await FixtureServer.start()
        server.fallback(try FixtureResponse.file(Self.feed, contentType: "application/rss+xml").delayed(delay))
        return server
    }

    /// `singles` one-feed sources and one source of six feeds (`concurrency` 6), so the limit is the only thing
    /// holding them back.
    private func manifest(base: URL, limit: Int?, singles: Int = 10) -> String {
        let defaults = limit.map { #""defaults": {"cacheTTLSeconds": 0, "maxConcurrentRequests": \#($0)},"# }
            ?? #""defaults": {"cacheTTLSeconds": 0},"#
        let single = (0..<singles).map { #"{"id": "feed\#($0)", "provider": "feed", "options": {"urls": ["\#(base)/single/\#($0).xml"]}}"# }
        let many = #"{"id": "many", "provider": "feed", "concurrency": 6, "options": {"urls": [\#((0..<6).map { "\"\(base)/many/\($0).xml\"" }.joined(separator: ", "))]}}"#
        return #"{"version": 1, \#(defaults) "sources": [\#((single + [many]).joined(separator: ", "))]}"#
    }

    private func run(_ json: String) async throws -> (AppDIContainer, AggregateReport) {
        let directory = ScratchDirectory.path("aggregate-limit")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("manifest.json")
        try Data(json.utf8).write(to: url)
        let container = try AppDIContainer.load(manifestAt: url, environment: ["AGGREGATE_HOME": directory.appendingPathComponent("home").path])
        let outcome = try await container.engine.run(RunRequest())
        return (container, outcome.report)
    }

    @Test("a loopback server never sees more requests in flight than maxConcurrentRequests, across all sources")
    func limitHolds() async throws {
        let server = try await server(delay: 0.1)
        let (container, report) = try await run(manifest(base: server.baseURL, limit: 3, singles: 30))
        await server.stop()

        #expect(report.sources.allSatisfy { $0.status == .ok }, "\(report.sources.map { "\($0.id) \($0.status) \($0.error?.message ?? "")" })")
        #expect(report.sources.map(\.itemCount) == Array(repeating: 4, count: 30) + [24])
        #expect(server.requestCount == 36)
        #expect(server.peakConcurrentRequests <= 3)
        #expect(container.requestSlots.peakInUse <= 3)
        // Limited, not serialised: the slots were used side by side.
        #expect(server.peakConcurrentRequests >= 2)
        #expect(container.requestSlots.usage == (0, 0))
    }

    @Test("without a limit in the manifest, the default (64) lets every source of an ordinary manifest run at once")
    func defaultLimit() async throws {
        let server = try await server(delay: 0.3)
        let (container, report) = try await run(manifest(base: server.baseURL, limit: nil))
        await server.stop()

        #expect(report.sources.allSatisfy { $0.status == .ok })
        #expect(container.requestSlots.limit == 64)
        #expect(container.requestSlots.peakInUse <= 16)
        #expect(server.peakConcurrentRequests > 3)
    }
}
