import Foundation
import ProviderTesting
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `aggregate` never exits leaving a program it started, or anything that program started, behind: after a
/// source's timeout, the run's `--deadline` and Ctrl-C. Checked by process group once `aggregate` has
/// exited, never by name.
@Suite("aggregate leaves no exec program behind (end to end)")
struct ExecTeardownEndToEndTests {
    /// Starts two background children, records its pid and process group in `ids`, then waits for them.
    static let script = """
        sleep 3600 &  # stands in for a program that runs until stopped
        sleep 3600 &  # stands in for a program that runs until stopped
        read -r pid comm state ppid pgid rest < /proc/$$/stat
        echo "$pid $pgid" > ids.tmp && mv ids.tmp ids
        wait
        """

    static func manifest(timeoutSeconds: Int) -> String {
        """
        {"version": 1, "sources": [
          {"id": "waits", "provider": "exec", "timeoutSeconds": \(timeoutSeconds), "options": {"command": ["sh", "waits.sh"]}}
        ]}
        """
    }

    /// The timeout and the deadline below: the program must have started and recorded its group before either
    /// ends it, which on a loaded machine can take seconds; the test waits this long whatever the load.
    static let startRoom = 10

    @Test("after a source's timeout, no process of the program's group is left when aggregate exits")
    func sourceTimeout() async throws {
        let sandbox = try Sandbox(manifest: Self.manifest(timeoutSeconds: Self.startRoom), files: ["waits.sh": Self.script])
        let result = try await Aggregate.run(["--format", "json", "--manifest", sandbox.manifestPath])
        let pgid = try #require(await programGroup(in: sandbox))
        #expect(!processGroupExists(pgid))
        #expect(result.status == 1)
        #expect(try result.sources().first?["status"] as? String == "timeout")
    }

    @Test("after the run's --deadline, no process of the program's group is left when aggregate exits")
    func runDeadline() async throws {
        let sandbox = try Sandbox(manifest: Self.manifest(timeoutSeconds: 3600), files: ["waits.sh": Self.script])
        let result = try await Aggregate.run(["--format", "json", "--deadline", "\(Self.startRoom)", "--manifest", sandbox.manifestPath])
        let pgid = try #require(await programGroup(in: sandbox))
        #expect(!processGroupExists(pgid))
        #expect(result.status == 1)
        #expect(try result.sources().first?["status"] as? String == "timeout")
    }

    // RE-HOME (issue 15, for the lead): this test leans on the minimal SIGINT/SIGTERM handling of the exec
    // branch (Sources/aggregate/Interruption.swift, a run-wide CancellationToken passed to
    // AggregateSourcesUseCase.execute). Move it next to the run engine's own interruption tests when those exist.
    @Test("Ctrl-C (SIGINT) to aggregate: it exits 130 and no process of the program's group is left")
    func interrupted() async throws {
        let sandbox = try Sandbox(manifest: Self.manifest(timeoutSeconds: 3600), files: ["waits.sh": Self.script])
        let result = try await Aggregate.run(["--format", "json", "--manifest", sandbox.manifestPath]) { pid in
            _ = try #require(await programGroup(in: sandbox))  // the program runs: interrupt
            kill(pid, SIGINT)
        }
        let pgid = try #require(await programGroup(in: sandbox))
        #expect(!processGroupExists(pgid))
        #expect(result.status == 130)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("aggregate: interrupted"))
    }

    /// The process group the script recorded (its own pid: it leads its group), waiting (bounded) for it.
    private func programGroup(in sandbox: Sandbox) async -> pid_t? {
        let file = sandbox.root.appendingPathComponent("ids")
        let end = Date().addingTimeInterval(30)  // a program starting on a loaded machine; a pass ends at once
        while Date() < end {
            if let text = try? String(contentsOf: file, encoding: .utf8), text.hasSuffix("\n") {
                let numbers = text.split(whereSeparator: \.isWhitespace).compactMap { pid_t($0) }
                return numbers.count == 2 && numbers[0] == numbers[1] ? numbers[1] : nil
            }
            try? await Task.sleep(for: .milliseconds(20))  // a grandchild process writes the file: no event to wait on
        }
        return nil
    }
}
