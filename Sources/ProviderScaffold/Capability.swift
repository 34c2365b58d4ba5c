import Foundation

/// What a new provider delivers, which decides the Domain repository protocol it implements and the use
/// case that presents it.
public enum Capability: String, Sendable, Hashable, CaseIterable {
    /// Generic records (`RecordRepository`, shown by `ReadRecordsUseCase`): anything without a richer entity.
    case records
    /// Current weather (`WeatherRepository`, `FetchWeatherUseCase`).
    case weather
    /// Issues of tracker repositories (`IssueRepository`, `FetchIssuesUseCase`).
    case issues
    /// Pages of a movie listing (`MoviesRepository`, `SearchMoviesUseCase`).
    case movies
    /// Syndication feeds (`FeedRepository`, `FetchFeedEntriesUseCase`).
    case feed

    public init(parsing text: String) throws(ScaffoldError) {
        guard let capability = Capability(rawValue: text.lowercased()) else { throw .unknownCapability(text) }
        self = capability
    }

    /// The Domain protocol the generated repository conforms to.
    public var repositoryProtocol: String {
        switch self {
        case .records: "WholeUnitRecordRepository"
        case .weather: "WeatherRepository"
        case .issues: "IssueRepository"
        case .movies: "MoviesRepository"
        case .feed: "FeedRepository"
        }
    }

    /// The Domain use case the provider returns from `makeSource`.
    public var useCase: String {
        switch self {
        case .records: "ReadRecordsUseCase"
        case .weather: "FetchWeatherUseCase"
        case .issues: "FetchIssuesUseCase"
        case .movies: "SearchMoviesUseCase"
        case .feed: "FetchFeedEntriesUseCase"
        }
    }

    /// The `ItemKind` case the items have.
    public var itemKind: String {
        switch self {
        case .records: "record"
        case .weather: "weather"
        case .issues: "issue"
        case .movies: "movie"
        case .feed: "entry"
        }
    }

    /// The middle of the repository's type name: `TechDigestRecordRepository`.
    var repositoryNoun: String {
        switch self {
        case .records: "Record"
        case .weather: "Weather"
        case .issues: "Issue"
        case .movies: "Movies"
        case .feed: "Feed"
        }
    }
}
