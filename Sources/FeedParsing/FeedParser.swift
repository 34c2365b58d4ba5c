import Domain
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses RSS 0.9x/2.0, Atom 1.0/0.3 and RSS 1.0 (RDF) documents into a Domain `Feed`.
///
///     let feed = try FeedParser.parse(contentsOf: fileURL, maxEntries: 50)
///     let feed = try FeedParser.parse(body, charset: "windows-1251", baseURL: finalURL)
///
/// Streaming SAX over libxml2's push parser (`LibXML2PushParser`), never a tree of the document: memory stays flat however
/// large the feed, and parsing stops as soon as `maxEntries` entries are read. The format comes from the
/// root element. Bytes are converted to UTF-8 first when the declaration is absent or wrong, and the
/// usual breakage (HTML entities, bare `&`) is repaired, so a recoverable feed loses no entry.
///
/// Errors are `SourceError`s with short messages (no path: callers prefix the feed's location):
/// `.notFound` / `.io` for files, `.parse` with line and column for documents that cannot be read as a
/// feed (not XML, not a feed, truncated, or past the entity expansion limit).
///
/// Security: external entities are never resolved (no file or network read through a DTD), no DTD is
/// loaded, and entity expansion is bounded by libxml2's amplification limit, so a "billion laughs"
/// document fails within milliseconds.
public enum FeedParser {
    /// Parses a local feed file. Relative links resolve against `xml:base`, then the file's URL.
    public static func parse(
        contentsOf fileURL: URL, maxEntries: Int = .max, cancellation: CancellationToken? = nil
    ) throws(SourceError) -> Feed {
        try parseDetailed(contentsOf: fileURL, maxEntries: maxEntries, cancellation: cancellation).feed
    }

    /// Parses a local feed file and hands each entry to `onEntry` as soon as it closes, in document order,
    /// keeping none: memory stays flat however many entries the file has. The returned `Feed` has the
    /// title and link and no entries. An error `onEntry` throws stops the parse and is rethrown.
    public static func parse(
        contentsOf fileURL: URL, maxEntries: Int = .max, cancellation: CancellationToken? = nil,
        onEntry: (FeedEntry) throws(SourceError) -> Void
    ) throws(SourceError) -> Feed {
        let descriptor = try openFile(fileURL)
        defer { close(descriptor) }
        var consumerError: SourceError?
        let parsed = try withoutActuallyEscaping(onEntry) { (onEntry) throws(SourceError) -> Parsed in
            try run(.file(descriptor: descriptor), charset: nil, baseURL: fileURL, maxEntries: maxEntries,
                    cancellation: cancellation) { entry in
                do throws(SourceError) {
                    try onEntry(entry)
                    return true
                } catch {
                    consumerError = error
                    return false
                }
            }
        }
        if let consumerError { throw consumerError }
        return parsed.feed
    }

    /// Parses a feed body already in memory (an HTTP response).
    /// - Parameters:
    ///   - charset: the `charset` parameter of the HTTP `Content-Type`, if any.
    ///   - baseURL: the URL the body was fetched from (after redirects), for relative links.
    public static func parse(
        _ data: Data, charset: String? = nil, baseURL: URL? = nil, maxEntries: Int = .max,
        cancellation: CancellationToken? = nil
    ) throws(SourceError) -> Feed {
        try parseDetailed(data, charset: charset, baseURL: baseURL, maxEntries: maxEntries,
                          cancellation: cancellation).feed
    }

    // MARK: - Internals (also seen by tests)

    struct Parsed {
        var feed: Feed
        var format: FeedFormat
        var encoding: CharacterEncoding?
    }

    static func parseDetailed(
        contentsOf fileURL: URL, maxEntries: Int = .max, cancellation: CancellationToken? = nil
    ) throws(SourceError) -> Parsed {
        let descriptor = try openFile(fileURL)
        defer { close(descriptor) }
        return try run(.file(descriptor: descriptor), charset: nil, baseURL: fileURL, maxEntries: maxEntries,
                       cancellation: cancellation)
    }

    static func parseDetailed(
        _ data: Data, charset: String? = nil, baseURL: URL? = nil, maxEntries: Int = .max,
        cancellation: CancellationToken? = nil
    ) throws(SourceError) -> Parsed {
        try run(.data(data), charset: charset, baseURL: baseURL, maxEntries: maxEntries, cancellation: cancellation)
    }

