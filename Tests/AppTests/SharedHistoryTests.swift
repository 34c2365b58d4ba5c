@testable import App
import Domain
import Foundation
import ProviderTesting
import Testing

/// A history that cannot be reached (the shared database went away mid-run).
private struct UnreachableHistory: SeenItemsRepository {
    func recordSeen(by source: SourceIdentity, items: [Item], at date: Date) throws(SourceError) -> SeenItems {
        throw SourceError(.network, "cannot connect to the store postgres://aggregate:***@db:5432/aggregate")
    }

    func markSeen(_ batches: [SeenBatch], at date: Date) throws(SourceError) {
        throw SourceError(.network, "cannot connect")
    }
}

@Suite("--new when the history cannot be written")
struct SharedHistoryTests {
    static let source = Manifest.Source(
        id: "news", provider: "echo", enabled: true, timeoutSeconds: 5, concurrency: 1, options: .object([:]), index: 0)

    static func finish(shared: Bool) -> (items: [String], notes: [String]) {
        let storage = RunStorage(responses: nil, snapshots: nil, history: UnreachableHistory(), sharedHistory: shared)
        _ = storage.services(for: source, identity: SourceIdentity(id: "news", fingerprint: "f"))
        let report = SourceReport(
            descriptor: SourceDescriptor(id: "news", provider: "echo", timeoutSeconds: 5, concurrency: 1), status: .ok,
            items: ["a", "b"].map { Item(kind: .record, id: $0, title: $0) })
        var notes: [String] = []
        let served = storage.applyCache(to: report, query: nil, notes: &notes)
        let finished = storage.applyHistory(to: served, newOnly: true, notes: &notes)
        return (finished.items.map(\.id), notes)
    }

    @Test("a shared store holds the items back (another process may announce them); a local one shows them all")
    func holdsBack() async {
        let shared = await onOwnThread { Self.finish(shared: true) }
        #expect(shared.items.isEmpty)
        #expect(shared.notes.contains { $0.contains("held back") && $0.contains("***") && !$0.contains("secret") })
        let local = await onOwnThread { Self.finish(shared: false) }
        #expect(local.items == ["a", "b"])
        #expect(local.notes.contains { $0.contains("could not be updated") })
    }
}
