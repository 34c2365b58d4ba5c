import App
import ArgumentParser
import Domain
import Foundation
import Presentation
import ProviderKit

/// `aggregate search QUERY`: the item archive, ranked.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search every item the store kept (the archive), best match first.",
        discussion: """
            Every item a run sees is kept in the store's archive (for each source's retention: by default \
            \(ArchiveRetention.default.days) days, at most \(ArchiveRetention.default.maxItemsPerSource) items per source). \
            The query matches titles, subtitles, text and URLs; a word also finds its other forms (parse, parsing).

              aggregate search wasm                 items with "wasm"
              aggregate search swift server         items with both words
              aggregate search '"server side"'      the phrase
              aggregate search 'swift OR rust'      either word
              aggregate search 'wasm*'              words starting with wasm
              aggregate search 'swift -ios'         leave out items with "ios"
              aggregate search wasm --sources news,hn --since 7d -f ndjson

            Formats other than the table print the items in the run's contract, in the results' order. When more \
            results follow, stderr says how to ask for them (--after). A query that starts with '-' goes after \
            `--`: aggregate search -- -ios swift.
            """)

    @Argument(help: ArgumentHelp("What to look for (the words are joined by spaces).", valueName: "query"))
    var words: [String]

    @Option(name: .long, help: ArgumentHelp("Only these source ids, comma-separated.", valueName: "ids"))
    var sources: String?

    @Option(name: .long, help: ArgumentHelp(
        "Only items dated after this: a duration back from now (30m, 2h, 1d, 1w) or a date (2026-11-20).", valueName: "when"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp("Only these kinds, comma-separated (\(ItemKind.allCases.map(\.rawValue).joined(separator: ", "))).", valueName: "kinds"))
    var kind: String?

    @Option(name: .long, help: ArgumentHelp("Best match first, or by date.", valueName: "order"))
    var sort: SearchSort = .relevance

    @Option(name: .long, help: ArgumentHelp("At most this many results (1 to \(ArchiveQuery.maxLimit)).", valueName: "n"))
    var limit = 20

    @Option(name: .long, help: ArgumentHelp("Continue after the results an earlier search printed (its stderr says the value).", valueName: "cursor"))
    var after: String?

    @Option(name: [.customShort("f"), .long], help: "Output format (default: table).")
    var format: OutputFormat = .table

    @OptionGroup var manifestOptions: ManifestOptions

    func validate() throws {
        _ = try query(now: Date())
    }

    /// The options as one archive query; every mistake is a `ValidationError` (exit 64) naming it.
    func query(now: Date) throws -> ArchiveQuery {
        let text: SearchQuery
        do throws(SearchQuery.SyntaxError) {
            text = try SearchQuery(words.joined(separator: " "))
        } catch {
            throw ValidationError("the query \(words.joined(separator: " ").debugDescription) cannot be searched: \(error.message)")
        }
        guard (1...ArchiveQuery.maxLimit).contains(limit) else {
            throw ValidationError("--limit must be from 1 to \(ArchiveQuery.maxLimit)")
        }
        var since: Date?
        if let text = self.since {
            guard let date = SinceText.date(text, now: now) else {
                throw ValidationError("--since '\(text)' is neither a duration (30m, 2h, 1d, 1w) nor a date (2026-11-20, 2026-11-20T08:00:00Z).")
            }
            since = date
        }
        var kinds: Set<ItemKind>?
        if let kind {
            kinds = []
            for name in Self.list(kind) {
                guard let value = ItemKind(rawValue: name) else {
                    throw ValidationError("--kind: unknown kind '\(name)' (one of \(ItemKind.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                kinds?.insert(value)
            }
        }
        var cursor: ArchiveCursor?
        if let after {
            guard let value = ArchiveCursor(after) else { throw ValidationError("--after '\(after)' is not a value an earlier search printed") }
            cursor = value
        }
        return ArchiveQuery(
            text: text, sourceIDs: sources.map(Self.list), kinds: kinds, since: since, order: sort.order, limit: limit,
            after: cursor)
    }

    func run() throws {
        let query = try query(now: Date())
        let service = try StoreOptions.openStore(manifestOptions)
        if let ids = query.sourceIDs { try check(ids, in: service) }
        let page: ArchivePage
        do throws(SourceError) {
            page = try service.search(query)
        } catch {
            Terminal.writeError("aggregate: \(error.message)\n")
            throw ExitCode(ExitStatus.sourcesFailed)
        }
        let color = format == .table && Terminal.stdoutWantsColor
        let options = RenderOptions(color: color, width: format == .table ? Terminal.stdoutWidth : nil)
        print(SearchResults(page: page).text(format, options: options), terminator: "")
        if page.items.isEmpty {
            Terminal.writeError("aggregate: nothing in the archive matches \(query.text?.description.debugDescription ?? "")\n")
        } else if let next = page.next {
            Terminal.writeError("aggregate: more results: add --after \(next.text)\n")
        }
    }

    /// Refuses a source id that neither the archive nor the manifest knows (a slip, not an empty result).
    private func check(_ ids: [String], in service: StoreService) throws {
        let archived = (try? service.archiveStats().map(\.sourceID)) ?? []
        let defined = (try? manifestOptions.loadContainer().manifest.sources.map(\.id)) ?? []
        let known = Set(archived + defined)
        if let unknown = ids.first(where: { !known.contains($0) }) {
            Terminal.writeError("Error: --sources: unknown source '\(unknown)'\(Suggestion.didYouMean(unknown, in: Array(known))); "
                + "the archive holds: \(archived.isEmpty ? "nothing yet" : archived.joined(separator: ", "))\n")
            throw ExitCode(ExitStatus.usage)
        }
    }

    private static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// `--sort`: the archive's orders a person asks for (the reader APIs' orders by archive id are not among them).
enum SearchSort: String, EnumArgument {
    case relevance, newest, oldest

    var order: ArchiveQuery.Order {
        switch self {
        case .relevance: .relevance
        case .newest: .newest
        case .oldest: .oldest
        }
    }
}
