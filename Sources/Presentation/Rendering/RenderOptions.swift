/// How a renderer shapes its output. Formats ignore the options that make no sense for them.
public struct RenderOptions: Sendable {
    /// At most this many items per source in the output; a source's `itemCount` still counts every item
    /// it delivered. `nil` shows everything.
    public var limit: Int?
    /// Table and Markdown: show per-source durations.
    public var verbose: Bool
    /// Table: ANSI colours. The caller decides (only when stdout is a terminal, `NO_COLOR` unset).
    public var color: Bool
    /// Table: terminal columns to fit cells into (truncated with `…`); `nil` never truncates.
    public var width: Int?
    /// Atom, RSS and JSON Feed: the feed's title and addresses.
    public var feed: FeedMetadata
    /// Table: at most this many rows per source, then `… N more rows (use -f ndjson)`; nil shows every row.
    /// Front ends set it only for a terminal (`terminalRowCap`), never for redirected output.
    public var rowCap: Int?

    /// The table's rows per source on a terminal: a few screens of scrollback, enough for any source a
    /// person reads row by row; a source past it is data for a program (`-f ndjson`, `-f csv`).
    public static let terminalRowCap = 1_000

    /// `rowCap` for output that goes to a terminal or not.
    public static func rowCap(stdoutIsTerminal: Bool) -> Int? {
        stdoutIsTerminal ? terminalRowCap : nil
    }

    public init(
        limit: Int? = nil, verbose: Bool = false, color: Bool = false, width: Int? = nil,
        feed: FeedMetadata = FeedMetadata(), rowCap: Int? = nil
    ) {
        self.rowCap = rowCap
        self.limit = limit
        self.verbose = verbose
        self.color = color
        self.width = width
        self.feed = feed
    }
}

extension RenderOptions {
    /// The items of `source` to show under `limit`, in the source's own order.
    func shownItems<C: Collection>(_ items: C) -> C.SubSequence {
        guard let limit else { return items[...] }
        return items.prefix(max(0, limit))
    }
}
