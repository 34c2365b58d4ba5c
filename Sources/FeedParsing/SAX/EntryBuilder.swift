import Domain
import Foundation

/// The parts of one entry as the handler meets them, turned into a `FeedEntry` when the entry closes.
///
/// Where several elements can supply a value, the stronger one wins whatever the order: `pubDate` or
/// `atom:published` over `dc:date`, `title` over `dc:title`, and so on.
struct EntryBuilder {
    var title: String?
    var dcTitle: String?
    var link: URL?
    var guid: String?
    var guidIsPermaLink = true
    var atomID: String?
    var rdfAbout: String?
    var summary: String?
    var dcDescription: String?
    var content: String?
    var author: String?
    var authorName: String?
    var authorEmail: String?
    var categories: [String] = []
    var enclosure: URL?
    var published: Date?
    var publishedRank = 0
    var updated: Date?
    var updatedRank = 0
    /// The first date text seen, for an id of last resort.
    var rawDate: String?
    /// The strongest date text of each kind that could not be read: kept when no date of that kind was.
    var unreadPublished: (text: String, rank: Int)?
    var unreadUpdated: (text: String, rank: Int)?

    mutating func setPublished(_ text: String, rank: Int) {
        if rawDate == nil { rawDate = text }
        guard rank > publishedRank else { return }
        if let date = FeedDateParser.date(from: text) {
            published = date
            publishedRank = rank
        } else if rank > unreadPublished?.rank ?? 0 {
            unreadPublished = (text, rank)
        }
    }

    mutating func setUpdated(_ text: String, rank: Int) {
        if rawDate == nil { rawDate = text }
        guard rank > updatedRank else { return }
        if let date = FeedDateParser.date(from: text) {
            updated = date
            updatedRank = rank
        } else if rank > unreadUpdated?.rank ?? 0 {
            unreadUpdated = (text, rank)
        }
    }

    /// Nothing to show or to tell it apart by: no title, link, id, summary, content or date (read or not).
    var isEmpty: Bool {
        title == nil && dcTitle == nil && link == nil && guid == nil && atomID == nil && rdfAbout == nil
            && summary == nil && dcDescription == nil && content == nil && rawDate == nil && enclosure == nil
    }

    /// - Parameter feedAuthor: an Atom feed's author, which its entries inherit.
    func build(feedAuthor: String?) -> FeedEntry {
        let title = self.title ?? dcTitle
        var link = self.link
        if link == nil, guidIsPermaLink, let guid, guid.hasPrefix("http://") || guid.hasPrefix("https://") {
            link = URL(string: guid)
        }
        let id = guid ?? atomID ?? rdfAbout ?? link?.absoluteString
            ?? "hash:" + Self.stableHash((title ?? "") + "\u{1F}" + (rawDate ?? ""))
        return FeedEntry(
            id: id, title: title, link: link, summary: summary ?? dcDescription, content: content,
            author: author ?? authorName ?? authorEmail ?? feedAuthor, categories: categories,
            published: published, updated: updated, enclosureURL: enclosure,
            publishedRaw: published == nil ? unreadPublished?.text : nil,
            updatedRaw: updated == nil ? unreadUpdated?.text : nil)
    }

    /// FNV-1a, 64-bit, as hex: stable across runs and machines (Swift's `Hasher` is seeded per process).
    static func stableHash(_ text: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
