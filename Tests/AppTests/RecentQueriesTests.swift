@testable import App
import Domain
import Foundation
import SQLiteStore
import ProviderKit
import Testing

/// Saves `--query` through the services App hands it, as the TMDB provider's search does.
private struct RememberingProvider: Provider {
    var name = "remember"
    var summary = "Remembers its query."
    var acceptsQuery = true
    var options: [OptionSpec] = []

    func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        RememberingSource(query: configuration.query, queries: configuration.services.moviesQueries)
    }
}

private struct RememberingSource: ItemSource {
    let query: String?
    let queries: (any MoviesQueriesRepository)?

    func load(_ context: LoadContext, into receiver: ItemReceiver) {
        guard let query else { return receiver.finish() }
        guard let queries else { return receiver.fail(SourceError(.configuration, "no recent-queries store")) }
        do throws(SourceError) { try queries.saveRecentQuery(query) } catch { return receiver.fail(error) }
        receiver.finish()
    }
}

@Suite("Recent queries through the composition root")
final class RecentQueriesTests: Sendable {
    let manifest = """
        {"version": 1, "sources": [
          {"id": "notes", "provider": "echo", "options": {"cities": ["a"]}},
          {"id": "movies", "provider": "remember"},
          {"id": "films", "provider": "remember"}
        ]}
        """
    let registry = ProviderRegistry([EchoProvider(), RememberingProvider()])
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("aggregate-home-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: home) }

    @Test("each source's successful query lands in its own list in the store under AGGREGATE_HOME")
    func savedPerSource() async throws {
        let loaded = try container(manifest, environment: ["AGGREGATE_HOME": home.path], registry: registry)
        #expect(loaded.storeDisplayName == home.appendingPathComponent("aggregate.sqlite").path)
        for (source, query) in [("movies", "Inception"), ("films", "Heat"), ("movies", "Alien")] {
            let outcome = try await loaded.engine.run(RunRequest(selection: [source], query: query))
            #expect(outcome.report.sources.allSatisfy { $0.status == .ok })
        }

        // A later run (a new container, a new connection) reads what this one saved.
        let later = try container(manifest, environment: ["AGGREGATE_HOME": home.path], registry: registry)
        #expect(try later.recentQueries(source: "movies").map(\.query) == ["Alien", "Inception"])
        #expect(try later.recentQueries(source: "films").map(\.query) == ["Heat"])
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("aggregate.sqlite").path))
    }

    @Test("queries lists the sources that take a query, or the one named; others are refused clearly")
    func sourcesToList() throws {
        let loaded = try container(manifest, environment: ["AGGREGATE_HOME": home.path], registry: registry)
        #expect(try loaded.recentQueriesSources(named: nil) == ["movies", "films"])
        #expect(try loaded.recentQueriesSources(named: "films") == ["films"])
        #expect(throws: SelectionError.keepsNoQueries("notes (echo)", keeping: ["movies", "films"])) {
            try loaded.recentQueriesSources(named: "notes")
        }
        #expect(throws: SelectionError.unknownSources(["movie"], known: ["notes", "movies", "films"])) {
            try loaded.recentQueriesSources(named: "movie")
        }
        #expect(SelectionError.keepsNoQueries("notes (echo)", keeping: ["movies"]).description
            == "notes (echo) keeps no search queries; sources that do: movies")
    }

    @Test("the built-in registry offers tmdb, which accepts --query")
    func tmdbRegistered() {
        #expect(ProviderRegistry.builtIn.provider(named: "tmdb")?.acceptsQuery == true)
    }
}
