import Domain
import Foundation

/// A page of the item archive as the output shows it: `aggregate search`.
///
/// Every format but the table prints the items in the run's contract (the same envelope, the same feed formats),
/// in the page's order (best match first, or newest first): a script reads search results as it reads a run's.
/// The table is for people: per hit its source, date and title, then the matching passage with the matches
/// highlighted (bold on a colour terminal, «between marks» elsewhere).
public struct SearchResults: Sendable {
    public var page: ArchivePage
    public var generatedAt: Date

    public init(page: ArchivePage, generatedAt: Date = Date()) {
        self.page = page
        self.generatedAt = generatedAt
    }

    /// The page as a report: a source per source id (in order of its first hit), the page's order kept as the
    /// report's merged order.
    public var report: AggregateReport {
        var sources: [SourceReport] = []
        var indexes: [String: Int] = [:]
        var merged: [ItemPosition] = []
        for hit in page.items {
            let index = indexes[hit.sourceID] ?? {
                let descriptor = SourceDescriptor(id: hit.sourceID, provider: "archive", timeoutSeconds: 0, concurrency: 1)
                sources.append(SourceReport(descriptor: descriptor, status: .ok))
                indexes[hit.sourceID] = sources.count - 1
                return sources.count - 1
            }()
            merged.append(ItemPosition(source: index, item: sources[index].items.count))
            sources[index].items.append(hit.item)
        }
        var report = AggregateReport(generatedAt: generatedAt, sources: sources)
        report.merged = merged
        return report
    }

    /// `format`'s text of the page.
    public func text(_ format: OutputFormat, options: RenderOptions) -> String {
        guard format == .table else { return Renderers.renderer(for: format).string(for: report, options: options) }
        return table(color: options.color, width: options.width)
    }

    /// Two lines a hit: source, date and title; then the passage, indented.
    func table(color: Bool, width: Int?) -> String {
        guard !page.items.isEmpty else { return "" }
        let sourceWidth = min(24, page.items.map { TerminalText.width($0.sourceID) }.max() ?? 0)
        var text = ""
        for hit in page.items {
            let date = HumanFormat.date(hit.sortDate)
            var line = TerminalText.fitted(hit.sourceID, to: sourceWidth) + "  " + date + "  "
            let room = width.map { max(10, $0 - TerminalText.width(line)) }
            let title = TerminalText.sanitized(hit.item.title)
            line += ANSIStyle.bold.apply(room.map { TerminalText.truncated(title, to: $0) } ?? title, enabled: color)
            text += line + "\n"
            if let passage = hit.snippet.map({ Self.highlighted($0, color: color) }), !passage.isEmpty {
                text += "    " + passage + "\n"
            } else if let url = hit.item.url {
                text += "    " + ANSIStyle.dim.apply(url.absoluteString, enabled: color) + "\n"
            }
        }
        return text
    }

    /// `snippet` with its matches shown: bold yellow on a colour terminal, «between marks» elsewhere; line
    /// breaks and control characters folded away.
    static func highlighted(_ snippet: String, color: Bool) -> String {
        let (start, end) = ArchivedItem.highlight
        let flat = snippet.split(whereSeparator: \.isNewline).joined(separator: " ")
        var result = ""
        var rest = Substring(flat)
        while let open = rest.range(of: start) {
            result += TerminalText.sanitized(String(rest[..<open.lowerBound]))
            rest = rest[open.upperBound...]
            let close = rest.range(of: end)
            let match = TerminalText.sanitized(String(rest[..<(close?.lowerBound ?? rest.endIndex)]))
            result += color ? "\u{1B}[1;33m" + match + "\u{1B}[0m" : "«" + match + "»"
            rest = close.map { rest[$0.upperBound...] } ?? rest[rest.endIndex...]
        }
        return result + TerminalText.sanitized(String(rest))
    }
}
