import App
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ProviderTesting
@testable import Server
import Synchronization

/// A server in this process on 127.0.0.1 (a port the system chose), over a manifest in a new temporary
/// directory, and a real HTTP client (AsyncHTTPClient) to ask it.
final class ServeHarness: Sendable {
    /// A client that shows responses as sent (the shared one inflates gzip and follows redirects itself); never
    /// shut down.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(decompression: .disabled)
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    let server: AggregateServer
    let base: String
    /// The port the server listens on.
    var port: Int { Int(base.split(separator: ":").last ?? "") ?? 0 }
    let directory: URL
    private let running: Task<Void, any Error>
    /// False for a directory the caller gave (`start(in:)`), which outlives the server.
    private let ownsDirectory: Bool

    /// Writes `manifest` and `files` into a new directory (or `given`, which `stop` leaves) and serves it. Sources start as in a real watch
    /// (within the first-cycle spread: at most 5 s); `ready()` waits for them.
    static func start(
        manifest: String, files: [String: String] = [:], token: String? = nil, eventCapacity: Int = 4096,
        maxEventClients: Int = 64, idleTimeoutSeconds: Double = 30, maxConnections: Int = 256,
        metricsSources: MetricsSources = .auto, in given: URL? = nil
    ) async throws -> ServeHarness {
        let directory = given ?? ScratchDirectory.path("aggregate-serve")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (path, text) in files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let manifestURL = directory.appendingPathComponent("manifest.json")
        try Data(manifest.utf8).write(to: manifestURL)
        let container = try AppDIContainer.load(
            manifestAt: manifestURL, environment: ["AGGREGATE_HOME": directory.appendingPathComponent("home").path])
        var configuration = ServeConfiguration(
            listen: ListenAddress(host: "127.0.0.1", port: 0), token: token.flatMap(ServeToken.init),
            maxEventClients: maxEventClients, eventCapacity: eventCapacity, keepAliveSeconds: 1,
            idleTimeoutSeconds: idleTimeoutSeconds, maxConnections: maxConnections)
        configuration.metricsSources = metricsSources
        var logger = Logger(label: "aggregate-serve-test")
        logger.logLevel = .warning
        let server = try AggregateServer(container: container, configuration: configuration, logger: logger)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let running = Task {
            try await server.run { port in continuation.yield(port) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CocoaError(.fileReadUnknown) }
        return ServeHarness(
            server: server, base: "http://127.0.0.1:\(port)", directory: directory, ownsDirectory: given == nil, running: running)
    }

    private init(server: AggregateServer, base: String, directory: URL, ownsDirectory: Bool, running: Task<Void, any Error>) {
        self.ownsDirectory = ownsDirectory
        self.server = server
        self.base = base
        self.directory = directory
        self.running = running
    }

    /// Shuts the server down and waits until `run` returned.
    func stop() async throws {
        server.shutdown()
        try await running.value
        if ownsDirectory { try? FileManager.default.removeItem(at: directory) }
    }

    func write(_ path: String, _ text: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(path))
    }

    func request(
        _ path: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: String? = nil
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response: HTTPClientResponse
        do {
            response = try await ServeHarness.client.execute(request, timeout: .seconds(30))
        } catch where method == .GET && Self.isClosedIdleConnection(error) {
            // A pooled keep-alive connection the server closed for idleness just as this request went out on it
            // (the tests that set a 1 s idle timeout, on a loaded machine): a browser sends such a GET again on a
            // new connection, and so does this client, once.
            response = try await ServeHarness.client.execute(request, timeout: .seconds(30))
        }
        let body = try await response.body.collect(upTo: 16 * 1024 * 1024)
        return Reply(status: Int(response.status.code), headers: response.headers, body: Array(buffer: body))
    }

    /// The errors of a request sent on a connection the server had already closed: reset, or closed before any
    /// answer.
    private static func isClosedIdleConnection(_ error: any Error) -> Bool {
        if let error = error as? IOError { return error.errnoCode == ECONNRESET || error.errnoCode == EPIPE }
        return (error as? HTTPClientError) == .remoteConnectionClosed
    }

    /// Polls `path` until `condition` holds (or 30 s passed); returns the last reply.
    @discardableResult
    func poll(_ path: String, until condition: (Reply) -> Bool) async throws -> Reply {
        var reply = try await request(path)
        for _ in 0..<600 where !condition(reply) {
            try await Task.sleep(for: .milliseconds(50))
            reply = try await request(path)
        }
        return reply
    }

    /// Waits until every source finished its first cycle.
    func ready() async throws {
        try await poll("/readyz") { $0.status == 200 }
    }
}

struct Reply: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw CocoaError(.propertyListReadCorrupt)
        }
        return object
    }

    /// `[{"source": …, "id": …}]` of an items page, as "source/id".
    func itemKeys() throws -> [String] {
        (try json()["items"] as? [[String: Any]] ?? []).map { "\($0["source"] ?? "")/\($0["id"] ?? "")" }
    }

    func header(_ name: String) -> String? { headers.first(name: name) }
}

/// Records as NDJSON lines: `(id, title, date)`.
func ndjson(_ records: [(String, String, String?)]) -> String {
    records.map { id, title, date in
        var line = #"{"id": "\#(id)", "title": "\#(title)""#
        if let date { line += #", "date": "\#(date)""# }
        return line + "}"
    }.joined(separator: "\n") + "\n"
}
