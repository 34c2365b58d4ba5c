import Foundation
import ProviderTesting
import SQLiteStore

/// A test's store files in a scratch directory of its own.
extension ScratchDirectory.Folder {
    var databaseURL: URL { url.appendingPathComponent("aggregate.sqlite") }

    func open() throws -> AppDatabase { try AppDatabase.open(at: databaseURL) }

    func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() }
}
