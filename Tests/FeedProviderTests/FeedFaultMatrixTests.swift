import Domain
import FeedProvider
import ProviderKit
import ProviderTesting
import Testing

/// Every HTTP fault, one at a time, beside a healthy feed source in the same run.
@Suite("Feed fault matrix", .serialized)
struct FeedFaultMatrixTests {
    /// Feeds carry no credential; a token in the URL's query stands in for one a careless feed URL might carry.
    static let secret = "feedTOKEN5e4d3c2b1a"

    static let subject = ConformanceSubject.http(
        "feed", provider: FeedProvider(), kind: .entry, secrets: [secret],
        options: { baseURL in ["urls": [.string(baseURL.absoluteString + "/news.xml")]] },
        success: { try feeds.response("rss2_spec_sample_liftoff_news.xml") })

    @Test("each fault is reported with its kind, the healthy source stays intact and nothing secret is printed")
    func faultMatrix() async throws {
        // A body that is not a feed is the feed parser's to judge: `parse`, as for a broken local feed file.
        let results = try await ProviderConformance.faultMatrix(
            Self.subject, expectedKinds: [.malformedBody: .parse, .wrongContentType: .parse])
        print(ProviderConformance.faultMatrixTable([("feed", results)]))
        let violations = results.flatMap(\.violations)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
