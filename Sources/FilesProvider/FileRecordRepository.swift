import Dispatch
import Domain
import Foundation
import ProviderKit

/// Records from local files: each glob match is one unit, read on a thread of its own by the reader for its
/// format, and its rows mapped to records by the source's `FieldMapping`.
///
/// Units are the files' paths as written relative to the manifest's directory (absolute when outside it),
/// so warnings and errors name files the way the user does. A pattern that matches nothing is kept as a unit
/// of its own, which fails with `notFound`: under the shared partial-failure policy it becomes a warning
/// when other files were read, and the source's error when nothing was.
public struct FileRecordRepository: Sendable {
    private let patterns: [URL]
    private let baseDirectory: URL
    private let format: String?
    private let readers: [any RecordFileReader]
    private let mapping: FieldMapping

    /// - Parameters:
    ///   - patterns: absolute glob patterns, in the manifest's order.
    ///   - baseDirectory: the manifest's directory; units are shown relative to it.
    ///   - format: the reader's `format` to use for every file, or nil to choose by file extension.
    ///   - readers: the available readers; for `format: nil` the first whose extensions match wins.
    public init(
        patterns: [URL], baseDirectory: URL, format: String?, readers: [any RecordFileReader],
        mapping: FieldMapping
    ) {
        self.patterns = patterns
        self.baseDirectory = baseDirectory.standardizedFileURL
        self.format = format
        self.readers = readers
        self.mapping = mapping
    }

    /// Reads one unit synchronously, handing each record to `body` as it is read (nothing is collected here).
    public func forEachRecord(
        in unit: String, cancellation: CancellationToken, body: (Record) throws(SourceError) -> Void
    ) throws(SourceError) {
        if cancellation.isCancelled { throw .cancelled }
        let url = self.url(of: unit)
        if Self.isPattern(unit), !FileManager.default.fileExists(atPath: url.path) {
            throw SourceError(.notFound, "no file matches this pattern")
        }
        let reader = try self.reader(for: url)
        try reader.readRows(at: url, cancellation: cancellation) { (row) throws(SourceError) in
            try body(mapping.record(from: row, unit: unit))
        }
    }

    private func reader(for url: URL) throws(SourceError) -> any RecordFileReader {
        let known = readers.map(\.format).joined(separator: ", ")
        if let format {
            guard let reader = readers.first(where: { $0.format == format }) else {
                throw SourceError(.configuration, "no reader for format '\(format)'; known formats: \(known)")
            }
            return reader
        }
        if let leadingBytes = Self.leadingBytes(of: url),
            let reader = readers.first(where: { $0.recognizes(leadingBytes: leadingBytes) })
        {
            return reader
        }
        let fileExtension = url.pathExtension.lowercased()
        guard let reader = readers.first(where: { $0.fileExtensions.contains(fileExtension) }) else {
            let what = fileExtension.isEmpty ? "a file without an extension" : "'.\(fileExtension)' files"
            throw SourceError(.configuration, "cannot tell the format of \(what); set \"format\" to one of \(known)")
        }
        return reader
    }

    /// How much of a file `RecordFileReader.recognizes(leadingBytes:)` sees: enough for byte order marks,
    /// white space and an XML declaration, little enough to cost nothing per file.
    private static let sniffLength = 512

    /// The first `sniffLength` bytes of the file, or nil when it cannot be read (the reader chosen by the
    /// extension then reports why).
    private static func leadingBytes(of url: URL) -> [UInt8]? {
        guard let input = try? FileInput(url: url) else { return nil }
        var bytes = [UInt8](repeating: 0, count: sniffLength)
        var count = 0
        while count < sniffLength {
            let read: Int? = bytes.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else { return nil }
                return try? input.readChunk(into: base + count, count: sniffLength - count)
            }
            guard let read, read > 0 else { break }
            count += read
        }
        return Array(bytes.prefix(count))
    }

    // MARK: - Paths

    /// The unit's name for a file: relative to the manifest's directory when inside it.
    func unitName(of url: URL) -> String {
        let path = url.standardizedFileURL.path
        let base = baseDirectory.path.hasSuffix("/") ? baseDirectory.path : baseDirectory.path + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }

    private func url(of unit: String) -> URL {
        unit.hasPrefix("/") ? URL(fileURLWithPath: unit) : baseDirectory.appendingPathComponent(unit)
    }

    private static func isPattern(_ path: String) -> Bool {
        path.contains { "*?[".contains($0) }
    }
}

extension FileRecordRepository: RecordRepository {
    /// Each pattern's matches sorted by path, patterns in the manifest's order, a file listed twice read once.
    public func recordUnits() -> Result<[String], SourceError> {
        var units: [String] = []
        var seen: Set<String> = []
        for pattern in patterns {
            let matches = Glob.expand(pattern)
            let names = matches.isEmpty ? [unitName(of: pattern)] : matches.map(unitName(of:))
            for name in names where seen.insert(name).inserted {
                units.append(name)
            }
        }
        return .success(units)
    }

    /// Reads the file on a thread of its own and hands its records over in batches of `batchSize`. Reading
    /// blocks (the disk, and the run's output when it is slower than the file), so never on the shared pool.
    public func streamRecords(
        in unit: String, cancellation: CancellationToken,
        onRecords: @escaping @Sendable ([Record]) -> Void,
        completion: @escaping @Sendable (SourceError?) -> Void
    ) {
        let thread = Thread {
            var batch: [Record] = []
            batch.reserveCapacity(Self.batchSize)
            do throws(SourceError) {
                try forEachRecord(in: unit, cancellation: cancellation) { record in
                    batch.append(record)
                    if batch.count == Self.batchSize {
                        onRecords(batch)
                        batch.removeAll(keepingCapacity: true)
                    }
                }
            } catch {
                if !batch.isEmpty { onRecords(batch) }
                return completion(error)
            }
            if !batch.isEmpty { onRecords(batch) }
            completion(nil)
        }
        thread.name = "aggregate.files"
        thread.start()
    }

    /// Records per batch when streaming: large enough that handing over costs nothing next to reading, small
    /// enough that a batch is a few hundred KiB at most.
    static let batchSize = 512
}
