import Domain
import Foundation

/// Hand-built reports covering what every renderer must cope with: an error, a skipped source with its
/// reason, a source with no items, warnings, long strings, and strings with line breaks, quotes, commas,
/// pipes and non-ASCII text.
enum SampleReports {
    static func date(_ text: String) -> Date {
        ISO8601.date(from: text)!
    }

    static func descriptor(_ id: String, _ provider: String) -> SourceDescriptor {
        SourceDescriptor(id: id, provider: provider, timeoutSeconds: 10, concurrency: 4)
    }

    static let trickyTitle = "Buy \"milk\", eggs | bread\nand 日本語 café 👍"

    /// Small enough to compare whole outputs with.
    static let golden = AggregateReport(
        generatedAt: date("2026-11-22T10:00:00Z"),
        sources: [
            SourceReport(
                descriptor: descriptor("notes", "files"), status: .ok,
                items: [
                    Item(
                        kind: .record, id: "1", title: trickyTitle, url: URL(string: "https://example.com/a?b=1"),
                        date: date("2026-11-20T08:00:00Z"),
                        fields: ["title": .string(trickyTitle), "ratio": 21.3, "count": 3, "tags": ["a", "b"],
                                 "nested": ["z": 1, "a": nil]]),
                    Item(kind: .record, id: "2", title: "Plain", date: date("2026-11-21"), fields: ["count": 4]),
                ],
                duration: 0.0042),
            SourceReport(
                descriptor: descriptor("issues", "github"), status: .error,
                error: SourceError(.unauthorized, "Bad credentials"), duration: 0.031, cache: .miss),
            SourceReport(
                descriptor: descriptor("feed", "rss"), status: .skipped, message: "disabled in the manifest"),
            SourceReport(
                descriptor: descriptor("empty", "files"), status: .ok, warnings: ["a.csv: parse: line 3: bad row"],
                duration: 0.0005),
        ])

    static let empty = AggregateReport(generatedAt: date("2026-11-22T10:00:00Z"), sources: [])

    static func weather(_ city: String, temperature: Double, units: UnitSystem = .metric) -> Item {
        Weather(
            locationName: city, country: "KR", observedAt: date("2026-11-22T09:50:00Z"), condition: "Clouds",
            conditionDescription: "broken clouds", units: units, temperature: temperature, humidity: 64,
            windSpeed: 3.6
        ).toItem()
    }

    static func issue(_ number: Int, _ title: String, labels: [String], repository: String = "acme/app") -> Item {
        let parts = repository.split(separator: "/").map(String.init)
        return TrackerIssue(
            repository: RepositoryRef(owner: parts[0], name: parts[1]), number: number, title: title, state: "open",
            labels: labels.map { TrackerIssue.Label(name: $0) }, createdAt: date("2026-11-01T00:00:00Z"),
            updatedAt: date("2026-11-21T12:30:00Z")
        ).toItem()
    }

    static let longTitle = String(repeating: "very long title ", count: 20) + "END"

    /// One source per kind and per status, for the table and Markdown renderers.
    static let everyKind = AggregateReport(
        generatedAt: date("2026-11-22T10:00:00Z"),
        sources: [
            SourceReport(
                descriptor: descriptor("notes", "files"), status: .ok,
                items: [
                    Record(id: "1", title: trickyTitle, date: date("2026-11-20T08:00:00Z"), fields: [:]).toItem(),
                    Record(id: "2", title: longTitle, date: date("2026-11-21"), fields: [:]).toItem(),
                    Record(id: "3", title: "Third", fields: [:]).toItem(),
                ],
                duration: 0.004),
            SourceReport(
                descriptor: descriptor("weather", "openweather"), status: .ok,
                items: [weather("Seoul", temperature: 21.3), weather("Incheon", temperature: -2)],
                warnings: ["Busan: notFound: city not found"], duration: 0.12),
            SourceReport(
                descriptor: descriptor("issues", "github"), status: .ok,
                items: [issue(12, "Crash on start", labels: ["bug", "ui"]), issue(7, "Docs", labels: [])],
                duration: 0.2),
            SourceReport(
                descriptor: descriptor("private", "github"), status: .error,
                error: SourceError(.unauthorized, "Bad credentials"), duration: 0.031),
            SourceReport(
                descriptor: descriptor("movies", "tmdb"), status: .timeout,
                items: [Movie(id: 603, title: "The Matrix", releaseDate: date("1999-03-31"), voteAverage: 8.2).toItem()],
                error: SourceError(.timeout, "no answer within 10 s"), duration: 10),
            SourceReport(
                descriptor: descriptor("news", "rss"), status: .ok,
                items: [FeedEntry(id: "g1", title: "Hello", published: date("2026-11-19T07:05:00Z"))
                    .toItem(in: Feed(title: "Example Feed", entries: []))],
                duration: 1.5),
            SourceReport(
                descriptor: descriptor("weather-us", "openweather"), status: .skipped,
                error: SourceError(.configuration, "OPENWEATHER_API_KEY is not set"),
                message: "OPENWEATHER_API_KEY is not set"),
            SourceReport(descriptor: descriptor("empty", "files"), status: .ok, duration: 0.001),
        ])
}
