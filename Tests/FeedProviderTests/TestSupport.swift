import Domain
import FeedProvider
import Foundation
import ProviderKit
import ProviderTesting

enum Fixture {
    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// A recorded feed served with a feed content type.
    static func response(_ name: String, contentType: String = "application/rss+xml; charset=utf-8") throws -> FixtureResponse {
        try .file(url(name), contentType: contentType)
    }
}

/// Builds a feed source as `aggregate` would from a manifest entry.
func makeSource(_ options: JSONObject, concurrency: Int = 4) throws -> any ItemSource {
    try FeedProvider().makeSource(.testing(
        id: "news", options: .object(options), concurrency: concurrency, baseDirectory: Fixture.directory))
}

func run(_ source: any ItemSource, concurrency: Int = 4) async -> SourceReport {
    await SourceRunner.run(source, id: "news", provider: "feed", timeoutSeconds: SourceRunner.roomyTimeout, concurrency: concurrency)
}

/// The problems a manifest entry's options are refused with, as "path: message" lines.
func problems(_ options: JSONObject) -> [String] {
    do {
        _ = try makeSource(options)
        return []
    } catch {
        return (error as? ManifestError)?.problems.map(\.description) ?? ["\(error)"]
    }
}
