import Domain
import HTTPClient
import Foundation
import ProviderKit
import Testing
@testable import FeedProvider

@Suite("Feed provider options")
struct FeedProviderOptionsTests {
    @Test("a source names at least one feed")
    func needsAFeed() {
        #expect(feeds.problems([:]) == ["sources[0].options: name at least one feed in 'urls' or 'paths'"])
        #expect(feeds.problems(["urls": [], "paths": []]) == ["sources[0].options: 'urls' and 'paths' are both empty; name at least one feed"])
    }

    @Test("every problem is reported at once, with its JSON path")
    func allProblems() {
        let found = feeds.problems([
            "urls": ["ftp://example.org/feed", "https://example.org/ok.xml", "not a url"],
            "paths": [""], "maxItemsPerFeed": 0, "maxItemsPerFed": 3,
        ])
        #expect(found.contains("sources[0].options.urls[0]: expected an http:// or https:// URL, found 'ftp://example.org/feed'"))
        #expect(found.contains("sources[0].options.urls[2]: expected an http:// or https:// URL, found 'not a url'"))
        #expect(found.contains("sources[0].options.paths[0]: a path cannot be empty"))
        #expect(found.contains("sources[0].options.maxItemsPerFeed: must be at least 1, found 0"))
        #expect(found.contains { $0.hasPrefix("sources[0].options.maxItemsPerFed: unknown option (did you mean 'maxItemsPerFeed'?)") })
        #expect(found.count == 5)
    }

    @Test("baseURL is not an option of feeds: their URLs are explicit")
    func noBaseURL() {
        #expect(feeds.problems(["urls": ["https://example.org/feed"], "baseURL": "https://x.test"]).first?
            .hasPrefix("sources[0].options.baseURL: unknown option") == true)
    }

    @Test("insecureSkipVerify is for loopback feeds only: a feed on a real host makes it a manifest problem")
    func insecureSkipVerifyLoopbackOnly() {
        #expect(feeds.problems(["urls": ["https://localhost:8443/feed.xml"], "insecureSkipVerify": true]).isEmpty)
        let found = feeds.problems(["urls": ["https://localhost:8443/a.xml", "https://news.corp.example/feed.xml"],
                              "insecureSkipVerify": true])
        #expect(found.count == 1 && found.first?.hasPrefix("sources[0].options.insecureSkipVerify: applies to loopback hosts only") == true,
                "\(found)")
    }

    @Test("the Content-Type charset is read with or without quotes", arguments: [
        ("text/xml; charset=windows-1251", "windows-1251"),
        ("application/rss+xml;charset=\"UTF-8\"", "UTF-8"),
        ("text/xml", nil),
        ("text/xml; boundary=x; Charset=ISO-8859-1", "ISO-8859-1"),
    ] as [(String, String?)])
    func charset(header: String, expected: String?) {
        #expect(ContentType.charset(header) == expected)
    }
}
