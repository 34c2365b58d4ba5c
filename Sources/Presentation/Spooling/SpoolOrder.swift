/// A date order of an `ItemSpool`'s records in bounded memory: the (date, place) entries are sorted in runs
/// of `runLength` (2 MiB) that go to a temporary file, then merged into a file of the records' places in
/// order, which readers go through a window at a time. However many items: a run in memory, a window per run
/// while merging.
struct SpoolOrder: Sendable {
    enum Comparison: Sendable {
        /// Newest first across every source; equal dates and undated items (last) in arrival order.
        case newestFirst
        /// By source, each newest first with ties in arrival order.
        case bySourceNewestFirst

        func precedes(_ lhs: ItemSpool.Entry, _ rhs: ItemSpool.Entry) -> Bool {
            if self == .bySourceNewestFirst, lhs.source != rhs.source { return lhs.source < rhs.source }
            return lhs.date != rhs.date ? lhs.date > rhs.date : lhs.place < rhs.place
        }
    }

    static let defaultRunLength = 131_072

    let comparison: Comparison
    private let runLength: Int
    private var pending: [ItemSpool.Entry] = []
    private var runs = SpoolFile.closed
    private var runCounts: [Int] = []

    init(_ comparison: Comparison, runLength: Int = SpoolOrder.defaultRunLength) {
        self.comparison = comparison
        self.runLength = max(1, runLength)
    }

    mutating func add(_ entry: ItemSpool.Entry) {
        pending.append(entry)
        if pending.count == runLength { spillRun() }
    }

    private mutating func spillRun() {
        guard !pending.isEmpty else { return }
        if runs.descriptor < 0, runs.failure == nil { runs = SpoolFile() }
        pending.sort(by: comparison.precedes)
        runs.append(values: pending)
        runCounts.append(pending.count)
        pending.removeAll(keepingCapacity: true)
    }

    /// Merges the runs into the places in order: a file of `count` places, and where each source's first
    /// place is (for `bySourceNewestFirst`; `sources + 1` values, the last the end).
    mutating func finish(sources: Int) -> SortedPlaces {
        spillRun()
        pending = []
        var sorted = SortedPlaces(file: runCounts.isEmpty ? .closed : SpoolFile(), sources: sources)
        var cursors: [EntryWindow] = []
        var start = 0
        for count in runCounts {
            cursors.append(EntryWindow(start: start, end: start + count))
            start += count
        }
        var out: [UInt64] = []
        out.reserveCapacity(8192)
        var heads = cursors.indices.map { cursors[$0].next(in: &runs) }
        while true {
            var best: Int?
            for index in heads.indices {
                guard let head = heads[index] else { continue }
                if let chosen = best, !comparison.precedes(head, heads[chosen]!) { continue }
                best = index
            }
            guard let best, let entry = heads[best] else { break }
            sorted.note(entry)
            out.append(entry.place)
            if out.count == 8192 {
                sorted.file.append(values: out)
                out.removeAll(keepingCapacity: true)
            }
            heads[best] = cursors[best].next(in: &runs)
        }
        sorted.file.append(values: out)
        if let failure = runs.failure, sorted.failure == nil { sorted.failure = failure }
        runs.close()
        return sorted
    }
}

/// Reads one sorted run of entries from the runs file, a window at a time.
private struct EntryWindow {
    private var next: Int
    private let end: Int
    private var window: [ItemSpool.Entry] = []
    private var windowStart = 0

    init(start: Int, end: Int) {
        next = start
        self.end = end
    }

    mutating func next(in file: inout SpoolFile) -> ItemSpool.Entry? {
        guard next < end else { return nil }
        if next >= windowStart + window.count {
            let count = min(4096, end - next)
            window = [ItemSpool.Entry](repeating: ItemSpool.Entry(date: 0, place: 0), count: count)
            let stride = MemoryLayout<ItemSpool.Entry>.stride
            let read = window.withUnsafeMutableBytes { file.read(at: next * stride, into: $0) }
            guard read == count * stride else { return nil }
            windowStart = next
        }
        defer { next += 1 }
        return window[next - windowStart]
    }
}

/// The records' places in a date order, on disk, with where each source's places start.
struct SortedPlaces: Sendable {
    var file: SpoolFile
    private(set) var count = 0
    /// Per source index: how many places it has (turned into starts by `start(of:)`).
    private var perSource: [Int]
    var failure: String?

    init(file: SpoolFile, sources: Int) {
        self.file = file
        perSource = [Int](repeating: 0, count: sources)
        failure = file.failure
    }

    mutating func note(_ entry: ItemSpool.Entry) {
        count += 1
        if entry.source < perSource.count { perSource[entry.source] += 1 }
    }

    /// Where `source`'s places start in a by-source order, and how many it has.
    func range(of source: Int) -> Range<Int> {
        let start = perSource[..<source].reduce(0, +)
        return start..<(start + perSource[source])
    }
}

/// Reads places of a `SortedPlaces` file in order from a position, a window at a time.
struct PlaceReader {
    private var next: Int
    private let end: Int
    private var window: [UInt64] = []
    private var windowStart = 0

    init(_ range: Range<Int>) {
        next = range.lowerBound
        end = range.upperBound
    }

    /// The next record offset, or nil at the end (or when the file cannot be read; `file.failure` says why).
    mutating func next(in file: inout SpoolFile) -> (source: Int, offset: Int)? {
        guard next < end else { return nil }
        if next >= windowStart + window.count {
            let count = min(8192, end - next)
            window = [UInt64](repeating: 0, count: count)
            let read = window.withUnsafeMutableBytes { file.read(at: next * 8, into: $0) }
            guard read == count * 8 else { return nil }
            windowStart = next
        }
        defer { next += 1 }
        let place = ItemSpool.Entry(date: 0, place: window[next - windowStart])
        return (place.source, place.offset)
    }
}
