import CLibXML2
import CLibXML2OnDemand
import Domain
import Foundation

/// Reads entries from an HTML page by XPath: the `html` provider's parser.
///
///     let feed = try HTMLPageParser.parse(body, charset: "iso-8859-1", url: pageURL,
///                                         extraction: HTMLExtraction(items: "//article"), maxItems: 50)
///
/// The page goes through libxml2's HTML parser (recovering from broken markup as browsers do, no network, no
/// DTD, only HTML's own named entities: a page cannot declare entities to expand) into a tree, and XPath 1.0
/// selects the item nodes and each field. The result is a `Feed`, so the entries are the feed provider's: the
/// page's `<title>` as the feed title, links and images resolved against `<base href>` and then the page's URL,
/// dates read as feed dates (or with the extraction's `dateFormat`).
///
/// Nothing is dropped silently: a page whose `items` matches nothing is an empty feed with a warning (the page
/// has changed, or the expression is wrong), items beyond `maxItems` and item nodes that yield no title, link or
/// id are counted in warnings.
public enum HTMLPageParser {
    /// Pages larger than this are refused rather than built into a tree (a local file; HTTP bodies have the
    /// client's `maxResponseBytes`).
    public static let maxPageBytes = 64 << 20

    static let options = Int32(
        HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_IGNORE_ENC.rawValue)

    /// Reads a page already in memory.
    /// - Parameters:
    ///   - charset: the `charset` parameter of the HTTP `Content-Type`, if any.
    ///   - url: where the page came from (after redirects), for relative links.
    public static func parse(
        _ data: Data, charset: String?, url: URL, extraction: HTMLExtraction, maxItems: Int
    ) throws(SourceError) -> Feed {
        guard !data.isEmpty else { throw SourceError(.parse, "the page is empty") }
        guard data.count <= maxPageBytes else {
            throw SourceError(.parse, "the page is \(data.count) bytes, more than the \(maxPageBytes) an HTML page may have")
        }
        _ = LibXML2PushParser.initialized
        let input = HTMLCharset(data, httpCharset: charset)
        let saved = aggregate_xml_silence_generic_errors()
        defer { aggregate_xml_restore_generic_errors(saved) }
        let document = input.bytes.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                htmlReadMemory(chars.baseAddress, Int32(chars.count), url.absoluteString, input.libxmlEncoding, options)
            }
        }
        guard let document else { throw SourceError(.parse, "libxml2 could not read the page as HTML") }
        defer { xmlFreeDoc(document) }
        guard let context = XPathContext(document: document) else {
            throw SourceError(.parse, "libxml2 could not create an XPath context (out of memory)")
        }
        return try PageReader(document: document, context: context, url: url, extraction: extraction)
            .read(maxItems: maxItems)
    }

    /// Reads a local page (relative links resolve against the file's URL unless it has a `<base href>`).
    public static func parse(
        contentsOf fileURL: URL, extraction: HTMLExtraction, maxItems: Int
    ) throws(SourceError) -> Feed {
        let data: Data
        do {
            let size = try fileURL.resourceValues(forKeys: [.fileSizeKey, .isDirectoryKey])
            if size.isDirectory == true { throw SourceError(.io, "is a directory, not an HTML page") }
            if let bytes = size.fileSize, bytes > maxPageBytes {
                throw SourceError(.parse, "the page is \(bytes) bytes, more than the \(maxPageBytes) an HTML page may have")
            }
            data = try Data(contentsOf: fileURL)
        } catch let error as SourceError {
            throw error
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
            throw SourceError(.notFound, "no such file")
        } catch {
            throw SourceError(.io, "cannot read: \((error as NSError).localizedDescription)")
        }
        return try parse(data, charset: nil, url: fileURL, extraction: extraction, maxItems: maxItems)
    }
}

/// One page's tree, read into entries.
private struct PageReader {
    let document: xmlDocPtr
    let context: XPathContext
    let url: URL
    let extraction: HTMLExtraction

