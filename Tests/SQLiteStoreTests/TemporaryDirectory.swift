import Foundation
import ProviderTesting
import SQLiteStore

/// A new directory under the system's temporary directory, for one test's database files.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = ScratchDirectory.path("aggregate-store")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var databaseURL: URL { url.appendingPathComponent("aggregate.sqlite") }

    func open() throws -> AppDatabase { try AppDatabase.open(at: databaseURL) }

    func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() }
}
