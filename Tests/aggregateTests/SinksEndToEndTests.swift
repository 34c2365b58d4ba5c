import Foundation
import ProviderTesting
import Testing

/// Webhook sinks through the built binary against a loopback receiver that checks every signature: nothing
/// lost, nothing twice, the same delivery id when a delivery is sent again, and no secret printed.
@Suite("aggregate: webhook sinks (end to end)")
struct SinksEndToEndTests {
    private func run(
        _ arguments: [String], _ sandbox: Sandbox, home: URL, whileRunning: (pid_t) async throws -> Void = { _ in }
    ) async throws -> CommandResult {
        let manifest = arguments.first == "sinks" ? [] : ["--manifest", sandbox.manifestPath]
        let result = try await Aggregate.run(
            arguments + manifest,
            environment: ["AGGREGATE_HOME": home.path, "HOOK_SECRET": SinkSandbox.secret], whileRunning: whileRunning)
        #expect(!result.stdout.contains(SinkSandbox.secret) && !result.stderr.contains(SinkSandbox.secret))
        return result
    }

    @Test("signed deliveries of what is new for the sink: the first run sends every item, a later one only the new")
    func signedAndNewOnly() async throws {
        let server = try await FixtureServer.start()
        server.route("/hook", FixtureResponse(status: 204, body: Data()))
        let receiver = SinkReceiver(server: server, secret: SinkSandbox.secret)
        let sandbox = try SinkSandbox.make(sinks: SinkSandbox.webhook(receiver.url), news: ["a", "b", "c"])
        let home = Aggregate.temporaryHome()

        let first = try await run(["-f", "json"], sandbox, home: home)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        #expect(try first.items().count == 3, "the sources' output is untouched")
        let again = try await run(["-f", "json"], sandbox, home: home)
        #expect(again.status == 0)
        try SinkSandbox.write(["a", "b", "c", "d"], in: sandbox)
        let more = try await run(["-f", "json", "--new"], sandbox, home: home)
        #expect(more.status == 0)
        await server.stop()

        let deliveries = receiver.distinctDeliveries
        #expect(deliveries.count == 2, "nothing new on the second run: nothing sent")
        #expect(deliveries.allSatisfy { $0.signatureValid && $0.sink == "hook" })
        #expect(deliveries.map(\.itemIDs) == [["news/a", "news/b", "news/c"], ["news/d"]])
        #expect(Set(deliveries.map(\.id)).count == 2)
    }

