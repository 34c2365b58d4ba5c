import Foundation
import ProviderTesting
import Testing

@Suite("LiveProcess: waits on a running program's output")
struct LiveProcessTests {
    @Test("a wait whose task is cancelled returns false at once; the program's later output still answers other waits")
    func cancelledWait() async throws {
        // Prints nothing until it reads a line: only the cancellation can end the first wait.
        let live = try LiveProcess.start(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "read line; echo \"got $line\""], environment: [:], withInput: true)
        let waiting = Task { await live.waitFor { stdout, _ in stdout.contains("never printed") } }
        waiting.cancel()
        #expect(await waiting.value == false)

        live.send("x\n")
        #expect(await live.waitFor { stdout, _ in stdout.contains("got x") })
        let result = await live.finish()
        #expect(result.status == 0)
    }
}
