import Crypto
import Domain
import Foundation
import GRDB

/// The archive's staging area (`archive_staged`, migration "v7-archive-staging"): a large batch enters the archive
/// in the history's transaction as a few rows of encoded items, and is exploded into `archive_item` and its
/// full-text index later (`catchUp`), off the run's path. Every reader of the archive catches up first, so what
/// a reader sees is the same as if the batch had been written row by row; watch, serve and fleet workers catch up
/// on a thread of their own after each run.
///
/// A staged row holds at most `rowSize` items (`StagedItems`). Rows of one source are exploded in the order they
/// were staged, and once a source has staged rows its later batches are staged too, whatever their size: an older
/// batch never overwrites a newer one.
enum ArchiveStaging {
    /// The most items one staged row holds, and so one catch-up transaction writes.
    static let rowSize = 4_096

    /// `items` encoded as staged rows (`StagedItems`), in order.
    static func payloads(of items: [Item]) -> [[UInt8]] {
        stride(from: 0, to: items.count, by: rowSize).map { start in
            StagedItems.encode(items[start..<min(items.count, start + rowSize)])
        }
    }

    /// SHA-256 of the rows, in order: two batches share it only if they would write the same items.
    static func digest(of payloads: [[UInt8]]) -> Data {
        var hasher = SHA256()
        for payload in payloads {
            withUnsafeBytes(of: UInt64(payload.count).littleEndian) { hasher.update(bufferPointer: $0) }
            payload.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        }
        return Data(hasher.finalize())
    }

    /// Stages `payloads` for the source `key`, seen at `seen` (seconds since 1970).
    static func stage(_ payloads: [[UInt8]], key: Int64, seen: Double, in db: Database) throws {
        let insert = try db.cachedStatement(sql: "INSERT INTO archive_staged (source_key, seen_at, items) VALUES (?, ?, ?)")
        for payload in payloads {
            try insert.execute(arguments: [key, seen, Data(payload)])
        }
    }

    /// Whether the source `key` has staged rows not yet exploded.
    static func hasStaged(key: Int64, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM archive_staged WHERE source_key = ?)"),
            arguments: [key]) ?? false
    }

    /// Explodes every staged row into the archive and its index, oldest first, one row a transaction (a run
    /// writing meanwhile waits for one row's items at most). Safe from any number of threads and processes at
    /// once: each transaction takes the oldest row still there.
    /// - Returns: how many items were exploded.
    static func catchUp(_ database: AppDatabase) throws(SourceError) -> Int {
        // Most calls find nothing: one read, no write lock.
        guard try database.read({ db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM archive_staged)") ?? false })
        else { return 0 }
        var exploded = 0
        while true {
            let count = try database.write { db -> Int? in
                guard let row = try Row.fetchOne(
                    db, sql: "SELECT id, source_key, seen_at, items FROM archive_staged ORDER BY id LIMIT 1")
                else { return nil }
                let id: Int64 = row["id"]
                // A row that cannot be read (written by a newer build?) is dropped rather than blocking the rest.
                let items = StagedItems.decode(row["items"]) ?? []
                try ArchiveWriter.write(
                    items, key: row["source_key"], at: Date(timeIntervalSince1970: row["seen_at"]), in: db)
                try db.execute(sql: "DELETE FROM archive_staged WHERE id = ?", arguments: [id])
                return items.count
            }
            guard let count else { return exploded }
            exploded += count
        }
    }
}
