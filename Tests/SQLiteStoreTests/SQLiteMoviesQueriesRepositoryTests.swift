import Domain
import Foundation
import ProviderTesting
import SQLiteStore
import Testing

@Suite("Recent movie queries in SQLite")
struct SQLiteMoviesQueriesRepositoryTests {
    @Test("most recent first, and a repeated query moves to the front instead of appearing twice")
    func order() async throws {
        let (all, two) = try await blocking {
            let repository = SQLiteMoviesQueriesRepository(database: try ScratchDirectory.Folder("aggregate-store").open(), source: .testing("movies"))
            for query in ["Dune", "Alien", "  dune ", "Heat"] { try repository.saveRecentQuery(query) }
            return (try repository.recentQueries(maxCount: 10), try repository.recentQueries(maxCount: 2))
        }
        #expect(all == ["Heat", "dune", "Alien"])
        #expect(two == ["Heat", "dune"])
    }

    @Test("at most 20 are kept, and blank queries are ignored")
    func limit() async throws {
        let recent = try await blocking {
            let repository = SQLiteMoviesQueriesRepository(database: try ScratchDirectory.Folder("aggregate-store").open(), source: .testing("movies"))
            for number in 1...25 { try repository.saveRecentQuery("q\(number)") }
            try repository.saveRecentQuery("   ")
            return try repository.recentQueries(maxCount: 100)
        }
        #expect(recent.count == 20)
        #expect(recent.first == "q25" && recent.last == "q6")
    }

    @Test("each source has its own list, and the list survives reopening the database")
    func scopedAndPersistent() async throws {
        let (a, b) = try await blocking {
            let directory = try ScratchDirectory.Folder("aggregate-store")
            let database = try directory.open()
            try SQLiteMoviesQueriesRepository(database: database, source: .testing("a")).saveRecentQuery("Dune")
            try SQLiteMoviesQueriesRepository(database: database, source: .testing("b")).saveRecentQuery("Heat")
            let reopened = try directory.open()
            return (try SQLiteMoviesQueriesRepository(database: reopened, source: .testing("a")).recentQueries(maxCount: 20),
                    try SQLiteMoviesQueriesRepository(database: reopened, source: .testing("b")).recentQueries(maxCount: 20))
        }
        #expect(a == ["Dune"])
        #expect(b == ["Heat"])
    }
}
