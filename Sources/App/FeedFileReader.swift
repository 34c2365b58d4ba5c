import Domain
import FeedParsing
import FilesProvider
import Foundation

/// Lets the files provider read feed files (`.rss`, `.atom`, `.rdf`, `.xml`, any file that starts like XML,
/// or `"format": "feed"`) through the same parser as the feed provider: one row per entry, in document order.
///
/// Rows carry the entry's item fields plus `id`, `title`, `url` and `date`, the names the files provider's
/// default field mapping looks for. A row's `line` is the entry's position (1-based): SAX gives no lines.
struct FeedFileReader: RecordFileReader {
    var format: String { "feed" }
    var fileExtensions: [String] { ["rss", "atom", "rdf", "xml"] }

    func recognizes(leadingBytes: [UInt8]) -> Bool { XMLSniffer.looksLikeXML(leadingBytes) }

    func readRows(
        at url: URL, cancellation: CancellationToken, row: (FileRow) throws(SourceError) -> Void
    ) throws(SourceError) {
        var index = 0
        do {
            // Streamed: rows go out as entries close, so a large feed file is never held whole.
            _ = try FeedParser.parse(contentsOf: url, cancellation: cancellation) { (entry) throws(SourceError) in
                index += 1
                try row(FileRow(fields: Self.fields(of: entry), line: index))
            }
        } catch {
            throw cancellation.isCancelled ? .cancelled : error
        }
    }

    static func fields(of entry: FeedEntry) -> JSONObject {
        var fields = entry.itemFields(feedTitle: nil, reserving: 4)
        fields["id"] = .string(entry.id)
        fields["title"] = .string(entry.title ?? FeedEntry.untitledTitle)  // as in the feed provider, not the id
        if let link = entry.link { fields["url"] = .string(link.absoluteString) }
        // The item's date, as `published` or `updated` already wrote it.
        if let date = entry.published != nil ? fields["published"] : entry.updated != nil ? fields["updated"] : nil {
            fields["date"] = date
        }
        return fields
    }
}
