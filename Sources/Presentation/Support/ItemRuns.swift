import Domain

/// A run of consecutive items of one kind among a source's shown items, measured item by item, so that the
/// table and Markdown can lay it out without holding its items: the repositories of its issues (for the `#`
/// column) and, for the table, each column's widest cell and whether any row fills it. The collecting
/// renderers and the spooled output measure the same way.
struct ItemRun: Sendable {
    /// What the table needs of one set of columns.
    private struct Measure: Sendable {
        var columns: [KindColumn]
        var widths: [Int]
        var filled: [Bool]

        init(_ columns: [KindColumn]) {
            self.columns = columns
            widths = columns.map { TerminalText.width($0.header) }
            filled = columns.indices.map { $0 == 0 }  // the first column stays, filled or not
        }

        mutating func add(_ item: Item) {
            for index in columns.indices {
                let cell = TerminalText.sanitized(columns[index].value(item))
                if !filled[index], !cell.isEmpty { filled[index] = true }
                widths[index] = max(widths[index], TerminalText.width(cell))
            }
        }
    }

    let kind: ItemKind
    private(set) var count = 0
    private var repositories = RepositorySpread()
    /// Table only: the columns measured as if the issues were from one repository, then from several (one
    /// measure for other kinds); which one holds is known at the run's end.
    private var measures: [Measure]

    init(kind: ItemKind, measuringWidths: Bool) {
        self.kind = kind
        guard measuringWidths else {
            measures = []
            return
        }
        measures = [Measure(KindColumn.columns(for: kind, qualified: false))]
        if kind == .issue { measures.append(Measure(KindColumn.columns(for: kind, qualified: true))) }
    }

    mutating func add(_ item: Item) {
        count += 1
        repositories.add(item)
        for index in measures.indices { measures[index].add(item) }
    }

    /// Every column of the run's kind (Markdown).
    var columns: [KindColumn] { KindColumn.columns(for: kind, qualified: repositories.isMany) }

    /// The table's columns: the ones some row fills (a column no row fills, no summaries or labels in this
    /// source, is only noise; the first stays) with their natural widths.
    var filledColumns: (columns: [KindColumn], widths: [Int]) {
        let measure = measures[repositories.isMany && measures.count > 1 ? 1 : 0]
        let kept = measure.columns.indices.filter { measure.filled[$0] }
        return (kept.map { measure.columns[$0] }, kept.map { measure.widths[$0] })
    }
}

/// A source's shown items cut into `ItemRun`s as they come.
struct ItemRuns: Sendable {
    private(set) var runs: [ItemRun] = []
    let measuringWidths: Bool

    init(measuringWidths: Bool) {
        self.measuringWidths = measuringWidths
    }

    init(_ items: some Sequence<Item>, measuringWidths: Bool) {
        self.init(measuringWidths: measuringWidths)
        for item in items { add(item) }
    }

    mutating func add(_ item: Item) {
        if runs.last?.kind != item.kind { runs.append(ItemRun(kind: item.kind, measuringWidths: measuringWidths)) }
        runs[runs.count - 1].add(item)
    }

    var itemCount: Int { runs.reduce(0) { $0 + $1.count } }
}

/// One source's shown items as the table and Markdown write them: measured runs, then the same items again,
/// in the same order, one at a time; `hidden` were left out by `--limit`, `cut` by the table's terminal cap.
struct ShownSourceItems {
    var runs: [ItemRun]
    var hidden: Int
    var cut = 0
    var next: () -> Item?
}

extension ShownSourceItems {
    /// From a collected source: `limit` and then `cap` rows applied to its items.
    init(_ source: SourceReport, options: RenderOptions, cap: Int?, measuringWidths: Bool) {
        let shown = options.shownItems(source.items)
        let printed = cap.map { shown.prefix($0) } ?? shown[...]
        var iterator = printed.makeIterator()
        self.init(
            runs: ItemRuns(printed, measuringWidths: measuringWidths).runs, hidden: source.items.count - shown.count,
            cut: shown.count - printed.count, next: { iterator.next() })
    }
}
