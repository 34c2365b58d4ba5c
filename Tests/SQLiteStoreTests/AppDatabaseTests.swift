import Domain
import Foundation
import ProviderKit
import ProviderTesting
import SQLiteStore
import Testing

@Suite("The store's database file: creation, migrations, damage, concurrent writers")
struct AppDatabaseTests {
    static let response = StoredResponse(
        status: 200, headers: [.init(name: "ETag", value: "\"a\"")], body: Data("{}".utf8),
        storedAt: Date(timeIntervalSince1970: 1_800_000_000), expiresAt: Date(timeIntervalSince1970: 1_800_000_300))

    @Test("an empty file is migrated to the current schema and then works")
    func migratesEmptyFile() async throws {
        let directory = try ScratchDirectory.Folder("aggregate-store")
        #expect(FileManager.default.createFile(atPath: directory.databaseURL.path, contents: Data()))
        let (stored, reopened) = try await blocking {
            let store = SQLiteResponseCacheStore(database: try directory.open())
            try store.store(Self.response, forKey: "GET https://x/", sourceID: "s")
            // Opening again finds the migrations applied and keeps the data.
            let again = SQLiteResponseCacheStore(database: try directory.open())
            return (try store.response(forKey: "GET https://x/"), try again.response(forKey: "GET https://x/"))
        }
        #expect(stored == Self.response)
        #expect(reopened == Self.response)
    }

    @Test("a missing directory is created, and the database is in WAL mode")
    func createsDirectoryWAL() async throws {
        let directory = try ScratchDirectory.Folder("aggregate-store")
        let nested = directory.url.appendingPathComponent("a/b/aggregate.sqlite")
        let database = try await blocking { try AppDatabase.open(at: nested) }
        try await blocking { try SQLiteResponseCacheStore(database: database).store(Self.response, forKey: "k", sourceID: "s") }
        #expect(FileManager.default.fileExists(atPath: nested.path))
        #expect(FileManager.default.fileExists(atPath: nested.path + "-wal"), "WAL journal in use")
    }

    @Test("closing keeps the committed pages in the WAL (no checkpoint), and the next open reads them back")
    func keepsWALOnClose() async throws {
        let directory = try ScratchDirectory.Folder("aggregate-store")
        let walPath = directory.databaseURL.path + "-wal"
        try await blocking {
            // The only connections: released at the end of this closure, so SQLite closes them.
            try SQLiteResponseCacheStore(database: try directory.open()).store(Self.response, forKey: "k", sourceID: "s")
        }
        let walAfterWrite = try #require(try FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int)
        #expect(walAfterWrite > 0, "a checkpoint on close would have deleted the WAL")

        let reopened = try await blocking { try SQLiteResponseCacheStore(database: try directory.open()).response(forKey: "k") }
        #expect(reopened == Self.response)
        let walAfterRead = try FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int
        #expect(walAfterRead == walAfterWrite, "opening and reading wrote nothing")
    }

    @Test("a corrupt database is moved aside with a warning and a new one is created")
    func corruptFile() async throws {
        let directory = try ScratchDirectory.Folder("aggregate-store")
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: directory.databaseURL)

        let (database, warnings) = await onOwnThread { AppDatabase.openRecovering(at: directory.databaseURL) }
        let opened = try #require(database)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("moved it to") == true)
        let aside = try directory.files().filter { $0.hasPrefix("aggregate.sqlite.corrupt-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        #expect(aside.count == 1)
        #expect(try Data(contentsOf: directory.url.appendingPathComponent(aside[0])) == garbage, "the old file is kept, untouched")
        let stored = try await blocking {
            try SQLiteResponseCacheStore(database: opened).store(Self.response, forKey: "k", sourceID: "s")
            return try SQLiteResponseCacheStore(database: opened).response(forKey: "k")
        }
        #expect(stored != nil)
    }

    @Test("a healthy database opens without warnings")
    func healthy() async throws {
        let directory = try ScratchDirectory.Folder("aggregate-store")
        _ = try await blocking { try directory.open() }
        let (database, warnings) = await onOwnThread { AppDatabase.openRecovering(at: directory.databaseURL) }
        #expect(database != nil)
        #expect(warnings.isEmpty)
        #expect(try directory.files().allSatisfy { !$0.contains("corrupt") })
    }

    @Test("a store whose directory cannot be made is none, and the warning names the path and the system's reason")
    func directoryNotMade() async throws {
        let directory = try ScratchDirectory.Folder("aggregate-store")
        let file = directory.url.appendingPathComponent("file")
        try Data().write(to: file)
        let url = file.appendingPathComponent("home/aggregate.sqlite")
        let (database, warnings) = await onOwnThread { AppDatabase.openRecovering(at: url) }
        #expect(database == nil)
        #expect(warnings == ["the store at \(url.path) cannot be used (\(file.path)/home: Not a directory); "
            + "running without cache and history"])
    }

    @Test("runs creating the store at the same moment all open it: switching to WAL is retried, not failed")
    func simultaneousCreation() async throws {
        for _ in 0..<10 {
            let directory = try ScratchDirectory.Folder("aggregate-store")
            let openers = 4
            let outcomes = await withTaskGroup(of: String?.self) { group in
                for _ in 0..<openers {
                    group.addTask { await onOwnThread { AppDatabase.openRecovering(at: directory.databaseURL).warnings.first } }
                }
                return await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(outcomes.compactMap { $0 } == [], "every opener got a working store")
            #expect(outcomes.count == openers)
        }
    }

    @Test("two connections writing at once from many threads both succeed and lose nothing")
    func concurrentWriters() async throws {
        let directory = try ScratchDirectory.Folder("aggregate-store")
        let (first, second) = try await blocking { (try directory.open(), try directory.open()) }
        let writers = [first, second]
        await withTaskGroup(of: Void.self) { group in
            for (index, database) in writers.enumerated() {
                group.addTask {
                    await onOwnThread {
                        let history = SQLiteSeenItemsRepository(database: database)
                        for batch in 0..<50 {
                            _ = try? history.recordSeen(by: .testing("s\(index)"), itemIDs: (0..<20).map { "\(batch)-\($0)" }, at: Date())
                        }
                    }
                }
            }
        }
        let stats = try await blocking { try SQLiteStoreMaintenance(database: first).stats() }
        #expect(stats.map(\.historyItems) == [1000, 1000])
    }
}

