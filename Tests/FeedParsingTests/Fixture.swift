import Foundation
import ProviderTesting

/// The test target's copies of the shared feed fixtures (see Fixtures/SOURCES.md).
enum Fixture {
    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }

    /// A document written by a test: a real file, as the parser reads files.
    static func write(_ data: Data, name: String = "feed.xml") throws -> URL {
        let directory = try ScratchDirectory.make("FeedParsingTests")
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }
}

extension Date {
    /// `2014-07-06T12:56:00Z` → Date, for expectations.
    init(iso text: String) {
        self = try! Date(text, strategy: .iso8601)
    }
}
