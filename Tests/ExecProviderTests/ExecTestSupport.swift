import Dispatch
import Domain
import ExecProvider
import Foundation
import Processes
import ProviderTesting
import Logging
import ProviderKit
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A test's scripts, in a scratch directory of its own (`ScratchDirectory.Folder("exec-tests")`).
extension ScratchDirectory.Folder {
    /// Writes an executable `/bin/sh` script and returns its name (relative to the directory, with `./`).
    ///
    /// Written through a close-on-exec descriptor: a program another test starts meanwhile by a route that
    /// keeps inherited descriptors (`popen`) would otherwise hold the script open for writing as long as it
    /// runs, and starting it would fail with "text file busy" for longer than any retry waits.
    @discardableResult
    func script(_ name: String, _ body: String) throws -> String {
        let file = url.appendingPathComponent(name)
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path]) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: Data("#!/bin/sh\n\(body)\n".utf8))
        try handle.close()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        return "./\(name)"
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func read(_ name: String) -> String? {
        try? String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }

    /// Waits (bounded) for a file the program writes, such as its pid. The bound is for a program that never
    /// writes it: 30 s was reached by a program that did, started while the suite's first minute kept every
    /// thread busy (load average 20), so it is 5 minutes; a passing test waits only until the file is there.
    func waitForFile(_ name: String, seconds: Double = 300) async -> String? {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if let text = read(name), text.hasSuffix("\n") { return text.trimmingCharacters(in: .whitespacesAndNewlines) }
            try? await Task.sleep(for: .milliseconds(20))  // another OS process writes the file: no event to wait on
        }
        return nil
    }
}

/// Builds an exec source from manifest options, as the composition root would.
func makeSource(
    _ options: JSONValue, in directory: URL, id: String = "ext", logger: Logger = Logger(label: "exec-tests"),
    gracePeriod: Double = 0.5
) throws(ManifestError) -> any ItemSource {
    try ExecProvider(gracePeriod: gracePeriod).makeSource(SourceConfiguration(
        id: id, options: options, optionsPath: "sources[0].options", baseDirectory: directory,
        timeoutSeconds: SourceRunner.roomyTimeout, concurrency: 1, logger: logger))
}

/// Runs a source through the real aggregate use case, suspending (never blocking a pool thread).
func run(_ source: any ItemSource, timeout: Double = 20) async -> SourceReport {
    await AggregateSourcesUseCase().execute([PlannedSource(
        descriptor: SourceDescriptor(id: "ext", provider: "exec", timeoutSeconds: timeout, concurrency: 1),
        plan: .load(source))]).sources[0]
}

/// What one repository run delivered.
struct StreamResult: Sendable {
    var records: [Record] = []
    var warnings: [String] = []
    var error: SourceError?
}

/// Runs the repository directly with its own deadline (`timeout` from now, on `clock`: the system's when nil),
/// suspending (never blocking a pool thread) until its completion.
func stream(
    _ command: ExecCommand, timeout: Double = 20, gracePeriod: Double = 0.5, logger: Logger = Logger(label: "exec-tests"),
    lingering: LingeringWork = LingeringWork(), parentEnvironment: [String: String]? = nil, clock: TestClock? = nil,
    consumer: @escaping @Sendable ([Record]) -> Void = { _ in }
) async -> StreamResult {
    let cancellation = clock.map { CancellationToken(deadline: $0.uptime + timeout, clock: $0) }
        ?? CancellationToken(deadline: .now() + timeout)
    let repository = ExecRecordRepository(
        command: command, logger: logger, gracePeriod: gracePeriod,
        parentEnvironment: parentEnvironment ?? ProcessInfo.processInfo.environment)
    let result = Mutex(StreamResult())
    return await withCheckedContinuation { continuation in
        repository.streamRecords(
            cancellation: cancellation, lingering: lingering,
            onRecords: { records in
                consumer(records)
                result.withLock { $0.records.append(contentsOf: records) }
            },
            onWarning: { warning in result.withLock { $0.warnings.append(warning) } },
            completion: { error in
                result.withLock { $0.error = error }
                continuation.resume(returning: result.withLock { $0 })
            })
    }
}

/// Whether a process still runs (a zombie left for another parent to reap counts as gone).
func isAlive(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
       let close = stat.lastIndex(of: ")") {
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).prefix(1)
        return state != "Z" && state != "X"
    }
    return true
}

/// Waits (bounded) until the process is gone; a killed orphan is reaped asynchronously by its new parent.
func isGone(_ pid: pid_t, within seconds: Double = 60) async -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        if !isAlive(pid) { return true }
        try? await Task.sleep(for: .milliseconds(20))  // another parent reaps it: its end sends us no event
    }
    return false
}

/// The repository's `Examples/exec` folder.
let examplesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples/exec")

/// The shell lines that write `pid pgid` of the script's shell to the file `ids` (in its working directory).
let recordIDs = #"""
    read -r pid comm state ppid pgid rest < /proc/$$/stat
    echo "$pid $pgid" > ids.tmp && mv ids.tmp ids
    """#

extension ScratchDirectory.Folder {
    /// The pid and process group a script wrote with `recordIDs`, waiting (bounded) for the file.
    func ids() async -> (pid: pid_t, pgid: pid_t)? {
        guard let text = await waitForFile("ids") else { return nil }
        let numbers = text.split(separator: " ").compactMap { pid_t($0) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }
}

/// Loads `source` with `cancellation` as the aggregate use case would, runs `meanwhile` (which may cancel),
/// then waits for what a run waits for: the source's finish and its lingering work. Returns how it finished.
func loadUntilSettled(
    _ source: any ItemSource, cancellation: CancellationToken, meanwhile: () async throws -> Void
) async throws -> ItemReceiver.Outcome? {
    let lingering = LingeringWork()
    let (outcomes, finished) = AsyncStream.makeStream(of: ItemReceiver.Outcome.self)
    let receiver = ItemReceiver(onItems: { _ in }, onFinish: { outcome, _ in
        finished.yield(outcome)
        finished.finish()
    })
    source.load(LoadContext(concurrency: 1, cancellation: cancellation, lingering: lingering), into: receiver)
    do {
        try await meanwhile()
    } catch {
        cancellation.cancel()  // leave nothing running behind a failed test
        throw error
    }
    var outcome: ItemReceiver.Outcome?
    for await value in outcomes { outcome = value }
    await withCheckedContinuation { settled in lingering.notify(queue: .global()) { settled.resume() } }
    return outcome
}