    private static func run(
        _ source: FeedByteSource, charset: String?, baseURL: URL?, maxEntries: Int, cancellation: CancellationToken?,
        onEntry: ((FeedEntry) -> Bool)? = nil
    ) throws(SourceError) -> Parsed {
        guard maxEntries > 0 else { throw SourceError(.configuration, "maxEntries must be at least 1") }
        let stream = FeedInputStream(source: source, httpCharset: charset)
        let handler = FeedSAXHandler(
            maxEntries: maxEntries, cancellation: cancellation, documentURL: baseURL, onEntry: onEntry)
        let parser = LibXML2PushParser(handler: handler)
        guard parser.isReady else { throw SourceError(.parse, "libxml2 could not create a parser (out of memory)") }
        var fedBytes = 0
        stream.forEachChunk { bytes, last in
            fedBytes += bytes.count
            parser.feed(bytes, last: last)
            return !handler.stopped && cancellation?.isCancelled != true
        }
        let position = withExtendedLifetime(parser) { handler.position }
        let endPosition = FeedDocumentBuilder.ReportedError(code: 0, line: position.line, column: position.column)
        let document = handler.finish()

        if let readError = stream.readError { throw SourceError(.io, "read failed: \(readError)") }
        if document.stopReason == nil, !document.rootClosed, cancellation?.isCancelled == true {
            throw SourceError(.timeout, "cancelled")
        }
        switch document.stopReason {
        case .notAFeed(let root)?:
            throw SourceError(.parse, "not an RSS, Atom or RDF feed (root element <\(root)>)")
        case .cancelled?:
            throw SourceError(.timeout, "cancelled")
        case .enoughEntries?, .consumerStopped?, nil:
            break
        }
        // A parse that stopped because it had enough entries is complete by definition.
        let complete = document.stopReason != nil
        if let limit = document.entityLimitExceeded {
            throw error(XMLErrorDescription.text(forCode: limit.code), at: limit)
        }
        guard let format = document.format else {
            if fedBytes == 0 { throw SourceError(.parse, "the document is empty") }
            if let failure = handler.inputFailure { throw error(XMLErrorDescription.text(forCode: failure.code), at: failure) }
            if let first = document.firstError { throw error(XMLErrorDescription.text(forCode: first.code), at: first) }
            throw SourceError(.parse, "the document is empty")
        }
        // A document whose root element never closed was cut short (libxml2 says so at the end of input, but
        // in recovery mode it may also have closed elements it should not have): the entries read before the cut stand, and the source is told where it ended; it is an error
        // only when nothing was read.
        var warnings: [String] = []
        if !complete, !document.rootClosed {
            let endedEarly = handler.inputFailure ?? document.endedEarly
            let position = endedEarly ?? endPosition
            let text = endedEarly.map { XMLErrorDescription.text(forCode: $0.code) }
                ?? "the document ends before its root element closes"
            let cut = SourceError(.parse, "\(text) at line \(position.line), column \(position.column)")
            guard document.entryCount > 0 else { throw cut }
            warnings.append("truncated: \(cut.message); the \(document.entryCount) entries before it are kept")
        }
        // Recovery is never silent: what libxml2 read past is said, with where the first problem was.
        if let first = handler.firstRecovered {
            let text = "\(XMLErrorDescription.text(forCode: first.code)) at line \(first.line), column \(first.column)"
            warnings.append(handler.recoveredErrors == 1
                ? "recovered from an XML error: \(text)"
                : "recovered from \(handler.recoveredErrors) XML errors, the first: \(text)")
        }
        if handler.invalidUTF8 { warnings.append("invalid UTF-8 in names or text was replaced with U+FFFD") }
        if stream.skippedLeadingBytes > 0 {
            warnings.append("skipped \(stream.skippedLeadingBytes) byte(s) before the XML declaration")
        }
        let feed = Feed(
            title: document.feedTitle, link: document.siteLink, entries: document.entries,
            droppedEntries: document.droppedEntries, warnings: warnings)
        return Parsed(feed: feed, format: format, encoding: stream.chosenEncoding)
    }

    private static func error(_ text: String, at position: FeedDocumentBuilder.ReportedError) -> SourceError {
        SourceError(.parse, "\(text) at line \(position.line), column \(position.column)")
    }

    private static func openFile(_ url: URL) throws(SourceError) -> Int32 {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR: throw SourceError(.notFound, "no such file")
            case EACCES: throw SourceError(.io, "permission denied")
            default: throw SourceError(.io, "cannot open: \(String(cString: strerror(errno)))")
            }
        }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw SourceError(.io, "is a directory, not a feed file")
        }
        return descriptor
    }
}
