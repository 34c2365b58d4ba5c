import Domain
import Foundation
import LocalStore
import Testing

@Suite("Recent queries in a JSON file")
final class RecentQueriesFileTests: Sendable {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("aggregate-store-\(UUID().uuidString)")
    /// A fresh data directory that does not exist yet.
    var directory: URL { root.appendingPathComponent("nested/aggregate") }

    deinit { try? FileManager.default.removeItem(at: root) }

    func repository(_ source: String = "movies", file: RecentQueriesFile? = nil) -> JSONFileMoviesQueriesRepository {
        JSONFileMoviesQueriesRepository(file: file ?? RecentQueriesFile(directory: directory), sourceID: source)
    }

    @Test("queries come back most recent first, from a file a later run reads")
    func mostRecentFirstAndPersisted() throws {
        try repository().saveRecentQuery("Alien")
        try repository().saveRecentQuery("Inception")
        #expect(try repository().recentQueries(maxCount: 20) == ["Inception", "Alien"])
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("recent-queries.json").path))
    }

    @Test("a repeated query moves to the front once, ignoring case and surrounding spaces")
    func duplicatesCollapsed() throws {
        let queries = repository()
        for query in ["Alien", "Inception", " alien ", "Heat"] { try queries.saveRecentQuery(query) }
        #expect(try queries.recentQueries(maxCount: 20) == ["Heat", "alien", "Inception"])
    }

    @Test("at most 20 are kept, the oldest dropped; maxCount limits what is read")
    func capped() throws {
        let queries = repository()
        for index in 1...25 { try queries.saveRecentQuery("query \(index)") }
        let all = try queries.recentQueries(maxCount: 100)
        #expect(all.count == 20)
        #expect(all.first == "query 25")
        #expect(all.last == "query 6")
        #expect(try queries.recentQueries(maxCount: 3) == ["query 25", "query 24", "query 23"])
    }

    @Test("each source keeps its own list in the shared file; blank queries are not kept")
    func perSource() throws {
        let file = RecentQueriesFile(directory: directory)
        try repository("movies", file: file).saveRecentQuery("Alien")
        try repository("films", file: file).saveRecentQuery("Heat")
        try repository("films", file: file).saveRecentQuery("   ")
        #expect(try repository("movies").recentQueries(maxCount: 20) == ["Alien"])
        #expect(try repository("films").recentQueries(maxCount: 20) == ["Heat"])
        #expect(try repository("other").recentQueries(maxCount: 20).isEmpty)
    }

    @Test("saves from many sources at once all land")
    func concurrentSaves() async throws {
        let file = RecentQueriesFile(directory: directory)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<30 {
                group.addTask { try? JSONFileMoviesQueriesRepository(file: file, sourceID: "s\(index % 3)").saveRecentQuery("q\(index)") }
            }
        }
        let counts = try (0..<3).map { try repository("s\($0)").recentQueries(maxCount: 20).count }
        #expect(counts == [10, 10, 10])
    }

    @Test("a file that is not ours is reported, not overwritten")
    func corruptFile() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("recent-queries.json")
        try Data("not json".utf8).write(to: url)
        #expect(throws: SourceError.self) { try repository().recentQueries(maxCount: 20) }
        do {
            try repository().saveRecentQuery("Alien")
            Issue.record("saving over a foreign file should fail")
        } catch {
            #expect(error.kind == .parse)
            #expect(error.message.contains("remove it"))
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == "not json")
    }
}

@Suite("Data directory")
struct DataDirectoryTests {
    @Test("AGGREGATE_HOME wins, then XDG_DATA_HOME/aggregate, then ~/.local/share/aggregate", arguments: [
        (["AGGREGATE_HOME": "/tmp/agg", "XDG_DATA_HOME": "/x", "HOME": "/h"], "/tmp/agg"),
        (["AGGREGATE_HOME": "", "XDG_DATA_HOME": "/x", "HOME": "/h"], "/x/aggregate"),
        (["XDG_DATA_HOME": "relative/ignored", "HOME": "/h"], "/h/.local/share/aggregate"),
        (["HOME": "/h"], "/h/.local/share/aggregate"),
    ])
    func resolution(environment: [String: String], expected: String) {
        #expect(DataDirectory.url(environment: environment).path == expected)
    }
}
