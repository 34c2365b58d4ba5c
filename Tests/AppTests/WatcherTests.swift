@testable import App
import Domain
import Foundation
import ProviderTesting
import Synchronization
import Testing

/// Collects what the watch tells, and lets a test wait for a number of finished cycles.
final class WatchLog: WatchObserver {
    private struct State {
        var finished: [(report: SourceReport, next: Date?, news: NewItems)] = []
        var waiting: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    func watchDidStart(_ ids: [String]) {}

    func watch(didFinish report: SourceReport, next: Date?, news: NewItems) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.finished.append((report, next, news))
            let count = state.finished.count
            let ready = state.waiting.filter { $0.count <= count }.map(\.continuation)
            state.waiting.removeAll { $0.count <= count }
            return ready
        }
        ready.forEach { $0.resume() }
    }

    var finished: [(report: SourceReport, next: Date?, news: NewItems)] { state.withLock { $0.finished } }

    func waitFor(cycles count: Int) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.finished.count >= count { return true }
                state.waiting.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}

@Suite("Watcher: the watch loop on an injected clock")
struct WatcherTests {
    /// A scratch directory with a manifest of one `files` source, `notes`, every 60 s, reading `file`.
    static func notes() throws -> (directory: URL, manifest: URL, file: URL) {
        let directory = ScratchDirectory.path("aggregate-watcher")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("data"), withIntermediateDirectories: true)
        let manifest = directory.appendingPathComponent("manifest.json")
        try Data(#"{"version": 1, "defaults": {"refreshSeconds": 60}, "sources": [{"id": "notes", "provider": "files", "options": {"paths": ["data/a.ndjson"]}}]}"#.utf8)
            .write(to: manifest)
        return (directory, manifest, directory.appendingPathComponent("data/a.ndjson"))
    }

    @Test("sources run when the clock says they are due, again one interval later, with only new items after the first")
    func runsOnTheClock() async throws {
        let (directory, manifest, file) = try Self.notes()
        try Data(#"{"id": "x", "title": "X"}"#.utf8).write(to: file)
        let container = try AppDIContainer.load(
            manifestAt: manifest, environment: ["AGGREGATE_HOME": directory.appendingPathComponent("home").path])

        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let clock = TestClock(now: start)
        let log = WatchLog()
        let watcher = try Watcher(container: container, options: Watcher.Options(), observer: log, clock: clock)
        watcher.start()
        await clock.waitForWakeUps()
        clock.advanceToNextWakeUp()  // the first cycle, within its spread (at most 5 s); the clock stays there
        await log.waitFor(cycles: 1)
        let ran = clock.now
        #expect(ran <= start.addingTimeInterval(5))
        #expect(log.finished[0].report.items.map(\.id) == ["x"])
        #expect(log.finished[0].next == ran.addingTimeInterval(60))

        clock.advance(by: 30)  // not due yet: nothing runs
        try Data((#"{"id": "x", "title": "X"}"# + "\n" + #"{"id": "y", "title": "Y"}"#).utf8).write(to: file)
        clock.advance(by: 30)
        await log.waitFor(cycles: 2)
        #expect(log.finished.count == 2)
        #expect(log.finished[1].report.items.map(\.id) == ["y"], "later cycles deliver only what is new")

        await withCheckedContinuation { continuation in watcher.stop { continuation.resume() } }
        clock.advance(by: 600)
        #expect(log.finished.count == 2, "a stopped watch runs nothing more")
    }

    @Test("a watch of every item passes on the engine's news: none marked on a first sight, then exactly the new ones",
          arguments: [true, false])
    func newsOfEveryCycle(withStore: Bool) async throws {
        let (directory, manifest, file) = try Self.notes()
        func write(_ ids: [String]) throws {
            try Data(ids.map { #"{"id": "\#($0)", "title": "\#($0)"}"# }.joined(separator: "\n").utf8).write(to: file)
        }
        // Without a store: its place is taken by a file, so it cannot be opened and the runs go on without it.
        let home = directory.appendingPathComponent("home")
        if !withStore { try Data().write(to: home) }
        let container = try AppDIContainer.load(manifestAt: manifest, environment: ["AGGREGATE_HOME": home.path])
        #expect((container.store.open().store != nil) == withStore)

        func watch(_ cycles: [[String]]) async throws -> [NewItems] {
            let clock = TestClock(now: Date(timeIntervalSince1970: 1_800_000_000))
            let log = WatchLog()
            let watcher = try Watcher(container: container, options: Watcher.Options(items: .all), observer: log, clock: clock)
            try write(cycles[0])
            watcher.start()
            clock.advance(by: 6)
            await log.waitFor(cycles: 1)
            for (index, ids) in cycles.enumerated().dropFirst() {
                try write(ids)
                clock.advance(by: 60)
                await log.waitFor(cycles: index + 1)
            }
            await withCheckedContinuation { continuation in watcher.stop { continuation.resume() } }
            #expect(log.finished.map { $0.report.items.map(\.id) } == cycles, "every cycle delivers the whole result")
            return log.finished.map(\.news)
        }
        let first = try await watch([["a", "b"], ["a", "b", "c"], ["a", "b", "c"], ["b", "c"], ["a", "b", "c", "d"]])
        #expect(first.map(\.isFirstSight) == [true, false, false, false, false])
        #expect(first[0].ids == ["a", "b"], "each item once for a stream of events, from the first cycle")
        #expect(first.map(\.marked) == [[], ["c"], [], [], withStore ? ["d"] : ["a", "d"]],
                "the history knows a came back; the memory of one process only its previous result")

        // The same sources watched again: with a store, what came meanwhile is new at once.
        let again = try await watch([["a", "b", "c", "d", "e"]])
        #expect(again[0].marked == (withStore ? ["e"] : []))
    }

    @Test("a source the watch's own stop cuts short is not reported: stopping is no news of the source")
    func stopIsNoNews() async throws {
        let directory = ScratchDirectory.path("aggregate-watcher")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let marker = directory.appendingPathComponent("started")
        let script = directory.appendingPathComponent("slow.sh")
        try Data("#!/bin/sh\ntouch '\(marker.path)'\nexec sleep 3600\n".utf8).write(to: script)  // runs until stopped
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let manifest = directory.appendingPathComponent("manifest.json")
        try Data(#"{"version": 1, "sources": [{"id": "slow", "provider": "exec", "timeoutSeconds": 3600, "options": {"command": ["./slow.sh"]}}]}"#.utf8)
            .write(to: manifest)
        let container = try AppDIContainer.load(
            manifestAt: manifest, environment: ["AGGREGATE_HOME": directory.appendingPathComponent("home").path])
        let clock = TestClock(now: Date(timeIntervalSince1970: 1_800_000_000))
        let log = WatchLog()
        let watcher = try Watcher(container: container, options: Watcher.Options(), observer: log, clock: clock)
        watcher.start()
        clock.advance(by: 6)
        for _ in 0..<2_400 where !FileManager.default.fileExists(atPath: marker.path) {
            try await Task.sleep(for: .milliseconds(50))  // another OS process writes the marker: no event to wait on
        }
        #expect(FileManager.default.fileExists(atPath: marker.path), "the program is running")
        await withCheckedContinuation { continuation in watcher.stop { continuation.resume() } }
        #expect(log.finished.isEmpty)
    }
}
