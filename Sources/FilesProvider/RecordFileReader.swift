import Domain
import Foundation

/// One row of a file before field mapping: every field, and the 1-based line it starts on.
public struct FileRow: Sendable, Hashable {
    public var fields: JSONObject
    public var line: Int

    public init(fields: JSONObject, line: Int) {
        self.fields = fields
        self.line = line
    }
}

/// Reads one file format into rows. The built-in readers cover JSON, NDJSON and CSV; this protocol is the
/// extension point for formats other targets parse (feeds: `.rss`, `.atom`, `.rdf`, `.xml`, or any file
/// that starts like XML), which the composition root passes to `FilesProvider(additionalReaders:)`.
///
/// A reader streams: it calls `row` as each row is read, so the repository never needs the whole file in
/// memory unless the format itself demands it. Errors are `SourceError`s whose message is about the file's
/// content ("line 17: invalid JSON: …") without its path: the repository prefixes the path as written.
public protocol RecordFileReader: Sendable {
    /// The `format` option value that selects this reader ("csv", "feed").
    var format: String { get }
    /// Lower-case file extensions that `"format": "auto"` maps to this reader (["rss", "atom", "rdf", "xml"]).
    var fileExtensions: [String] { get }

    /// Whether a file that starts with these bytes (its first 512, or all of a shorter file) can only be
    /// this reader's format. With `"format": "auto"` a reader that recognises the content wins over the
    /// file's extension, so a feed saved as `.rdf`, `.php` or without an extension is still read as a feed.
    /// Most formats cannot tell (CSV is any text) and keep the default, false.
    func recognizes(leadingBytes: [UInt8]) -> Bool

    /// Reads the file at `url`, calling `row` for each row in file order. Checks `cancellation` regularly
    /// and throws `SourceError.cancelled` when it is set.
    func readRows(
        at url: URL, cancellation: CancellationToken, row: (FileRow) throws(SourceError) -> Void
    ) throws(SourceError)
}

extension RecordFileReader {
    public func recognizes(leadingBytes: [UInt8]) -> Bool { false }
}

extension SourceError {
    /// What a reader throws when it stops because the source was cancelled (its time is up).
    public static let cancelled = SourceError(.timeout, "stopped reading: the source was cancelled")
}

/// How often the readers look at the cancellation token (it takes a lock): every this many rows.
let cancellationCheckInterval = 256

/// Converts a parsed JSON value to a row, or says why it is not one (an NDJSON line or array element that is
/// not an object).
func objectRow(_ value: JSONValue, line: Int, what: String) throws(SourceError) -> FileRow {
    guard case .object(let fields) = value else {
        throw SourceError(.parse, "line \(line): expected \(what) to be a JSON object, found \(value.typeName)")
    }
    return FileRow(fields: fields, line: line)
}
