import Domain
import Foundation
import Synchronization

/// Stage 3 of `SourcePipeline`: the source's items recorded in the item history (`RunStorage`, which keeps the
/// archive in the same transaction), in one of three ways (`Mode`).
final class HistoryStage: Sendable {
    enum Mode {
        /// Nothing depends on which items are new: streamed items are recorded behind the output, in chunks
        /// shared with other sources (`HistoryWriter`).
        case behind
        /// `--new`: what is shown depends on the history, so each batch is recorded first.
        case newOnly
        /// Every item is kept, and the history tells which are new (`RunRequest.markNew`).
        case markNew
    }

    private struct State {
        var batches = 0
        var isFirstRun = false
        /// Streamed items not yet handed to the history writer (`.behind`).
        var unrecorded: [Item] = []
        /// `.markNew`: the ids the history never saw before; nil once it could not tell.
        var newIDs: Set<String>? = []
    }

    private let mode: Mode
    private let index: Int
    private let sourceID: String
    private let storage: RunStorage
    private let writer: HistoryWriter
    private let notes: SourceNotes
    private let state = Mutex(State())

    init(_ mode: Mode, index: Int, sourceID: String, storage: RunStorage, writer: HistoryWriter, notes: SourceNotes) {
        self.mode = mode
        self.index = index
        self.sourceID = sourceID
        self.storage = storage
        self.writer = writer
        self.notes = notes
    }

    /// Records a streamed batch; returns the items to show.
    func record(_ items: [Item]) -> [Item] {
        switch mode {
        case .markNew:
            learnNew(items)
            return items
        case .newOnly:
            let recorded = storage.recordSeen(items, sourceID: sourceID, newOnly: true)
            let first = state.withLock { state in
                defer { state.batches += 1 }
                if state.batches == 0 { state.isFirstRun = recorded.isFirstRun }
                return state.batches == 0
            }
            if first, let note = recorded.note { notes.append(note) }
            return recorded.items
        case .behind:
            guard storage.keepsHistory else { return items }  // nothing to record in: nothing kept for it
            let chunk: [Item]? = state.withLock { state in
                state.unrecorded.append(contentsOf: items)
                guard state.unrecorded.count >= HistoryWriter.chunkSize else { return nil }
                defer { state.unrecorded = [] }
                return state.unrecorded
            }
            if let chunk { writer.push([(index, sourceID, chunk)]) }
            return items
        }
    }

    /// Records items past the display cap, as the source's shown items are recorded.
    func recordPastCap(_ items: [Item]) {
        guard !items.isEmpty else { return }
        let note: String? = switch mode {
        case .markNew: storage.recordNew(items, sourceID: sourceID).note
        case .newOnly: storage.recordSeen(items, sourceID: sourceID, newOnly: true).note
        case .behind: storage.markSeen([(sourceID, items)])[sourceID]
        }
        if let note { notes.appendOnce(note) }
    }

    /// A held source's items after the store's part (`RunStorage.applyHistory`, or learning which are new).
    func recordHeld(_ served: SourceReport, notes storeNotes: inout [String]) -> SourceReport {
        guard mode != .markNew else {
            learnNew(served.items)
            return served
        }
        return storage.applyHistory(to: served, newOnly: mode == .newOnly, notes: &storeNotes)
    }

    /// A streamed source finished: its last unrecorded items go to the writer, gathered with other sources'.
    func streamEnded() {
        let rest = state.withLock { state in
            defer { state.unrecorded = [] }
            return state.unrecorded
        }
        writer.gather(rest, index: index, sourceID: sourceID)
    }

    /// `.markNew`: records `items` and keeps which were new.
    private func learnNew(_ items: [Item]) {
        let learnt = storage.recordNew(items, sourceID: sourceID)
        state.withLock { state in
            if let ids = learnt.ids { state.newIDs?.formUnion(ids) } else { state.newIDs = nil }
            if learnt.isFirstRun { state.isFirstRun = true }  // told by its first batch
        }
        if let note = learnt.note { notes.appendOnce(note) }
    }

    /// Whether the output is told which items are new (`RunOutput.finish(_:newItemIDs:)`).
    var tellsNew: Bool { mode == .markNew }

    /// `.markNew`: the ids the history never saw before; nil when it could not tell.
    var newIDs: Set<String>? { state.withLock { $0.newIDs } }

    /// Whether the history had nothing of the source before this run (told with `--new` and `.markNew`).
    var isFirstRun: Bool { state.withLock { $0.isFirstRun } }

    /// Keeps only the new ids of `items`, the items the output kept in the report: `NewItems` is what is new of a
    /// report's items, and an output that counts items rather than keeping them (serve's) would else leave every
    /// item's id held until the whole run ends.
    func keepNewIDs(of items: [Item]) {
        state.withLock { state in
            state.newIDs = state.newIDs.map { ids in Set(items.lazy.map(\.id).filter(ids.contains)) }
        }
    }

    /// With `--new`, a first run says that everything written is new.
    func firstRunNote(written: Int) -> String? {
        guard mode == .newOnly, isFirstRun, written > 0 else { return nil }
        return "first run with --new: all \(written) items are new"
    }
}
