import Domain
import Foundation
import Synchronization

/// The recent search queries of every source, in one small JSON file of the data directory:
///
///     {"sources": {"movies": ["Inception", "Alien"]}, "version": 1}
///
/// Each source's list is most recent first, holds a query once (compared ignoring case and surrounding
/// spaces; the newest spelling is kept) and at most `maxCount` entries. One instance per file serves every
/// source of a run; its lock makes concurrent saves of several sources safe within the process. Writes are
/// atomic (temporary file, then rename), so a reader never sees half a file; two processes saving at the
/// same moment may lose one of the two queries, which a recent-queries list can afford.
public final class RecentQueriesFile: Sendable {
    public static let fileName = "recent-queries.json"
    public static let maxCount = 20

    public let url: URL
    private let lock = Mutex(())

    /// No disk access until the first read or save.
    public init(directory: URL) {
        self.url = directory.appendingPathComponent(Self.fileName)
    }

    /// `sourceID`'s queries, most recent first; none when nothing was saved yet.
    public func queries(sourceID: String) throws(SourceError) -> [String] {
        try lock.withLock { _ throws(SourceError) in try read().sources[sourceID] ?? [] }
    }

    /// Puts `query` first in `sourceID`'s list, dropping an earlier equal query and the oldest past `maxCount`.
    /// Blank queries are not saved.
    public func save(_ query: String, sourceID: String) throws(SourceError) {
        let query = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty else { return }
        try lock.withLock { _ throws(SourceError) in
            var document = try read()
            var queries = document.sources[sourceID] ?? []
            queries.removeAll { $0.trimmingCharacters(in: .whitespacesAndNewlines).caseInsensitiveCompare(query) == .orderedSame }
            queries.insert(query, at: 0)
            document.sources[sourceID] = Array(queries.prefix(Self.maxCount))
            try write(document)
        }
    }

    private struct Document: Codable {
        var version = 1
        var sources: [String: [String]] = [:]
    }

    private func read() throws(SourceError) -> Document {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return Document() }
            throw SourceError(.io, "cannot read \(url.path)")
        }
        do {
            return try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw SourceError(.parse, "\(url.path) is not a recent-queries file; remove it to start over")
        }
    }

    private func write(_ document: Document) throws(SourceError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(document).write(to: url, options: .atomic)
        } catch {
            throw SourceError(.io, "cannot write \(url.path)")
        }
    }
}
