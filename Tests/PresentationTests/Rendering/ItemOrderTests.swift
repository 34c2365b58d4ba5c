import Domain
import Foundation
import Presentation
import Testing

@Suite("Item order (--sort)")
struct ItemOrderTests {
    private func item(_ id: String, _ seconds: Double?) -> Item {
        Item(kind: .entry, id: id, title: id, date: seconds.map(Date.init(timeIntervalSince1970:)))
    }

    private var report: AggregateReport {
        let descriptor = { (id: String) in SourceDescriptor(id: id, provider: "feed", timeoutSeconds: 1, concurrency: 1) }
        return AggregateReport(generatedAt: Date(timeIntervalSince1970: 0), sources: [
            SourceReport(descriptor: descriptor("b"), status: .ok,
                         items: [item("old", 10), item("undated-1", nil), item("new", 30), item("tie-a", 20),
                                 item("undated-2", nil), item("tie-b", 20)]),
            SourceReport(descriptor: descriptor("a"), status: .ok, items: [item("x", 1), item("y", 2)]),
        ])
    }

    @Test("date: newest first within each source, ties and undated items keep the source's order, sources keep theirs")
    func byDate() {
        let ordered = report.ordered(by: .date)
        #expect(ordered.sources.map(\.id) == ["b", "a"])
        #expect(ordered.sources[0].items.map(\.id) == ["new", "tie-a", "tie-b", "old", "undated-1", "undated-2"])
        #expect(ordered.sources[1].items.map(\.id) == ["y", "x"])
    }

    @Test("source: nothing moves")
    func bySource() {
        #expect(report.ordered(by: .source) == report)
    }
}