    func read(maxItems: Int) throws(SourceError) -> Feed {
        let items = try query(extraction.items, option: "items")
        var fields: [(HTMLExtraction.Field, XPathQuery)] = []
        for (field, expression) in extraction.fields.sorted(by: { $0.key < $1.key }) {
            fields.append((field, try query(expression, option: "fields.\(field.rawValue)")))
        }
        let title = try? query("string(//title)", option: "title").evaluate(in: context, at: nil) {
            LibXMLNode.value(of: $0).map(LibXMLNode.collapsed)
        }.get()
        let base = (try? query("(//base/@href)[1]", option: "base").evaluate(in: context, at: nil) {
            LibXMLNode.value(of: $0).flatMap { FeedText.url(FeedText.trimmed($0), base: url) }
        }.get()) ?? url
        let nodes = try itemNodes(items)
        let pageTitle = title.flatMap { $0.isEmpty ? nil : $0 }
        var warnings: [String] = []
        if nodes.isEmpty {
            warnings.append("the items XPath '\(extraction.items)' matched nothing on the page (has the page changed?)")
            return Feed(title: pageTitle, link: url, entries: [], warnings: warnings)
        }
        let dates = DateReader(format: extraction.dateFormat)
        var entries: [FeedEntry] = []
        var empty = 0
        var failedFields = FailedFields()
        for (position, node) in nodes.prefix(maxItems).enumerated() {
            var values: [HTMLExtraction.Field: String] = [:]
            for (field, query) in fields {
                let evaluated = query.evaluate(in: context, at: node) { result in
                    LibXMLNode.value(of: result, markupIn: field == .summary ? document : nil)
                }
                let value: String?
                switch evaluated {
                case .success(let text): value = text
                case .failure(let error):
                    failedFields.record(field, context.problem(error, in: extraction.fields[field] ?? ""))
                    continue
                }
                guard let value else { continue }
                let text = field == .summary ? FeedText.trimmed(value) : LibXMLNode.collapsed(value)
                if !text.isEmpty { values[field] = text }
            }
            guard let entry = entry(from: values, base: base, dates: dates, position: position) else {
                empty += 1
                continue
            }
            entries.append(entry)
        }
        warnings += failedFields.warnings(extraction: extraction, of: min(nodes.count, maxItems))
        if nodes.count > maxItems {
            warnings.append("kept the first \(maxItems) of \(nodes.count) items (maxItemsPerPage)")
        }
        if empty > 0 {
            warnings.append("left out \(empty) item node(s) with no title, link or id")
        }
        return Feed(title: pageTitle, link: url, entries: entries, droppedEntries: empty, warnings: warnings)
    }

    private func entry(
        from values: [HTMLExtraction.Field: String], base: URL, dates: DateReader, position: Int
    ) -> FeedEntry? {
        let link = values[.link].flatMap { FeedText.url($0, base: base) }
        guard values[.title] != nil || link != nil || values[.id] != nil else { return nil }
        var entry = FeedEntry(id: values[.id] ?? link?.absoluteString ?? "\(url.absoluteString)#\(values[.title] ?? String(position))")
        entry.title = values[.title]
        entry.link = link
        entry.summary = values[.summary].map { FeedText.resolvingRelativeURLs(inHTML: $0, base: base) }
        entry.image = values[.image].flatMap { FeedText.url($0, base: base) }
        if let text = values[.date] {
            entry.published = dates.date(from: text)
            if entry.published == nil { entry.publishedRaw = text }
        }
        return entry
    }

    /// The nodes `items` selects; an expression libxml2 cannot evaluate, or whose value is no node set, fails
    /// the page (and so the source): there is nothing to read items from, and "matched nothing" would hide why.
    private func itemNodes(_ items: XPathQuery) throws(SourceError) -> [xmlNodePtr] {
        let evaluated = items.evaluate(in: context, at: nil) { result in
            (kind: XPathValueKind(result), nodes: LibXMLNode.nodes(of: result))
        }
        switch evaluated {
        case .success(let value) where value.kind == .nodeSet:
            return value.nodes
        case .success(let value):
            throw SourceError(.configuration, "items: the XPath '\(extraction.items)' \(XPathProblem.notNodeSet(value.kind))")
        case .failure(let error):
            throw SourceError(.configuration, "items: the XPath '\(extraction.items)' \(context.problem(error, in: extraction.items))")
        }
    }

    private func query(_ expression: String, option: String) throws(SourceError) -> XPathQuery {
        switch XPathQuery.compile(expression) {
        case .success(let query): return query
        case .failure(let error): throw SourceError(.configuration, "\(option): \(error)")
        }
    }
}

/// Dates of a page's items: with the source's pattern, else as feed dates.
private struct DateReader {
    private let formatter: DateFormatter?

    init(format: String?) {
        formatter = format.map { format in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = format
            return formatter
        }
    }

    func date(from text: String) -> Date? {
        if let formatter { return formatter.date(from: text) }
        return FeedDateParser.date(from: text)
    }
}

/// Fields whose expression libxml2 could not evaluate on an item: one warning per field and page, with the
/// first reason and how many items it failed on, rather than one per item (or none, leaving each item's
/// fallback, such as "(untitled)", to stand unexplained).
private struct FailedFields {
    private var failures: [HTMLExtraction.Field: (reason: XPathProblem, count: Int)] = [:]

    mutating func record(_ field: HTMLExtraction.Field, _ error: XPathProblem) {
        failures[field, default: (error, 0)].count += 1
    }

    func warnings(extraction: HTMLExtraction, of items: Int) -> [String] {
        failures.sorted { $0.key < $1.key }.map { field, failure in
            "fields.\(field.rawValue): the XPath '\(extraction.fields[field] ?? "")' \(failure.reason) on "
                + "\(failure.count) of \(items) items; they have no \(field.rawValue) from it"
        }
    }
}
