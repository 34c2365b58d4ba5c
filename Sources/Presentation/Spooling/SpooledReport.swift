import Domain
import Foundation
import Synchronization

/// The formats that need every item before their first byte, for a run that streams: `-f csv` (its header is
/// the union of the items' field keys), `-f table` (column widths), `-f markdown` (each run's columns), and any
/// of them or `-f json`/`-f ndjson` in a date order (newest first across every source). Items go to an
/// `ItemSpool` (a temporary file) as they come, with what the format needs gathered on the way (the key union,
/// the measured runs); once the run is over the spool is read back in output order and written by the same
/// code as the collecting renderer's: the same bytes, in memory bounded by a chunk and 16 bytes an item for a
/// date order.
///
/// Batches must arrive in output order, one at a time, as the run engine's stream gives them. `--limit`,
/// the table's terminal cap and the date order are applied here, so the run's shaping must leave the order alone.
public final class SpooledReport: Sendable {
    private let format: OutputFormat
    private let order: ItemOrder
    private let options: RenderOptions
    private let state: Mutex<SpoolState>

    /// Whether `format` in `order` is written through a spool (the others stream, or collect) for a run of at
    /// most `sources` sources: a date order keeps a source's index in 16 bits (`ItemSpool.Entry`), so a larger
    /// run collects rather than mix up its sources.
    public static func handles(_ format: OutputFormat, order: ItemOrder, sources: Int) -> Bool {
        if order == .date && sources > ItemSpool.Entry.maxSources { return false }
        switch format {
        case .csv, .table, .markdown: return true
        case .json, .ndjson: return order == .date
        case .atom, .rss, .jsonfeed: return false
        }
    }

    /// - Parameter options: `limit` and `rowCap` apply while items are spooled; pass the same to `finish`.
    public init(format: OutputFormat, order: ItemOrder, options: RenderOptions) {
        self.format = format
        self.order = order
        self.options = options
        let comparison: SpoolOrder.Comparison = format == .table || format == .markdown ? .bySourceNewestFirst : .newestFirst
        state = Mutex(SpoolState(spool: ItemSpool(order: order == .date ? comparison : nil)))
    }

    deinit {
        state.withLock { $0.spool.close() }
    }

    /// How many of a source's items are shown: `--limit`, and the table's terminal cap.
    private var shownPerSource: Int? {
        let cap = format == .table ? options.rowCap : nil
        return [options.limit, cap].compactMap { $0 }.min()
    }

    /// Spools `items` of `source` (in a date order all of them; the order decides which are shown).
    public func write(_ items: [Item], source: String) {
        state.withLock { state in
            let index: Int
            if let known = state.sourceIndex[source] {
                index = known
            } else {
                index = state.sourceIDs.count
                state.sourceIndex[source] = index
                state.sourceIDs.append(source)
                state.delivered.append(0)
                state.firstOffset.append(state.spool.end)
                state.runs.append(ItemRuns(measuringWidths: format == .table))
            }
            let before = state.delivered[index]
            state.delivered[index] += items.count
            var shown = items[...]
            if order == .source, let most = shownPerSource { shown = items.prefix(max(0, most - before)) }
            for item in shown {
                state.spool.append(item, source: index)
                switch format {
                case .csv where order == .source || options.limit == nil: state.fieldKeys.formUnion(item.fields.keys)
                case .table, .markdown: if order == .source { state.runs[index].add(item) }
                default: break
                }
            }
        }
    }

