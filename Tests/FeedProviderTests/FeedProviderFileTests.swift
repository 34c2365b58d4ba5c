import Domain
import Foundation
import ProviderTesting
import Testing
@testable import FeedProvider

@Suite("Feeds from local files")
struct FeedProviderFileTests {
    @Test("globbed files give entry items feed by feed, in document order, at most maxItemsPerFeed each")
    func globbedFiles() async throws {
        let report = await feeds.run(try feeds.makeSource(["paths": ["*.atom", "rss2_spec_sample_liftoff_news.xml"], "maxItemsPerFeed": 3]))
        #expect(report.status == .ok)
        // *.atom matches heise and tpm (sorted), then the RSS sample: 3 + 3 + 3.
        #expect(report.items.count == 9)
        #expect(report.items.allSatisfy { $0.kind == .entry })
        #expect(report.items.prefix(3).allSatisfy { $0.subtitle == "heise developer neueste Meldungen" })
        #expect(report.items[3].subtitle == "All TPM News")
        #expect(report.items[6].title == "Star City")
        #expect(report.items[6].url == URL(string: "http://liftoff.msfc.nasa.gov/news/2003/news-starcity.asp"))
        #expect(report.items[6].date == (try Date("2003-06-03T09:39:21Z", strategy: .iso8601)))
        #expect(report.items[6].fields["author"] == "writer@example.com (Writer)")
    }

    @Test("maxItemsPerFeed defaults to 50")
    func defaultLimit() async throws {
        let report = await feeds.run(try feeds.makeSource(["paths": ["rss1_rdf_sciencemag.rdf"]]))
        #expect(report.items.count == 50)
    }

    @Test("a missing file and a broken one are warnings; the good feed's items are all there")
    func partialFailure() async throws {
        let directory = ScratchDirectory.path("FeedProviderTests")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let broken = directory.appendingPathComponent("broken.rss")
        try Data("<rss><channel><item><title>cut".utf8).write(to: broken)
        let good = feeds.fixture("rss2_spec_sample_liftoff_news.xml")
        let missing = directory.appendingPathComponent("nope-*.rss").path
        let report = await feeds.run(try feeds.makeSource(["paths": [.string(good.path), .string(broken.path), .string(missing)]]))
        #expect(report.status == .ok)
        #expect(report.items.count == 4)
        #expect(report.warnings.count == 2)
        #expect(report.warnings.contains { $0.hasPrefix("\(broken.path): parse: the document ends too early") && $0.contains("line 1, column") })
        #expect(report.warnings.contains { $0.contains("nope-*.rss: notFound: no such file") })
    }

    @Test("when every feed fails, the source fails")
    func allFail() async throws {
        let report = await feeds.run(try feeds.makeSource(["paths": ["/nonexistent/a.rss"]]))
        #expect(report.status == .error)
        #expect(report.error == SourceError(.notFound, "/nonexistent/a.rss: no such file"))
    }
}
