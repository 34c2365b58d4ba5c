import Domain

/// The spool's files (the records, and the places of a date order) and a reader over them, shared by the
/// closures of one finishing pass.
final class SpoolCursor {
    private var file: SpoolFile
    private var places: SortedPlaces?
    private var reader = ItemSpoolReader()

    init(_ file: SpoolFile, places: SortedPlaces?) {
        self.file = file
        self.places = places
    }

    func record(at offset: Int) -> (source: Int, item: Item, length: Int)? {
        reader.record(at: offset, in: &file)
    }

    /// The date order's next place from `reader`.
    func next(_ reader: inout PlaceReader) -> (source: Int, offset: Int)? {
        guard places != nil else { return nil }
        return reader.next(in: &places!.file)
    }

    var placeCount: Int { places?.count ?? 0 }

    /// Where `source`'s places start in a by-source date order, and how many it has.
    func placeRange(of source: Int) -> Range<Int> { places?.range(of: source) ?? 0..<0 }

    /// What went wrong with a file, if anything (then items are missing).
    var failure: String? { file.failure ?? places?.failure ?? places?.file.failure }

    func close() {
        file.close()
        places?.file.close()
    }
}

/// Each source's shown items for the table and Markdown: in its own order (measured on the way), or newest
/// first (measured here, then read again).
struct ShownItemsSource {
    let state: SpoolState
    let cursor: SpoolCursor
    let order: ItemOrder
    let limit: Int?
    let printed: Int?

    init(_ state: SpoolState, cursor: SpoolCursor, format: OutputFormat, order: ItemOrder, options: RenderOptions) {
        self.state = state
        self.cursor = cursor
        self.order = order
        limit = options.limit
        printed = [options.limit, format == .table ? options.rowCap : nil].compactMap { $0 }.min()
    }

    func items(of id: String) -> ShownSourceItems {
        guard let index = state.sourceIndex[id] else { return ShownSourceItems(runs: [], hidden: 0, next: { nil }) }
        let delivered = state.delivered[index]
        let limited = limit.map { min($0, delivered) } ?? delivered
        let shown = printed.map { min($0, delivered) } ?? delivered
        let cursor = cursor
        if order == .source {
            var offset = state.firstOffset[index]
            return ShownSourceItems(runs: state.runs[index].runs, hidden: delivered - limited, cut: limited - shown) {
                guard let record = cursor.record(at: offset) else { return nil }
                offset += record.length
                return record.item
            }
        }
        let range = cursor.placeRange(of: index)
        let places = PlaceReader(range.lowerBound..<(range.lowerBound + shown))
        var measuring = places
        var runs = state.runs[index]
        while let place = cursor.next(&measuring) {
            if let record = cursor.record(at: place.offset) { runs.add(record.item) }
        }
        var writing = places
        return ShownSourceItems(runs: runs.runs, hidden: delivered - limited, cut: limited - shown) {
            cursor.next(&writing).flatMap { cursor.record(at: $0.offset)?.item }
        }
    }
}

/// A `TextOutputStream` that hands its UTF-8 on in chunks.
struct ChunkedOutput: TextOutputStream {
    private var buffer: [UInt8] = []
    private let output: ([UInt8]) -> Void

    init(_ output: @escaping ([UInt8]) -> Void) {
        self.output = output
        buffer.reserveCapacity(SpoolFile.chunkSize + 4096)
    }

    mutating func write(_ string: String) {
        writeBytes { $0.append(contentsOf: string.utf8) }
    }

    /// Lets `body` append UTF-8 straight to the buffer (a CSV row), then hands a full chunk on.
    mutating func writeBytes(_ body: (inout [UInt8]) -> Void) {
        body(&buffer)
        if buffer.count >= SpoolFile.chunkSize { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        output(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
