@testable import App
import Domain
import Foundation
import ProviderTesting
import Synchronization
import Testing

/// The engine's one output: what reaches a `RunOutput`, in which order, and what the run keeps of it.
@Suite("Run output")
struct RunOutputTests {
    typealias Project = RunEngineTests.Project

    @Test("an output gets each source's batches in plan order, then its report once, then the run's report")
    func order() async throws {
        let output = RecordingOutput()
        let outcome = try await Project().container().engine.run(RunRequest(), output: output)
        // Batches of one source may be split however the reader likes; joined, they are the source's items.
        var events: [String] = []
        for event in output.events {
            if event.hasPrefix("write "), let last = events.last, last.hasPrefix("write "),
               last.split(separator: " ")[1] == event.split(separator: " ")[1] {
                events[events.count - 1] = last + "," + event.split(separator: " ")[2]
            } else {
                events.append(event)
            }
        }
        #expect(events == [
            "write notes " + ((1...300).map { "a\($0)" } + ["b1"]).joined(separator: ","),
            "source notes ok count=301 items=0",
            "write more b1",
            "source more ok count=1 items=0",
            "source off skipped count=0 items=0",
            "run notes,more,off",
        ])
        #expect(outcome.report.sources.map(\.warnings) == [["kept"], ["kept"], ["kept"]], "what `finish` returned is kept")
        #expect(output.lastMore == ["notes": false, "more": false], "a source's end is no batch: a writer flushes its last")
    }

    @Test("collecting keeps in each report exactly the items a stream writes, with the same counts")
    func collectedAsStreamed() async throws {
        let project = try Project()
        let written = Mutex<[String: [String]]>([:])
        let streamed = try await project.container().engine.run(RunRequest(), output: StreamedOutput { source, items, _ in
            written.withLock { $0[source.id, default: []] += items.map(\.id) }
        })
        let collected = try await project.container().engine.run(RunRequest())
        #expect(collected.report.sources.map(\.itemCount) == streamed.report.sources.map(\.itemCount))
        #expect(collected.report.sources.map(\.streamedItemCount) == [0, 0, 0])
        let all = written.withLock { $0 }
        #expect(collected.report.sources.map { $0.items.map(\.id) } == ["notes", "more", "off"].map { all[$0] ?? [] })
    }

    @Test("--dedupe and --since shape the collected report as one, and a stream's batches as they pass")
    func shaped() async throws {
        let project = try Project()
        let dedupe = ItemShaping(dedupe: .id)
        let collected = try await project.container().engine.run(RunRequest(), output: CollectedOutput(dedupe))
        #expect(collected.report.sources.map { $0.items.filter { $0.id == "b1" }.count } == [1, 0, 0], "b1 once, first source")
        let written = Mutex<[String]>([])
        _ = try await project.container().engine.run(RunRequest(), output: StreamedOutput(dedupe) { source, items, _ in
            written.withLock { $0 += items.map { "\(source.id):\($0.id)" } }
        })
        #expect(written.withLock { $0 }.filter { $0.hasSuffix(":b1") } == ["notes:b1"])

        let since = ItemShaping(since: Date(timeIntervalSince1970: 0))  // the files' items are undated: none pass
        let dated = try await project.container().engine.run(RunRequest(), output: CollectedOutput(since))
        #expect(dated.report.sources.allSatisfy { $0.items.isEmpty })
    }

    @Test("a streamed source counts the items written: its filter dropping an item past the display cap lowers nothing")
    func countIsWhatWasWritten() async throws {
        let root = ScratchDirectory.path("aggregate-output-count")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let entries = ["one", "two", "three", "four"].map {
            "<item><title>\($0)</title><guid>\($0)</guid><link>https://example.com/\($0)</link></item>"
        }
        try Data(#"<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>\#(entries.joined())</channel></rss>"#.utf8)
            .write(to: root.appendingPathComponent("feed.xml"))
        let manifest = #"""
            {"version": 1, "sources": [{"id": "news", "provider": "feed",
              "options": {"paths": ["\#(root.appendingPathComponent("feed.xml").path)"], "maxItemsPerFeed": 2},
              "filter": {"exclude": {"title": "^(one|four)$"}}}]}
            """#
        try Data(manifest.utf8).write(to: root.appendingPathComponent("manifest.json"))
        let container = try AppDIContainer.load(
            manifestAt: root.appendingPathComponent("manifest.json"),
            environment: ["AGGREGATE_HOME": root.appendingPathComponent("home").path])
        let written = Mutex<[String]>([])
        let streamed = try await container.engine.run(RunRequest(), output: StreamedOutput { _, items, _ in
            written.withLock { $0 += items.map(\.id) }
        })
        #expect(written.withLock { $0 } == ["two"])
        let source = try #require(streamed.report.sources.first)
        #expect(source.itemCount == 1)
        #expect(source.filteredItemCount == 2, "one in the cap and one past it")
        let collected = try #require(try await container.engine.run(RunRequest()).report.sources.first)
        #expect(collected.items.map(\.id) == ["two"])
        #expect(collected.itemCount == 1)
    }
}

/// Logs every call, from whatever thread, and marks what it returns.
private final class RecordingOutput: RunOutput {
    private let log = Mutex<[String]>([])
    private let more = Mutex<[String: Bool]>([:])
    var events: [String] { log.withLock { $0 } }
    /// Per source, the `more` of its last batch.
    var lastMore: [String: Bool] { more.withLock { $0 } }

    func write(_ items: [Item], of source: SourceDescriptor, more: Bool) {
        log.withLock { $0.append("write \(source.id) \(items.map(\.id).joined(separator: ","))") }
        self.more.withLock { $0[source.id] = more }
    }

    func finish(_ source: SourceReport) -> SourceReport {
        log.withLock {
            $0.append("source \(source.id) \(source.status.rawValue) count=\(source.itemCount) items=\(source.items.count)")
        }
        var kept = source
        kept.warnings.append("kept")
        return kept
    }

    func finish(run report: AggregateReport) -> AggregateReport {
        log.withLock { $0.append("run \(report.sources.map(\.id).joined(separator: ","))") }
        return report
    }
}
