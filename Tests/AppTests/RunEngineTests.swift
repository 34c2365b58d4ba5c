@testable import App
import Domain
import Foundation
import ProviderTesting
import Synchronization
import Testing

/// The engine every front end calls: the same answers however often, and from however many places, it runs.
@Suite("Run engine")
struct RunEngineTests {
    /// A manifest with a files source and a disabled one, in a directory of its own with its data and store.
    struct Project {
        let root = ScratchDirectory.path("aggregate-engine")
        var manifestURL: URL { root.appendingPathComponent("manifest.json") }

        init() throws {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("data"), withIntermediateDirectories: true)
            let manifest = """
                {"version": 1, "sources": [
                  {"id": "notes", "provider": "files", "options": {"paths": ["data/*.ndjson"]}},
                  {"id": "more", "provider": "files", "options": {"paths": ["data/b.ndjson"]}},
                  {"id": "off", "provider": "files", "enabled": false, "options": {"paths": ["data/a.ndjson"]}}
                ]}
                """
            try Data(manifest.utf8).write(to: manifestURL)
            try Data((1...300).map { #"{"id": "a\#($0)", "title": "A \#($0)"}"# }.joined(separator: "\n").utf8)
                .write(to: root.appendingPathComponent("data/a.ndjson"))
            try Data(#"{"id": "b1", "title": "B"}"#.utf8).write(to: root.appendingPathComponent("data/b.ndjson"))
        }

        /// A container as one process of `aggregate` has: its own store connection.
        func container() throws -> AppDIContainer {
            try AppDIContainer.load(manifestAt: manifestURL, environment: ["AGGREGATE_HOME": root.appendingPathComponent("home").path])
        }
    }

    /// What a person or a script sees of an outcome: each source's status, cache, counts and item ids, and the notes.
    private func seen(_ outcome: RunOutcome) -> [String] {
        outcome.report.sources.map { source in
            "\(source.id) \(source.status.rawValue) cache=\(source.cache.rawValue) count=\(source.itemCount) "
                + source.items.map(\.id).joined(separator: ",")
        } + outcome.notes
    }

    @Test("the engine called twice in one process answers as two processes do, --new history included")
    func twiceInOneProcess() async throws {
        let request = RunRequest(newOnly: true)
        let oneProcess = try Project()
        let container = try oneProcess.container()
        let firstInProcess = try await container.engine.run(request)
        let secondInProcess = try await container.engine.run(request)

        let twoProcesses = try Project()
        let first = try await twoProcesses.container().engine.run(request)
        let second = try await twoProcesses.container().engine.run(request)

        #expect(seen(firstInProcess) == seen(first))
        #expect(seen(secondInProcess) == seen(second))
        // And what they agree on is right: everything, then nothing new.
        #expect(firstInProcess.report.sources.map(\.itemCount) == [301, 1, 0])
        #expect(secondInProcess.report.sources.map(\.itemCount) == [0, 0, 0])
        #expect(firstInProcess.notes.contains { $0.hasPrefix("notes: first run with --new") })
    }

    @Test("runs from several tasks at once each get their whole, correct outcome")
    func concurrentRuns() async throws {
        let project = try Project()
        let container = try project.container()
        let outcomes = try await withThrowingTaskGroup(of: RunOutcome.self) { group in
            for _ in 0..<4 { group.addTask { try await container.engine.run(RunRequest()) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for outcome in outcomes {
            #expect(outcome.report.sources.map(\.status) == [.ok, .ok, .skipped])
            #expect(outcome.report.sources[0].items.map(\.id) == (1...300).map { "a\($0)" } + ["b1"])
        }
    }

    @Test("streamed output gets every item in plan order, and the reports keep only the counts")
    func streamedOutput() async throws {
        let project = try Project()
        let written = WrittenIDs()
        let outcome = try await project.container().engine.run(RunRequest(), output: StreamedOutput { source, items, _ in
            written.append(items.map { "\(source.id):\($0.id)" })
        })
        #expect(written.all == (1...300).map { "notes:a\($0)" } + ["notes:b1", "more:b1"])
        #expect(outcome.report.sources.map(\.itemCount) == [301, 1, 0])
        #expect(outcome.report.sources.allSatisfy { $0.items.isEmpty })
    }

    @Test("a selection that does not fit the manifest throws before anything runs")
    func badSelection() async throws {
        let container = try Project().container()
        await #expect(throws: SelectionError.self) { try await container.engine.run(RunRequest(selection: ["nope"])) }
    }

    @Test("cancelling the run reports the sources still loading as timed out, and the run still completes")
    func cancelled() async throws {
        let project = try Project()
        let token = CancellationToken()
        token.cancel()
        let outcome = try await project.container().engine.run(RunRequest(), cancellation: token)
        #expect(outcome.report.sources.map(\.status) == [.timeout, .timeout, .skipped])
        #expect(outcome.report.sources[0].error?.message.contains("cancelled") == true)
    }
}

private final class WrittenIDs: Sendable {
    private let ids = Mutex<[String]>([])
    func append(_ more: [String]) { ids.withLock { $0.append(contentsOf: more) } }
    var all: [String] { ids.withLock { $0 } }
}
