import Foundation
import ProviderTesting
import Testing

/// Filter rules before the sinks, the ntfy and email sinks, and sink secrets from files, through the built binary.
@Suite("aggregate: filters, ntfy and email sinks (end to end)")
struct FilterAndNotificationSinksEndToEndTests {
    static let password = "smtp-pa55word-from-file"
    static let token = "tk_ntfy0123456789token"

    private func run(_ arguments: [String], _ sandbox: Sandbox, home: URL) async throws -> CommandResult {
        let manifest = arguments.first == "sinks" ? [] : ["--manifest", sandbox.manifestPath]
        let result = try await Aggregate.run(
            arguments + manifest, environment: ["AGGREGATE_HOME": home.path, "HOOK_SECRET": SinkSandbox.secret])
        for secret in [SinkSandbox.secret, Self.password, Self.token] {
            #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "a secret was printed")
        }
        return result
    }

    /// One files source `news` with a filter, and `sinks`.
    private func sandbox(filter: String, sinks: String, news ids: [String]) throws -> Sandbox {
        let sandbox = try Sandbox(
            manifest: """
                {"version": 1, "sources": [{"id": "news", "provider": "files", "options": {"paths": ["data/news.ndjson"]},
                  "filter": \(filter)}], "sinks": [\(sinks)]}
                """,
            files: ["data/news.ndjson": Self.news(ids)])
        let secret = sandbox.root.appendingPathComponent("smtp.password")
        try Data((Self.password + "\n").utf8).write(to: secret)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret.path)
        let token = sandbox.root.appendingPathComponent("ntfy.token")
        try Data(Self.token.utf8).write(to: token)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: token.path)
        return sandbox
    }

    /// Ids starting with `ad` are titled as sponsored.
    static func news(_ ids: [String]) -> String {
        ids.map { #"{"id": "\#($0)", "title": "\#($0.hasPrefix("ad") ? "Sponsored: " : "Story ")\#($0)"}"# + "\n" }.joined()
    }

    private func rewrite(_ sandbox: Sandbox, filter: String, sinks: String) throws {
        let text = """
            {"version": 1, "sources": [{"id": "news", "provider": "files", "options": {"paths": ["data/news.ndjson"]},
              "filter": \(filter)}], "sinks": [\(sinks)]}
            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: sandbox.manifestPath))
    }

    @Test("a dropped item never reaches a webhook; the report counts it; a loosened filter delivers it once")
    func filterBeforeSinks() async throws {
        let server = try await FixtureServer.start()
        server.route("/hook", FixtureResponse(status: 204, body: Data()))
        let receiver = SinkReceiver(server: server, secret: SinkSandbox.secret)
        let strict = #"{"exclude": {"title": "(?i)sponsored"}}"#
        let sandbox = try sandbox(filter: strict, sinks: SinkSandbox.webhook(receiver.url), news: ["a", "ad1", "b"])
        let home = Aggregate.temporaryHome()

        let first = try await run(["-f", "json", "--verbose"], sandbox, home: home)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        #expect(try first.items().map { $0["id"] as? String } == ["a", "b"])
        #expect(try first.sources().first?["filtered"] as? Int == 1)
        #expect(first.stderr.contains("news: ok, 2 items, 1 filtered out"), "stderr: \(first.stderr)")
        #expect(receiver.itemIDs == ["news/a", "news/b"], "the dropped item was never offered")

        try rewrite(sandbox, filter: #"{"exclude": {"title": "^Nothing"}}"#, sinks: SinkSandbox.webhook(receiver.url))
        let loosened = try await run(["-f", "json", "--new"], sandbox, home: home)
        let again = try await run(["-f", "json", "--new"], sandbox, home: home)
        await server.stop()

        #expect(try loosened.items().map { $0["id"] as? String } == ["ad1"], "now kept, and new")
        #expect(try again.items().isEmpty)
        #expect(receiver.itemIDs == ["news/a", "news/b", "news/ad1"], "delivered once, after the filter let it through")
    }

    @Test("a bad filter stops before anything runs: exit 78 with the JSON path")
    func badFilter() async throws {
        let sandbox = try sandbox(filter: #"{"jq": "select(.title"}"#, sinks: "", news: ["a"])
        let result = try await run(["-f", "json"], sandbox, home: Aggregate.temporaryHome())
        #expect(result.status == 78)
        #expect(result.stderr.contains("sources[0].filter.jq"), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("ntfy: the receiver down, then up: each item exactly once, one notification each, with the token from a file")
    func ntfyDownThenUp() async throws {
        let refusing = RefusingPort()
        let port = try #require(refusing.port)
        let ntfy = #"{"id": "phone", "type": "ntfy", "url": "http://127.0.0.1:\#(port)/alerts", "token": {"fromFile": "ntfy.token"}, "maxRetries": 0, "timeoutSeconds": 60}"#
        let sandbox = try sandbox(filter: #"{"exclude": {"title": "(?i)sponsored"}}"#, sinks: ntfy, news: ["a", "ad1", "b"])
        let home = Aggregate.temporaryHome()

        let down = try await run(["-f", "json"], sandbox, home: home)
        #expect(down.status == 1, "a sink failure is exit 1")
        #expect(down.stderr.contains("aggregate: sink phone:"), "stderr: \(down.stderr)")
        let status = try await run(["sinks", "status"], sandbox, home: home)
        #expect(status.stdout.contains("phone"))

        let server = try await FixtureServer.start(on: refusing)
        server.route("/", FixtureResponse(status: 200, body: Data("{}".utf8)))
        let up = try await run(["-f", "json"], sandbox, home: home)
        let afterwards = try await run(["-f", "json"], sandbox, home: home)
        await server.stop()

        #expect(up.status == 0 && afterwards.status == 0, "stderr: \(up.stderr)")
        let requests = server.requests(path: "/")
        let titles = try requests.map { request in
            try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])["title"] as? String
        }
        #expect(titles == ["Story a", "Story b"], "each item once, oldest first, the dropped one never")
        #expect(requests.allSatisfy { $0.headers["authorization"] == "Bearer \(Self.token)" })
    }

    @Test("email: one digest per pass with every new item, over STARTTLS with AUTH, the password from a file")
    func emailDigest() async throws {
        let certificates = try await TestCertificates.shared()
        let smtp = try await SMTPTestServer.start(mode: .startTLS, login: "digest", password: Self.password)
        let email = #"""
            {"id": "mail", "type": "email", "url": "smtp://localhost:\#(smtp.port)", "from": "aggregate@example.org",
             "to": ["me@example.org"], "username": "digest", "password": {"fromFile": "smtp.password"},
             "caFile": "\#(certificates.caFile.path)", "subject": "[news] {{count}} new", "timeoutSeconds": 30}
            """#
        let sandbox = try sandbox(filter: #"{"exclude": {"title": "(?i)sponsored"}}"#, sinks: email, news: ["a", "ad1", "b"])
        let home = Aggregate.temporaryHome()

        let first = try await run(["-f", "json"], sandbox, home: home)
        try Data(Self.news(["a", "ad1", "b", "c", "d"]).utf8).write(to: sandbox.root.appendingPathComponent("data/news.ndjson"))
        let second = try await run(["-f", "json"], sandbox, home: home)
        let third = try await run(["-f", "json"], sandbox, home: home)
        if first.status == 0, second.status == 0 { _ = await smtp.waitForMessages(2) }
        let messages = smtp.messages()
        await smtp.stop()

        #expect(first.status == 0 && second.status == 0 && third.status == 0, "stderr: \(first.stderr) \(second.stderr)")
        try #require(messages.count == 2, "one message per pass with something new; none for the third")
        #expect(messages.allSatisfy { $0.encrypted && $0.login == "digest" && $0.recipients == ["me@example.org"] })
        #expect(messages.first?.text.contains("Subject: [news] 2 new\r\n") == true)
        #expect(messages.last?.text.contains("Subject: [news] 2 new\r\n") == true)
        let bodies = messages.map { Self.plainPart($0.text) }
        #expect(bodies[0].contains("Story a") && bodies[0].contains("Story b") && !bodies[0].contains("Sponsored"))
        #expect(bodies[1].contains("Story c") && bodies[1].contains("Story d") && !bodies[1].contains("Story a"))
    }

    /// The decoded text/plain part of a message.
    static func plainPart(_ message: String) -> String {
        guard let start = message.range(of: "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"),
              let end = message[start.upperBound...].range(of: "\r\n\r\n--")
        else { return "" }
        let encoded = message[start.upperBound..<end.lowerBound].replacingOccurrences(of: "\r\n", with: "")
        return Data(base64Encoded: encoded).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
