import Dispatch
import Foundation
@testable import ProviderTesting
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The test helpers start programs as the product does, a busy file (ETXTBSY) included: a script a test writes
/// and runs at once may be held open for writing by the child of a concurrent spawn.
@Suite("ProcessRunner: a busy file is tried again")
struct ProcessRunnerTests {
    @Test("a script held open for writing by another process runs once that process lets it go")
    func retriedAfterBusy() async throws {
        let script = try Self.script()
        let holder = try await BusyFileHolder.start(holding: script.path)
        let (spawned, waits) = try await blocking {
            var waits: [Double] = []
            let spawned = try ProcessRunner.spawn(script, [], environment: [:]) { delay in
                waits.append(delay)
                holder.release()
                return ProcessRunner.pause(delay)
            }
            return (spawned, waits)
        }
        close(spawned.stdout)
        close(spawned.stderr)
        #expect(waits.first == ProcessRunner.busyRetryDelays[0])
        #expect(await onOwnThread { ProcessRunner.waitForExit(spawned.pid).status } == 3)
    }

    @Test("a script that stays busy fails with an error naming it, after every retry")
    func staysBusy() async throws {
        let script = try Self.script()
        let holder = try await BusyFileHolder.start(holding: script.path)
        defer { holder.release() }
        let error = await #expect(throws: ProcessRunner.SpawnError.self) {
            try await ProcessRunner.run(script, [], environment: [:])
        }
        let tries = ProcessRunner.busyRetryDelays.count + 1
        #expect(error?.description
            == "posix_spawn \(script.path): Text file busy (tried \(tries) times: something still holds it open for writing)")
    }

    /// An executable script that exits 3.
    private static func script() throws -> URL {
        let file = try ScratchDirectory.make("runner").appendingPathComponent("busy.sh")
        try Data("#!/bin/sh\nexit 3\n".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        return file
    }
}