    @Test("a receiver that is down, then up: exit 1 (0 with --allow-sink-failures), then each item exactly once, oldest first")
    func downThenUp() async throws {
        let refusing = RefusingPort()  // refused now, and nobody else's until the receiver comes up on it
        let port = try #require(refusing.port)
        let down = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let sandbox = try SinkSandbox.make(
            sinks: SinkSandbox.webhook(down.absoluteString + "/hook", extra: #", "maxRetries": 1"#), news: ["a", "b"])
        let home = Aggregate.temporaryHome()

        let failed = try await run(["-f", "json"], sandbox, home: home)
        #expect(failed.status == 1)
        #expect(try failed.sources().first?["status"] as? String == "ok", "a sink never changes the sources' results")
        #expect(failed.stderr.contains("aggregate: sink hook: delivery"), "stderr: \(failed.stderr)")
        #expect(failed.stderr.contains("kept for the next run"))
        try SinkSandbox.write(["a", "b", "c"], in: sandbox)
        let allowed = try await run(["-f", "json", "--allow-sink-failures"], sandbox, home: home)
        #expect(allowed.status == 0)
        let status = try await run(["sinks", "status"], sandbox, home: home)
        #expect(status.stdout.contains("hook"), "stdout: \(status.stdout)")
        #expect(status.stdout.split(separator: "\n").first { $0.hasPrefix("hook ") }?.split(separator: " ").dropFirst().first == "2",
                "two deliveries pending: \(status.stdout)")

        let server = try await FixtureServer.start(on: refusing)
        server.route("/hook", FixtureResponse(status: 200, body: Data("ok".utf8)))
        let receiver = SinkReceiver(server: server, secret: SinkSandbox.secret)
        let up = try await run(["-f", "json"], sandbox, home: home)
        let afterwards = try await run(["-f", "json"], sandbox, home: home)
        await server.stop()

        #expect(up.status == 0, "stderr: \(up.stderr)")
        #expect(afterwards.status == 0)
        #expect(receiver.itemIDs == ["news/a", "news/b", "news/c"], "each item exactly once, oldest delivery first")
        #expect(receiver.deliveries.allSatisfy { $0.signatureValid })
    }

    @Test("killed with SIGKILL while the receiver holds the request: the next run sends the same delivery again")
    func killedMidDelivery() async throws {
        let server = try await FixtureServer.start()
        server.route("/hook", FixtureResponse(status: 200, body: Data()).delayed(20), FixtureResponse(status: 200, body: Data()))
        let receiver = SinkReceiver(server: server, secret: SinkSandbox.secret)
        let sandbox = try SinkSandbox.make(
            sinks: SinkSandbox.webhook(receiver.url), news: ["a", "b"])
        let home = Aggregate.temporaryHome()

        let killed = try await run(["-f", "json"], sandbox, home: home) { pid in
            _ = await server.waitForRequests(path: "/hook", count: 1)  // the receiver holds it: kill mid-delivery
            kill(pid, SIGKILL)
        }
        #expect(killed.status != 0)
        let next = try await run(["-f", "json"], sandbox, home: home)
        let status = try await run(["sinks", "status"], sandbox, home: home)
        await server.stop()

        #expect(next.status == 0, "stderr: \(next.stderr)")
        let deliveries = receiver.deliveries
        #expect(deliveries.count == 2)
        #expect(Set(deliveries.map(\.id)).count == 1, "the same deliveryId both times")
        #expect(deliveries.first?.body == deliveries.last?.body, "the same bytes both times")
        #expect(deliveries.allSatisfy { $0.signatureValid })
        #expect(status.stdout.contains("hook"))
        #expect(!status.stdout.contains("pending"), "nothing left undelivered: \(status.stdout)")
    }

    @Test("a 403 is not retried: reported, failed in the outbox until retried or dropped (with confirmation)")
    func forbidden() async throws {
        let server = try await FixtureServer.start()
        server.route("/hook", FixtureResponse(status: 403, body: Data("no".utf8)))
        let receiver = SinkReceiver(server: server, secret: SinkSandbox.secret)
        let credentialed = receiver.url.replacingOccurrences(of: "http://", with: "http://user:url-pa55word@")
        let sandbox = try SinkSandbox.make(sinks: SinkSandbox.webhook(credentialed), news: ["a"])
        let home = Aggregate.temporaryHome()

        let refused = try await run(["-f", "json"], sandbox, home: home)
        #expect(refused.status == 1)
        #expect(receiver.deliveries.count == 1, "maxRetries is 3, but a 403 is asked once")
        #expect(refused.stderr.contains("refused, not retried"), "stderr: \(refused.stderr)")
        #expect(refused.stderr.contains("HTTP 403"))
        let status = try await run(["sinks", "status"], sandbox, home: home)
        #expect(status.stdout.contains("failed"), "stdout: \(status.stdout)")
        let quiet = try await run(["-f", "json"], sandbox, home: home)
        #expect(quiet.status == 0, "a failed delivery waits for 'sinks retry': nothing is sent")
        #expect(receiver.deliveries.count == 1)

        let retry = try await run(["sinks", "retry", "hook"], sandbox, home: home)
        #expect(retry.stdout.contains("1 delivery is due again"), "stdout: \(retry.stdout)")
        _ = try await run(["-f", "json"], sandbox, home: home)
        #expect(receiver.deliveries.count == 2)
        let unconfirmed = try await run(["sinks", "drop", "hook"], sandbox, home: home)
        #expect(unconfirmed.status == 1, "no answer on stdin: nothing dropped")
        let dropped = try await run(["sinks", "drop", "hook", "--yes"], sandbox, home: home)
        #expect(dropped.stdout.contains("Dropped 1 delivery"), "stdout: \(dropped.stdout)")
        await server.stop()

        for output in [refused, status, quiet, retry, unconfirmed, dropped] {
            #expect(!output.stdout.contains("url-pa55word") && !output.stderr.contains("url-pa55word"))
        }
    }

    @Test("watch delivers through the same engine: each cycle's new item reaches the sink once")
    func watch() async throws {
        let server = try await FixtureServer.start()
        server.route("/hook", FixtureResponse(status: 200, body: Data()))
        let receiver = SinkReceiver(server: server, secret: SinkSandbox.secret)
        let sandbox = try SinkSandbox.make(sinks: SinkSandbox.webhook(receiver.url), news: ["a"])
        try Data(try String(contentsOfFile: sandbox.manifestPath, encoding: .utf8)
            .replacingOccurrences(of: #""version": 1,"#, with: #""version": 1, "defaults": {"refreshSeconds": 0.2},"#).utf8)
            .write(to: URL(fileURLWithPath: sandbox.manifestPath))
        var environment = ProcessInfo.processInfo.environment
        environment["AGGREGATE_HOME"] = Aggregate.temporaryHome().path
        environment["HOOK_SECRET"] = SinkSandbox.secret
        let watch = try LiveProcess.start(
            Aggregate.binary, ["watch", "-f", "ndjson", "--stop-after", "120", "--manifest", sandbox.manifestPath],
            environment: environment)
        let first = await watch.waitFor { stdout, _ in stdout.contains(#""a""#) }
        _ = await server.waitForRequests(path: "/hook", count: 1)  // a delivery per cycle with news: a's
        try SinkSandbox.write(["a", "b"], in: sandbox)
        let second = await watch.waitFor { stdout, _ in stdout.contains(#""b""#) }
        _ = await server.waitForRequests(path: "/hook", count: 2)  // then b's
        watch.signal(SIGTERM)
        let result = await watch.finish()
        await server.stop()

        #expect(first && second, "stderr: \(result.stderr)")
        #expect(result.status == 0)
        #expect(receiver.itemIDs == ["news/a", "news/b"], "each item once, though every cycle reads a again")
        #expect(receiver.deliveries.allSatisfy { $0.signatureValid })
    }
}
