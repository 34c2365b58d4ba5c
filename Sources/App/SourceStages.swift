import Domain
import Foundation
import Synchronization

// The stages of `SourcePipeline`, one job each, in its order. Each keeps its own state under its own lock; none
// calls out while holding it.

/// Stage 1: whether the source streams or is held, decided at its first batch; a held source's items.
final class HoldStage: Sendable {
    enum End {
        case streamed
        /// Held, or nothing delivered: its items, and apart those past its display cap.
        case held(items: [Item], pastCap: [Item])
    }

    private struct State {
        var streams: Bool?
        var held: [Item] = []
        /// Items past the display cap (`ItemReceiver.emitPastCap`).
        var heldPastCap: [Item] = []
    }

    private let descriptor: SourceDescriptor
    private let storage: RunStorage
    private let state = Mutex(State())

    init(descriptor: SourceDescriptor, storage: RunStorage) {
        self.descriptor = descriptor
        self.storage = storage
    }

    /// Whether the source streams; a held source's `items` are kept (`pastCap`: apart, for the history and the
    /// sinks only).
    func streams(_ items: [Item], pastCap: Bool) -> Bool {
        // Asked before taking this stage's lock, so the storage's lock is never taken inside it; the first decision
        // stands.
        let canStream = state.withLock { $0.streams } == nil ? storage.canStream(descriptor) : true
        return state.withLock { state in
            let streams = state.streams ?? canStream
            state.streams = streams
            if !streams, pastCap { state.heldPastCap.append(contentsOf: items) }
            if !streams, !pastCap { state.held.append(contentsOf: items) }
            return streams
        }
    }

    /// The source finished: how it went, and the held items handed over (the stage keeps none).
    func finish() -> End {
        state.withLock { state in
            defer { (state.held, state.heldPastCap) = ([], []) }
            return state.streams == true ? .streamed : .held(items: state.held, pastCap: state.heldPastCap)
        }
    }

    /// Whether the source streamed its items.
    var streamed: Bool { state.withLock { $0.streams == true } }
}

/// Stage 2: the manifest's filter, applied before anything else sees the items, and its count.
final class FilterStage: Sendable {
    private let filter: (any ItemFilter)?
    private let sourceID: String
    private let tally = Mutex(ItemFilterTally())

    init(_ filter: (any ItemFilter)?, sourceID: String) {
        self.filter = filter
        self.sourceID = sourceID
    }

    /// The items the filter keeps (all without one), counted.
    func apply(_ items: [Item]) -> [Item] {
        guard let filter, !items.isEmpty else { return items }
        let result = filter.apply(items, source: sourceID)
        tally.withLock { $0.add(result) }
        return result.kept
    }

    /// Puts what the filter dropped, and its warning if it could not judge some items, in the source's report.
    func count(into report: inout SourceReport) {
        guard filter != nil else { return }
        let tally = tally.withLock { $0 }
        report.filteredItemCount = tally.dropped
        if let warning = tally.warning { report.warnings.append(warning) }
    }
}

/// Stage 5: the source's shown items to the run's ordered hand-off, and, on the output thread, to the output,
/// counted.
final class OutputStage: Sendable {
    private let index: Int
    private let handoff: OrderedHandoff<[Item]>
    private let count = Atomic(0)

    init(index: Int, handoff: OrderedHandoff<[Item]>) {
        self.index = index
        self.handoff = handoff
    }

    /// Hands on a batch; waits for room while this source is the one being written (`OrderedHandoff`), unless
    /// `waiting` is false (a batch already held whole in memory).
    func push(_ items: [Item], waiting: Bool = true) {
        guard !items.isEmpty else { return }
        handoff.push(items, from: index, waiting: waiting)
    }

    /// No batch of the source comes after this.
    func finish() {
        handoff.finish(index)
    }

    /// On the output thread: a batch to `output`.
    func write(_ items: [Item], of source: SourceDescriptor, more: Bool, to output: any RunOutput) {
        count.add(items.count, ordering: .relaxed)
        output.write(items, of: source, more: more)
    }

    /// The items written to the output so far.
    var written: Int { count.load(ordering: .relaxed) }
}

/// Stage 6: the source's report: as loaded (a streamed source), after the store's part (a held one), at last as
/// the output kept it, which the run's outcome reads. Nil before the source finished.
final class ReportStage: Sendable {
    private let report = Mutex<SourceReport?>(nil)

    var current: SourceReport? {
        get { report.withLock { $0 } }
        set { report.withLock { $0 = newValue } }
    }
}

/// What is said of one source for people (stderr), in the order it was learnt.
final class SourceNotes: Sendable {
    private let sourceID: String
    private let lines = Mutex<[String]>([])

    init(sourceID: String) {
        self.sourceID = sourceID
    }

    /// `note`, said of the source ("id: note").
    func append(_ note: String) {
        let line = "\(sourceID): \(note)"
        lines.withLock { $0.append(line) }
    }

    /// `note`, said of the source unless it was said already (a failure told by every batch).
    func appendOnce(_ note: String) {
        let line = "\(sourceID): \(note)"
        lines.withLock { if !$0.contains(line) { $0.append(line) } }
    }

    /// Lines that already name the source (the store's notes).
    func append(lines more: [String]) {
        guard !more.isEmpty else { return }
        lines.withLock { $0.append(contentsOf: more) }
    }

    var all: [String] { lines.withLock { $0 } }
}
