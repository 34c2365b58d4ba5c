import Domain
import Foundation
import ProviderTesting
import Testing
@testable import FeedProvider

@Suite("Feeds over HTTP through the loopback server")
struct FeedProviderHTTPTests {
    @Test("RSS, Atom and RDF feeds fetched together, items in the order the URLs are listed")
    func threeFormats() async throws {
        let server = try await FixtureServer.start()
        server.route("/rss", try feeds.response("rss2_spec_sample_liftoff_news.xml"))
        server.route("/atom", try feeds.response("atom10_heise_developer.atom", contentType: "application/atom+xml"))
        server.route("/rdf", try feeds.response("rss1_rdf_sciencemag.rdf", contentType: "application/rdf+xml"))
        let base = server.baseURL.absoluteString
        let report = await feeds.run(try feeds.makeSource([
            "urls": [.string(base + "/rss"), .string(base + "/atom"), .string(base + "/rdf")], "maxItemsPerFeed": 2,
        ]))
        await server.stop()
        #expect(report.status == .ok)
        #expect(report.items.map(\.subtitle) == ["Liftoff News", "Liftoff News", "heise developer neueste Meldungen",
                                                 "heise developer neueste Meldungen", "Science twis", "Science twis"])
        #expect(server.requests.allSatisfy { $0.header("Accept")?.hasPrefix("application/rss+xml") == true })
    }

    @Test("relative links resolve against the URL the feed was fetched from")
    func relativeLinks() async throws {
        let server = try await FixtureServer.start()
        server.route("/feed/all", try feeds.response("atom10_tpm_empty_xml_base.atom", contentType: "application/atom+xml"))
        let report = await feeds.run(try feeds.makeSource(["urls": [.string(server.baseURL.absoluteString + "/feed/all")], "maxItemsPerFeed": 1]))
        await server.stop()
        #expect(report.items.first?.url?.absoluteString
            == server.baseURL.absoluteString + "/livewire/hannity-announces-fox-hired-sebastian-gorka-national-security-strategist")
    }

    @Test("the charset of the Content-Type decodes a body that declares nothing (windows-1251)")
    func httpCharset() async throws {
        let title: [UInt8] = [205, 238, 226, 238, 241, 242, 232]  // "Новости"
        let body = Data(Array("<rss><channel><title>".utf8) + title + Array("</title><item><title>".utf8) + title
            + Array("</title><guid>1</guid></item></channel></rss>".utf8))
        let server = try await FixtureServer.start()
        server.route("/ru", FixtureResponse(headers: [("Content-Type", "text/xml; charset=windows-1251")], body: body))
        let report = await feeds.run(try feeds.makeSource(["urls": [.string(server.baseURL.absoluteString + "/ru")]]))
        await server.stop()
        #expect(report.items.first?.title == "Новости")
        #expect(report.items.first?.subtitle == "Новости")
    }

    @Test("a 404 feed and an HTML page are warnings; the good feed still counts")
    func partialFailure() async throws {
        let server = try await FixtureServer.start()
        server.route("/good", try feeds.response("rss2_spec_sample_liftoff_news.xml"))
        server.route("/html", FixtureResponse(headers: [("Content-Type", "text/html")], body: Data("<html><body>hi</body></html>".utf8)))
        let base = server.baseURL.absoluteString
        let report = await feeds.run(try feeds.makeSource(["urls": [.string(base + "/good"), .string(base + "/missing"), .string(base + "/html")], "maxRetries": 0]))
        await server.stop()
        #expect(report.status == .ok)
        #expect(report.items.count == 4)
        #expect(report.warnings.count == 2)
        #expect(report.warnings.contains { $0.hasPrefix(base + "/missing: notFound: HTTP 404") })
        #expect(report.warnings.contains { $0 == base + "/html: parse: not an RSS, Atom or RDF feed (root element <html>)" })
    }

    @Test("a body cut off mid-transfer is an error of that feed, not a shorter feed")
    func truncatedBody() async throws {
        let server = try await FixtureServer.start()
        server.route("/cut", try feeds.response("rss1_rdf_sciencemag.rdf").with(.truncateBody(afterBytes: 20_000)))
        let report = await feeds.run(try feeds.makeSource(["urls": [.string(server.baseURL.absoluteString + "/cut")], "maxRetries": 0]))
        await server.stop()
        #expect(report.status == .error)
        #expect(report.items.isEmpty)
    }

    @Test("many feeds are fetched concurrently, up to the source's concurrency")
    func concurrency() async throws {
        let server = try await FixtureServer.start()
        let response = try feeds.response("rss2_spec_sample_liftoff_news.xml").delayed(2)
        for index in 0..<8 { server.route("/feed\(index)", response) }
        let urls = (0..<8).map { JSONValue.string(server.baseURL.absoluteString + "/feed\($0)") }
        let report = await feeds.run(try feeds.makeSource(["urls": .array(urls)], concurrency: 4), concurrency: 4)
        await server.stop()
        #expect(report.items.count == 32)
        #expect(server.peakConcurrentRequests == 4)
    }
}
