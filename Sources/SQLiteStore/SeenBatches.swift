import Crypto
import Foundation
import GRDB

/// The digests of large batches of item ids recorded whole in the history (`seen_batch`, migration
/// "v5-seen-batches"). A run that reads the same items again (a file, an answer) hands the history the same
/// batches, and looking up a batch's digest is one B-tree lookup instead of one per id (what the lookups cost:
/// BENCHMARKS.md, "Batches known by their digest").
///
/// A row says that every id of its batch is in `seen_item` under its source key. It is written in the
/// transaction that inserts them and removed with them (`HistorySources.forget`, the only place history rows are
/// deleted). A batch that differs in any way (one id more or fewer, another order) has another digest and is
/// inserted id by id as before, so a digest never stands for an id that is not there: the digest is SHA-256 of
/// the ids in order, each after its length, and two different batches would need a SHA-256 collision to share one.
enum SeenBatches {
    /// Smaller batches are inserted without a digest: their lookups cost little, and a small batch that changes
    /// each run (a feed) would leave a row each time. The digests grow by at most one row per this many ids
    /// recorded.
    static let minimumCount = 1_024

    /// The digest of `itemIDs`, in their order: SHA-256 of each id's UTF-8 length (8 bytes) and bytes.
    static func digest(of itemIDs: [String]) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(itemIDs.count * 24)
        for id in itemIDs {
            withUnsafeBytes(of: UInt64(id.utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: id.utf8)
        }
        return Data(SHA256.hash(data: bytes))
    }

    /// Whether the batch with `digest` was recorded whole under `key`.
    static func isRecorded(_ digest: Data, key: Int64, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM seen_batch WHERE source_key = ? AND digest = ?)"),
            arguments: [key, digest]) ?? false
    }

    /// Notes that the batch with `digest` is recorded whole under `key` (in the transaction that inserted its ids).
    static func record(_ digest: Data, key: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO seen_batch (source_key, digest) VALUES (?, ?)")
            .execute(arguments: [key, digest])
    }
}
