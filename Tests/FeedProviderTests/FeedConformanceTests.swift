import Domain
import FeedProvider
import Foundation
import ProviderTesting
import Testing

/// The contract every provider honours, checked by ProviderTesting's conformance kit.
@Suite("Feed provider conformance", .serialized)
struct FeedConformanceTests {
    /// Private feeds put their credential in the URL; it must never be printed either.
    static let feedToken = "feedTOKEN5f4e3d2c1b0a99887766"

    static let subject = ConformanceSubject.http(
        "feed", provider: FeedProvider(), kind: .entry, secrets: [feedToken],
        options: { baseURL in
            ["urls": .array(["a", "b", "c"].map { .string(baseURL.absoluteString + "/\($0).xml?token=\(feedToken)") })]
        },
        success: { try feeds.response("rss2_spec_sample_liftoff_news.xml") },
        invalidOptions: [
            .init("neither urls nor paths", options: ["maxItemsPerFeed": 5], path: "sources[0].options"),
            .init("a non-HTTP URL", options: ["urls": ["ftp://example.com/feed.xml"]], path: "sources[0].options.urls[0]"),
        ],
        // A body that is not a feed is a feed that cannot be parsed, whatever its HTTP status said.
        expectedKinds: [.malformedJSON: .parse, .htmlInsteadOfJSON: .parse])

    @Test("honours the provider contract", arguments: ConformanceCheck.allCases)
    func contract(_ check: ConformanceCheck) async throws {
        let violations = try await ProviderConformance.run(check, on: Self.subject)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
