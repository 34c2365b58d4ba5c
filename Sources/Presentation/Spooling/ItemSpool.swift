import Domain
import Foundation

/// Items kept in a `SpoolFile` as `ItemRecord`s, with what is needed to read them back in output order: in
/// the sources' order, the file's; in a date order, a `SpoolOrder` of each record's date and place (sorted in
/// runs on disk, so memory does not grow with the items).
///
/// A value owned by one writer (inside `SpooledReport`'s lock while the run writes, then by its finishing pass).
struct ItemSpool: Sendable {
    /// A record's date (undated: -infinity, last in a newest-first order) and its place: the source's index in
    /// the top 16 bits, the record's offset in the file below. Offsets grow with arrival order, which is the
    /// sources' order and then each source's own. A date order holds at most `maxSources` sources.
    struct Entry: Sendable, BitwiseCopyable {
        var date: Double
        var place: UInt64

        /// The most sources a date order can tell apart (`SpooledReport.handles` collects past it).
        static let maxSources = 0xFFFF

        var source: Int { Int(place >> 48) }
        var offset: Int { Int(place & 0xFFFF_FFFF_FFFF) }
    }

    private(set) var file: SpoolFile
    private var buffer: [UInt8] = []
    private var order: SpoolOrder?

    /// - Parameters:
    ///   - order: how a date order compares records; nil keeps the file's order.
    ///   - file: a new temporary file, or `.closed` for a spool that takes nothing.
    init(order: SpoolOrder.Comparison?, file: SpoolFile = SpoolFile()) {
        self.order = order.map { SpoolOrder($0) }
        self.file = file
        buffer.reserveCapacity(SpoolFile.chunkSize + 4096)
    }

    /// Where the next record will start.
    var end: Int { file.size + buffer.count }

    mutating func append(_ item: Item, source: Int) {
        if order != nil {
            let entry = Entry(date: item.date?.timeIntervalSinceReferenceDate ?? -.infinity,
                              place: UInt64(source) << 48 | UInt64(end))
            order?.add(entry)
        }
        ItemRecord.append(item, source: source, to: &buffer)
        if buffer.count >= SpoolFile.chunkSize { flush() }
    }

    mutating func flush() {
        file.append(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// The records' places in the date order (nil without one); call once, after the last `append`.
    mutating func sortedPlaces(sources: Int) -> SortedPlaces? {
        defer { order = nil }
        return order?.finish(sources: sources)
    }

    mutating func close() {
        file.close()
        order = nil
    }
}

/// Reads `ItemRecord`s from a spool's file at any offset through a window of a chunk or more: reading in
/// offset order (the sources' order, or a date order of items mostly in it) costs one read per chunk.
struct ItemSpoolReader {
    private var window: [UInt8] = []
    private var windowStart = 0

    /// The record starting at `offset` and its length in the file.
    mutating func record(at offset: Int, in file: inout SpoolFile) -> (source: Int, item: Item, length: Int)? {
        var wanted = 16
        if let record = fromWindow(at: offset, wanted: &wanted) { return record }
        while true {
            let count = max(SpoolFile.chunkSize, wanted)
            guard load(at: offset, count: count, from: &file) else { return nil }
            if let record = fromWindow(at: offset, wanted: &wanted) { return record }
            if window.count < count { return nil }  // the file ends inside the record
        }
    }

    /// The record at `offset` if the window holds it whole; else raises `wanted` to what it needs to.
    private func fromWindow(at offset: Int, wanted: inout Int) -> (source: Int, item: Item, length: Int)? {
        guard offset >= windowStart, offset < windowStart + window.count else { return nil }
        return window.withUnsafeBytes { bytes in
            let start = offset - windowStart
            let rest = UnsafeRawBufferPointer(rebasing: bytes[start...])
            guard let length = ItemRecord.length(rest) else {
                wanted = max(wanted, rest.count + 16)
                return nil
            }
            guard length <= rest.count else {
                wanted = max(wanted, length)
                return nil
            }
            let (source, item) = ItemRecord.read(UnsafeRawBufferPointer(rebasing: rest[0..<length]))
            return (source, item, length)
        }
    }

    private mutating func load(at offset: Int, count: Int, from file: inout SpoolFile) -> Bool {
        if window.count != count { window = [UInt8](repeating: 0, count: count) }
        let read = window.withUnsafeMutableBytes { file.read(at: offset, into: $0) }
        guard read > 0 else { return false }
        if read < window.count { window.removeLast(window.count - read) }
        windowStart = offset
        return true
    }
}
