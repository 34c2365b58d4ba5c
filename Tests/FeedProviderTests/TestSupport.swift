import FeedProvider
import Foundation
import ProviderTesting

/// Feed sources as `aggregate` builds them, with `paths` relative to `Fixtures/`; recorded feeds served as RSS.
let feeds = ProviderHarness(FeedProvider(), id: "news", bundle: .module, contentType: "application/rss+xml; charset=utf-8")
