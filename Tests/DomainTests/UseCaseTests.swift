import Dispatch
import Domain
import Foundation
import Synchronization
import Testing

/// In-memory repositories for the capability use cases.
struct InMemoryWeatherRepository: WeatherRepository {
    let weather: [String: Weather]

    func currentWeather(at location: WeatherLocation, cancellation: CancellationToken,
                        completion: @escaping @Sendable (Result<Weather, SourceError>) -> Void) {
        DispatchQueue.global().async {
            if let found = weather[location.description] { completion(.success(found)) }
            else { completion(.failure(SourceError(.notFound, "city not found"))) }
        }
    }
}

final class InMemoryMoviesRepository: MoviesRepository, MoviesQueriesRepository {
    let pages: [[Movie]]
    let requested = Mutex<[Int]>([])
    let saved = Mutex<[String]>([])

    init(pages: [[Movie]]) { self.pages = pages }

    func moviesPage(_ query: MovieQuery, page: Int, cancellation: CancellationToken,
                    completion: @escaping @Sendable (Result<MoviesPage, SourceError>) -> Void) {
        requested.withLock { $0.append(page) }
        let movies = pages[page - 1]
        DispatchQueue.global().asyncAfter(deadline: .now() + Double(pages.count - page) * 0.01) {
            completion(.success(MoviesPage(page: page, totalPages: self.pages.count, totalResults: 0, movies: movies)))
        }
    }

    func recentQueries(maxCount: Int) throws(SourceError) -> [String] { saved.withLock { $0 } }
    func saveRecentQuery(_ query: String) throws(SourceError) { saved.withLock { $0.insert(query, at: 0) } }
}

@Suite("Capability use cases")
struct UseCaseTests {
    private func weather(_ name: String) -> Weather {
        Weather(locationName: name, observedAt: Date(timeIntervalSince1970: 0), condition: "Clouds",
                conditionDescription: "broken clouds", units: .metric, temperature: 21.3)
    }

    @Test("weather keeps the asked order and one unknown city is a warning, not a failure")
    func weatherPartial() async {
        let repository = InMemoryWeatherRepository(weather: ["Seoul": weather("Seoul"), "Busan": weather("Busan")])
        let report = await runToCompletion(FetchWeatherUseCase(
            repository: repository, locations: [.name("Busan"), .name("Atlantis"), .name("Seoul")]))
        #expect(report.status == .ok)
        #expect(report.items.map(\.title) == ["Busan", "Seoul"])
        #expect(report.warnings == ["Atlantis: notFound: city not found"])
        #expect(report.items[0].subtitle == "Clouds, 21.3 °C")
        #expect(report.items[0].fields["temperatureUnit"] == "°C")
    }

    @Test("movies: page 1 first, never past the last page, page order kept, repeated ids dropped")
    func moviePages() async {
        let movie = { (id: Int) in Movie(id: id, title: "m\(id)") }
        let repository = InMemoryMoviesRepository(pages: [[movie(1), movie(2)], [movie(2), movie(3)], [movie(4)]])
        let report = await runToCompletion(SearchMoviesUseCase(
            repository: repository, queriesRepository: repository,
            query: MovieQuery(listing: .search(query: "Inception")), pages: 10))
        #expect(report.status == .ok)
        #expect(report.items.map(\.id) == ["1", "2", "3", "4"])
        #expect(repository.requested.withLock { $0.sorted() } == [1, 2, 3])
        #expect(repository.requested.withLock { $0.first } == 1)
        #expect(repository.saved.withLock { $0 } == ["Inception"])
    }

    @Test("issues are capped per repository at maxItems")
    func issuesCapped() async {
        struct Repo: IssueRepository {
            func issues(in repository: RepositoryRef, matching query: IssueQuery, cancellation: CancellationToken,
                        completion: @escaping @Sendable (Result<IssueListing, SourceError>) -> Void) {
                let date = Date(timeIntervalSince1970: 0)
                completion(.success(IssueListing(issues: (1...5).map {
                    TrackerIssue(repository: repository, number: $0, title: "t\($0)", state: "open", createdAt: date, updatedAt: date)
                })))
            }
        }
        let report = await runToCompletion(FetchIssuesUseCase(
            repository: Repo(), repositories: [RepositoryRef(owner: "a", name: "b"), RepositoryRef(owner: "c", name: "d")],
            query: IssueQuery(maxItems: 2)))
        #expect(report.items.map(\.id) == ["a/b#1", "a/b#2", "c/d#1", "c/d#2"])
        #expect(report.items[0].subtitle == "a/b#1 · open · 0 comments")
    }
}