    /// Writes the whole output of `report` (its sources' summaries; the items from the spool) to `output` in
    /// chunks. Call once, after the last `write`. Returns what went wrong with the temporary file, if anything
    /// (then items are missing).
    public func finish(_ report: AggregateReport, output: @escaping ([UInt8]) -> Void) -> String? {
        let (taken, cursor) = take()
        defer { cursor.close() }
        let report = counted(report, state: taken)
        var text = ChunkedOutput(output)
        switch format {
        case .table, .markdown:
            let shown = ShownItemsSource(taken, cursor: cursor, format: format, order: order, options: options)
            if format == .table {
                TableRenderer().render(report, options: options, to: &text) { shown.items(of: report.sources[$0].id) }
            } else {
                MarkdownRenderer().render(report, options: options, to: &text) { shown.items(of: report.sources[$0].id) }
            }
        case .csv:
            var fieldKeys = taken.fieldKeys
            if order == .date, options.limit != nil {  // which items are shown is only known now
                forEachInOutputOrder(taken, cursor) { _, item in fieldKeys.formUnion(item.fields.keys) }
            }
            let sortedKeys = fieldKeys.sorted()
            text.writeBytes { CSVRenderer.appendHeader(fieldKeys: sortedKeys, to: &$0) }
            forEachInOutputOrder(taken, cursor) { source, item in
                text.writeBytes { CSVRenderer.appendRow(item, source: source, fieldKeys: sortedKeys, to: &$0) }
            }
        case .json:
            var head = JSONWriter(capacity: 4096, pretty: true)
            ReportJSON.writeHead(report, to: &head)
            output(head.bytes)
            var writer = JSONWriter.atItemsDepth(capacity: SpoolFile.chunkSize + 4096)
            forEachInOutputOrder(taken, cursor) { source, item in
                ReportJSON.writeItem(item, source: source, to: &writer)
                if writer.bytes.count >= SpoolFile.chunkSize {
                    output(writer.bytes)
                    writer.removeAll()
                }
            }
            output(writer.bytes)
            output(JSONWriter.itemsTail(after: &writer))
        case .ndjson, .atom, .rss, .jsonfeed: break
        }
        text.flush()
        return cursor.failure
    }

    /// `-f ndjson` in a date order: every item to `writer`, newest first. Returns what went wrong with the
    /// temporary file, if anything.
    public func finish(to writer: NDJSONStreamWriter) -> String? {
        let (taken, cursor) = take()
        defer { cursor.close() }
        var batch: [(source: String, item: Item)] = []
        forEachInOutputOrder(taken, cursor) { source, item in
            batch.append((source, item))
            if batch.count == 1024 {
                writer.write(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        writer.write(batch)
        return cursor.failure
    }

    /// The state, out of the lock (writing may block on a slow reader), its spool flushed, and a cursor over
    /// its file and date order.
    private func take() -> (SpoolState, SpoolCursor) {
        var taken = state.withLock { state in
            state.spool.flush()
            let taken = state
            state = SpoolState(spool: ItemSpool(order: nil, file: .closed))
            return taken
        }
        let places = taken.spool.sortedPlaces(sources: taken.sourceIDs.count)
        return (taken, SpoolCursor(taken.spool.file, places: places))
    }

    /// `report` with each source's count of items as the collecting run would have it: the ones that passed
    /// `--since`/`--dedupe` (the stream counted them before).
    private func counted(_ report: AggregateReport, state: SpoolState) -> AggregateReport {
        var report = report
        for index in report.sources.indices {
            report.sources[index].items = []
            report.sources[index].streamedItemCount = state.sourceIndex[report.sources[index].id].map { state.delivered[$0] } ?? 0
        }
        return report
    }

    /// Every kept item in output order (`--limit` applied): the sources' order, or newest first.
    private func forEachInOutputOrder(_ state: SpoolState, _ cursor: SpoolCursor, _ body: (String, Item) -> Void) {
        if order == .source {
            var offset = 0
            while offset < state.spool.end, let record = cursor.record(at: offset) {
                body(state.sourceIDs[record.source], record.item)
                offset += record.length
            }
            return
        }
        var shown = [Int](repeating: 0, count: state.sourceIDs.count)
        var places = PlaceReader(0..<cursor.placeCount)
        while let place = cursor.next(&places) {
            if let limit = options.limit {
                guard shown[place.source] < limit else { continue }
                shown[place.source] += 1
            }
            guard let record = cursor.record(at: place.offset) else { return }
            body(state.sourceIDs[record.source], record.item)
        }
    }
}

/// What `SpooledReport` keeps while the run writes.
struct SpoolState: Sendable {
    var spool: ItemSpool
    var sourceIndex: [String: Int] = [:]
    var sourceIDs: [String] = []
    /// Per source (spool index): the items that reached the output, and where its first record starts
    /// (sources arrive one after another).
    var delivered: [Int] = []
    var firstOffset: [Int] = []
    /// CSV, when it can be gathered on the way: the field keys of the kept items.
    var fieldKeys = Set<String>()
    /// Table and Markdown in the sources' order: each source's kept items, measured.
    var runs: [ItemRuns] = []
}
