import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import ProviderTesting
import Sinks
import Templating
import Testing

/// ntfy and Slack transports against a loopback receiver: the request each service documents.
@Suite("ntfy and slack sinks: the documented requests")
struct NotificationTransportTests {
    static let oneItem = SinkDelivery(
        id: "d-1", sink: "phone",
        itemLines: Data((#"{"source":"issues","kind":"issue","id":"7","title":"Crash on <launch> & exit","subtitle":"apple/swift#7","url":"https://example.org/7","date":"2026-11-27T10:00:00Z","fields":{"labels":[{"name":"bug"}]}}"# + "\n").utf8),
        itemCount: 1, createdAt: Date(timeIntervalSince1970: 0))
    static let twoItems = SinkDelivery(
        id: "d-2", sink: "phone",
        itemLines: Data((#"{"source":"news","kind":"entry","id":"a","title":"Ünïcode title","subtitle":null,"url":null,"date":null,"fields":{}}"# + "\n"
            + #"{"source":"issues","kind":"issue","id":"8","title":"Second","subtitle":null,"url":"https://example.org/8","date":null,"fields":{}}"# + "\n").utf8),
        itemCount: 2, createdAt: Date(timeIntervalSince1970: 0))

    private func client() -> any HTTPFetching {
        LiveHTTPClientFactory().makeClient(HTTPClientConfiguration(requestTimeout: 10, retry: RetryPolicy(maxRetries: 0)))
    }

    private func send(_ transport: any SinkTransport, _ delivery: SinkDelivery) async -> SinkAttemptResult {
        await withCheckedContinuation { continuation in
            transport.send(delivery, cancellation: CancellationToken()) { continuation.resume(returning: $0) }
        }
    }

    private func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("ntfy: one item is one notification published as JSON to the server's root, with a bearer token")
    func ntfyOne() async throws {
        let server = try await FixtureServer.start()
        server.route("/", FixtureResponse(status: 200, body: Data(#"{"id":"x"}"#.utf8)))
        let topic = try #require(URL(string: server.baseURL.absoluteString + "/alerts"))
        let transport = NtfyTransport(topicURL: topic, token: "tk_s3cret", priority: 4, tags: ["newspaper"], client: client())
        let result = await send(transport, Self.oneItem)
        let requests = server.requests(path: "/")
        await server.stop()

        #expect(result == .delivered)
        let request = try #require(requests.first)
        #expect(request.method == "POST")
        #expect(request.headers["authorization"] == "Bearer tk_s3cret")
        #expect(request.headers["content-type"] == "application/json")
        let body = try json(request.body)
        #expect(body["topic"] as? String == "alerts")
        #expect(body["title"] as? String == "Crash on <launch> & exit")
        #expect(body["message"] as? String == "apple/swift#7")
        #expect(body["click"] as? String == "https://example.org/7")
        #expect(body["priority"] as? Int == 4)
        #expect(body["tags"] as? [String] == ["newspaper", "bug", "issues"])
    }

    @Test("ntfy: a batch is one notification listing its titles; a 401 is refused for good, a 503 tried again")
    func ntfyBatchAndAnswers() async throws {
        let server = try await FixtureServer.start()
        server.route("/", FixtureResponse(status: 200, body: Data()), FixtureResponse(status: 401, body: Data()),
                     FixtureResponse(status: 503, body: Data()))
        let topic = try #require(URL(string: server.baseURL.absoluteString + "/alerts"))
        let transport = NtfyTransport(topicURL: topic, token: nil, priority: nil, tags: [], client: client())
        let first = await send(transport, Self.twoItems)
        let refused = await send(transport, Self.twoItems)
        let busy = await send(transport, Self.twoItems)
        let requests = server.requests(path: "/")
        await server.stop()

        #expect(first == .delivered)
        if case .rejected(let error) = refused { #expect(error.kind == .unauthorized) } else { Issue.record("\(refused)") }
        if case .retryable = busy {} else { Issue.record("a 503 is worth another try: \(busy)") }
        let body = try json(try #require(requests.first).body)
        #expect(body["title"] as? String == "2 new items")
        #expect(body["message"] as? String == "• Ünïcode title (news)\n• Second (issues)")
        #expect(body["priority"] == nil && body["click"] == nil)
        #expect(requests.first?.headers["authorization"] == nil)
    }

    @Test("slack: {\"text\"} from the template, values escaped as Slack asks so a title cannot mention <!channel>")
    func slack() async throws {
        let server = try await FixtureServer.start()
        server.route("/services/T0/B0/xyz", FixtureResponse(status: 200, body: Data("ok".utf8)))
        let url = try #require(URL(string: server.baseURL.absoluteString + "/services/T0/B0/xyz"))
        let transport = SlackTransport(
            sink: "chat", url: url, template: try Template(SlackTransport.defaultTemplate), client: client())
        let custom = SlackTransport(
            sink: "chat", url: url, template: try Template("*{{count}} new in {{sink}}*{{#items}} {{{truncate5(title)}}}{{/items}}"),
            client: client())
        let result = await send(transport, Self.oneItem)
        _ = await send(transport, Self.twoItems)
        _ = await send(custom, Self.twoItems)
        let requests = server.requests(path: "/services/T0/B0/xyz")
        await server.stop()

        #expect(result == .delivered)
        let texts = try requests.map { try json($0.body)["text"] as? String }
        #expect(texts == [
            "• <https://example.org/7|Crash on &lt;launch&gt; &amp; exit> (issues)",
            "• Ünïcode title (news)\n• <https://example.org/8|Second> (issues)",
            "*2 new in chat* Ünïc… Seco…",
        ])
        #expect(requests.allSatisfy { $0.headers["content-type"] == "application/json" })
    }

    @Test("slack: a refused webhook's message never shows the URL's secret path")
    func slackSecretPath() async throws {
        let server = try await FixtureServer.start()
        server.route("/services/T0/B0/s3cretpath", FixtureResponse(status: 404, body: Data("no_service".utf8)))
        let url = try #require(URL(string: server.baseURL.absoluteString + "/services/T0/B0/s3cretpath"))
        let transport = SlackTransport(sink: "chat", url: url, template: try Template("x"), client: client())
        let result = await send(transport, Self.oneItem)
        await server.stop()

        guard case .rejected(let error) = result else { Issue.record("\(result)"); return }
        #expect(!error.message.contains("s3cretpath"), "\(error.message)")
        #expect(error.message.contains("404"))
    }
}
