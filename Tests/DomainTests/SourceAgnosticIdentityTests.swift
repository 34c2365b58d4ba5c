import Domain
import Foundation
import Testing

/// Identities that a second service of the same capability can use without a Domain change, and the first
/// service's output unchanged by them.
@Suite("Source-agnostic identities")
struct SourceAgnosticIdentityTests {
    @Test("a movie service with text ids (OMDb's tt…) dedupes by them and keeps them as text")
    func textMovieIDs() async {
        let movie = { (id: String) in Movie(id: .text(id), title: "m \(id)") }
        let repository = InMemoryMoviesRepository(pages: [
            [movie("tt0137523"), movie("tt0133093")], [movie("tt0133093"), movie("tt0234215")],
        ])
        let report = await runToCompletion(SearchMoviesUseCase(
            repository: repository, query: MovieQuery(listing: .popular), pages: 2))
        #expect(report.items.map(\.id) == ["tt0137523", "tt0133093", "tt0234215"])
        #expect(report.items.first?.fields["movieId"] == .string("tt0137523"))
    }

    @Test("numeric movie ids stay JSON numbers in fields.movieId, as TMDB's always were")
    func numericMovieIDs() {
        let item = Movie(id: 603, title: "The Matrix").toItem()
        #expect(item.id == "603")
        #expect(item.fields["movieId"] == .int(603))
        #expect(MovieID(integerLiteral: 7) != MovieID.text("7"), "a number and a text id are different identities")
        #expect(JSONValue.object(item.fields).compactJSON.contains(#""movieId":603"#))
    }

    @Test("a place id is the service's text; a weather item's id reads as before", arguments: [
        (WeatherLocation.id("2643743"), "city 2643743"), (.id("EGLL"), "city EGLL"),
        (.name("Seoul"), "Seoul"), (.coordinates(latitude: 44.34, longitude: 10.99), "44.34,10.99"),
    ])
    func placeIDs(location: WeatherLocation, itemID: String) {
        let weather = Weather(locationName: "x", observedAt: Date(timeIntervalSince1970: 0), condition: "Clear",
                              conditionDescription: "clear sky", units: .standard, temperature: 290.15)
        #expect(weather.toItem(requested: location).id == itemID)
    }
}
