import Domain

/// `--format table`, for people: each source's status line (`● notes (files) ok · 3 items`), its
/// warnings, then its items in aligned, kind-aware columns (see `KindColumn`).
///
/// Cells are sanitised (no line breaks or escape sequences from the data reach the terminal) and, when
/// `width` is set, the widest columns are cut with `…` until a row fits. Colour only when `color` is set.
public struct TableRenderer {
    private static let indent = "  "
    private static let gap = "  "

    public init() {}

    /// `● id (provider) status · problems · N items · duration`.
    func statusLine(_ source: SourceReport, options: RenderOptions) -> String {
        let style = Self.style(for: source.status)
        var parts = [ANSIStyle.bold.apply(TerminalText.sanitized(source.id), enabled: options.color)
            + " (\(TerminalText.sanitized(source.descriptor.provider))) "
            + style.apply(source.status.rawValue, enabled: options.color)]
        parts += SourceSummary.problems(of: source).map(TerminalText.sanitized)
        if let count = SourceSummary.itemCount(of: source, options: options) { parts.append(count) }
        if options.verbose, source.status != .skipped { parts.append(HumanFormat.duration(source.duration)) }
        return style.apply(Self.symbol(for: source.status), enabled: options.color) + " "
            + parts.joined(separator: " · ")
    }

    static func symbol(for status: SourceStatus) -> String {
        switch status {
        case .ok: "●"
        case .error: "✖"
        case .timeout: "◷"
        case .skipped: "○"
        case .stale: "◐"
        }
    }

    static func style(for status: SourceStatus) -> ANSIStyle {
        switch status {
        case .ok: .green
        case .error: .red
        case .timeout, .stale: .yellow
        case .skipped: .dim
        }
    }

    /// A run's header and rows; `next` gives its items, in order.
    private func writeTable(
        _ run: ItemRun, next: () -> Item?, options: RenderOptions, to output: inout some TextOutputStream
    ) {
        let columns = run.filledColumns.columns
        var widths = run.filledColumns.widths
        if let width = options.width {
            let available = width - Self.indent.count - Self.gap.count * (columns.count - 1)
            widths = Self.fit(widths, into: available)
        }
        let header = line(columns.map(\.header), columns: columns, widths: widths)
        output.write(Self.indent + ANSIStyle.dim.apply(header, enabled: options.color) + "\n")
        for _ in 0..<run.count {
            guard let item = next() else { return }
            let row = columns.map { TerminalText.sanitized($0.value(item)) }
            output.write(Self.indent + line(row, columns: columns, widths: widths) + "\n")
        }
    }

    private func line(_ cells: [String], columns: [KindColumn], widths: [Int]) -> String {
        var text = ""
        for (index, cell) in cells.enumerated() {
            if index > 0 { text += Self.gap }
            let isLast = index == cells.count - 1
            if isLast, columns[index].alignment == .left {
                text += TerminalText.truncated(cell, to: widths[index])  // no trailing padding
            } else {
                text += TerminalText.fitted(cell, to: widths[index], alignment: columns[index].alignment)
            }
        }
        return text
    }

    /// Narrows the widest columns first: every column keeps its natural width up to a common cap, the
    /// cap chosen as large as `available` allows; columns already narrower than the cap are untouched.
    static func fit(_ widths: [Int], into available: Int) -> [Int] {
        guard widths.reduce(0, +) > available else { return widths }
        guard available >= widths.count else { return widths.map { _ in 1 } }
        func total(_ cap: Int) -> Int { widths.reduce(0) { $0 + min($1, cap) } }
        var low = 1
        var high = widths.max() ?? 1
        while low < high {  // the largest cap whose total fits
            let middle = (low + high + 1) / 2
            if total(middle) <= available { low = middle } else { high = middle - 1 }
        }
        var fitted = widths.map { min($0, low) }
        var spare = available - fitted.reduce(0, +)
        for index in fitted.indices where spare > 0 && widths[index] > fitted[index] {
            fitted[index] += 1
            spare -= 1
        }
        return fitted
    }
}

extension TableRenderer: ReportRenderer {
    public func render(_ report: AggregateReport, options: RenderOptions, to output: inout some TextOutputStream) {
        render(report, options: options, to: &output) { index in
            ShownSourceItems(report.sources[index], options: options, cap: options.rowCap, measuringWidths: true)
        }
    }

    /// The table, each source's items from `shown` (the report's, or a spool's).
    func render(
        _ report: AggregateReport, options: RenderOptions, to output: inout some TextOutputStream,
        shown: (_ source: Int) -> ShownSourceItems
    ) {
        guard !report.sources.isEmpty else {
            output.write("No sources selected.\n")
            return
        }
        writeSummary(report, options: options, to: &output)
        for (index, source) in report.sources.enumerated() {
            if index > 0 { output.write("\n") }
            output.write(statusLine(source, options: options) + "\n")
            for warning in source.warnings {
                let mark = ANSIStyle.yellow.apply("⚠", enabled: options.color)
                output.write("\(Self.indent)\(mark) \(TerminalText.sanitized(warning))\n")
            }
            let items = shown(index)
            for (runIndex, run) in items.runs.enumerated() {
                if runIndex > 0 { output.write("\n") }
                writeTable(run, next: items.next, options: options, to: &output)
            }
            if items.cut > 0 {
                let more = "… \(items.cut + items.hidden) more rows (use -f ndjson)"
                output.write(Self.indent + ANSIStyle.dim.apply(more, enabled: options.color) + "\n")
            } else if items.hidden > 0 {
                output.write(Self.indent + ANSIStyle.dim.apply("… \(items.hidden) more", enabled: options.color) + "\n")
            }
        }
    }
}
