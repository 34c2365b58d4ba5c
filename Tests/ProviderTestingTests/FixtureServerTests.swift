import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import Logging
import ProviderTesting
import Testing

@Suite("The loopback fixture server")
struct FixtureServerTests {
    let client = CurlHTTPClient(configuration: HTTPClientConfiguration(retry: RetryPolicy(maxRetries: 0)))

    func get(_ server: FixtureServer, _ path: String, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]) async -> Result<HTTPResponse, SourceError> {
        await get(server.baseURL, path, query: query, headers: headers)
    }

    func get(_ base: URL, _ path: String, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]) async -> Result<HTTPResponse, SourceError> {
        await withCheckedContinuation { continuation in
            client.fetch(.get(base, path: path, query: query, headers: headers), cancellation: CancellationToken()) {
                continuation.resume(returning: $0)
            }
        }
    }

    @Test("listens on 127.0.0.1 with an ephemeral port")
    func address() async throws {
        let server = try await FixtureServer.start()
        #expect(server.port > 0)
        #expect(server.baseURL.host == "127.0.0.1")
        await server.stop()
    }

    @Test("a refusing port refuses, then a server takes over its very socket; the port cannot be handed over twice")
    func takesOverRefusingPort() async throws {
        let refusing = RefusingPort()
        let port = try #require(refusing.port)
        let refused = await get(try #require(URL(string: "http://127.0.0.1:\(port)")), "/up")
        guard case .failure = refused else {
            Issue.record("the port answered before the server came up")
            return
        }

        let server = try await FixtureServer.start(on: refusing)
        server.route("/up", .json("1"))
        #expect(server.port == port)
        #expect(try await get(server, "/up").get().text == "1")
        refusing.release()  // given up already: the server's socket stays open
        #expect(try await get(server, "/up").get().text == "1")
        await #expect(throws: (any Error).self) { try await FixtureServer.start(on: refusing) }
        await server.stop()
    }

    @Test("a route answers its responses in turn and then repeats the last")
    func sequence() async throws {
        let server = try await FixtureServer.start()
        server.route("/s", .json("{}", status: 500), .json("1"), .json("2"))
        var statuses: [Int] = []
        var bodies: [String] = []
        for _ in 0..<4 {
            let response = try await get(server, "/s").get()
            statuses.append(response.status)
            bodies.append(response.text)
        }
        #expect(statuses == [500, 200, 200, 200])
        #expect(bodies == ["{}", "1", "2", "2"])
        await server.stop()
    }

    @Test("a route with a matching query wins over the plain route; unknown paths get 404")
    func matching() async throws {
        let server = try await FixtureServer.start()
        server.route("/w", .json("plain"))
        server.route("/w", query: ["q": "Seoul"], .json("seoul"))
        #expect(try await get(server, "/w", query: [URLQueryItem(name: "q", value: "Seoul")]).get().text == "seoul")
        #expect(try await get(server, "/w", query: [URLQueryItem(name: "q", value: "Busan")]).get().text == "plain")
        let missing = try await get(server, "/nowhere").get()
        #expect(missing.status == 404)
        #expect(missing.text.contains("no fixture route"))
        await server.stop()
    }

    @Test("every request is recorded with method, path, decoded query and lowercased headers")
    func recording() async throws {
        let server = try await FixtureServer.start()
        server.route("/r", .json("{}"))
        _ = await get(server, "/r", query: [URLQueryItem(name: "q", value: "a b")], headers: ["X-Custom": "yes"])
        let request = try #require(server.requests.first)
        #expect(request.method == "GET")
        #expect(request.path == "/r")
        #expect(request.query("q") == "a b")
        #expect(request.target.hasPrefix("/r?q=a%20b"))
        #expect(request.header("X-CUSTOM") == "yes")
        #expect(server.requests(path: "/r").count == 1)
        await server.stop()
    }

    @Test("a stalled body arrives whole after the pause")
    func stalledBody() async throws {
        let server = try await FixtureServer.start()
        server.route("/b", FixtureResponse.json("0123456789").with(.stallBody(afterBytes: 3, seconds: 0.3)))
        #expect(try await get(server, "/b").get().text == "0123456789")
        await server.stop()
    }
}

@Suite("Source runner and log capture")
struct SourceRunnerTests {
    struct TwoItems: ItemSource {
        func load(_ context: LoadContext, into receiver: ItemReceiver) {
            DispatchQueue.global().async {
                receiver.emit([Item(kind: .record, id: "1", title: "one"), Item(kind: .record, id: "2", title: "two")])
                receiver.warn("something minor")
                receiver.finish()
            }
        }
    }

    struct Silent: ItemSource {
        func load(_ context: LoadContext, into receiver: ItemReceiver) {}
    }

    @Test("a source's items, warnings and status come back as a report")
    func runs() async {
        let report = await SourceRunner.run(TwoItems())
        #expect(report.status == .ok)
        #expect(report.items.map(\.title) == ["one", "two"])
        #expect(report.warnings == ["something minor"])
        #expect(SourceRunner.texts(of: report).contains("something minor"))
    }

    @Test("a source that never finishes is cut at its timeout")
    func timesOut() async {
        let report = await SourceRunner.run(Silent(), timeoutSeconds: 0.2)
        #expect(report.status == .timeout)
    }

    @Test("captured log lines carry level, message and metadata")
    func capture() {
        let capture = LogCapture()
        var logger = capture.logger(level: .info)
        logger[metadataKey: "source"] = "weather"
        logger.debug("hidden")
        logger.info("shown", metadata: ["n": "1"])
        #expect(capture.messages == ["info shown n=1 source=weather"])
    }
}
