import App
import Foundation
import HTTPClient
import Logging
import ProviderTesting
@testable import Server
import Synchronization

/// A server in this process on 127.0.0.1 (a port the system chose), over a manifest in a new temporary
/// directory, and a real HTTP client (`LoopbackClient`: answers as sent) to ask it.
final class ServeHarness: Sendable {
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
        _ path: String, method: HTTPRequest.Method = .get, headers: [(String, String)] = [], body: String? = nil
    ) async throws -> HTTPResponse {
        guard let url = URL(string: base + path) else { throw URLError(.badURL) }
        let request = HTTPRequest(method, url: url, headers: HTTPHeaders(headers), body: body.map { Data($0.utf8) })
        // The server may close a new connection for idleness before it read the request (the tests that set a 1 s
        // idle timeout, on a loaded machine, where its event loop may not get to the request within the second):
        // a browser sends such a GET again on a new connection, and so does this harness, each time the server
        // closed one (an event, not a timer), for up to five minutes: a bound for a broken server that no load
        // reaches, where a count of tries was one that a loaded machine did.
        guard method == .get else { return try await LoopbackClient.send(request) }
        let deadline = ContinuousClock.now + .seconds(300)
        while true {
            do {
                return try await LoopbackClient.send(request)
            } catch LoopbackClientError.closedBeforeAnswer where ContinuousClock.now < deadline {
                continue
            }
        }
    }

    /// Asks `path` again after each event the server publishes (every change of a source's state is one, and the
    /// keep-alive wakes it every second) until `condition` holds; returns that reply. Five minutes without it
    /// fail the test: a bound for a broken server, not a speed goal.
    @discardableResult
    func poll(
        _ path: String, headers: [(String, String)] = [], until condition: (HTTPResponse) -> Bool
    ) async throws -> HTTPResponse {
        let events = server.state.events
        guard let subscription = events.subscribe() else { throw Failure("no event subscription left for \(path)") }
        defer { events.unsubscribe(subscription.id) }
        let deadline = ContinuousClock.now + .seconds(300)
        var wakeUps = subscription.wakeUps.makeAsyncIterator()
        while true {
            let reply: HTTPResponse?
            do {
                reply = try await request(path, headers: headers)
            } catch LoopbackClientError.closedBeforeAnswer {
                reply = nil  // closed for idleness again and again: asked again at the next wake-up
            }
            if let reply, condition(reply) { return reply }
            guard ContinuousClock.now < deadline else {
                throw Failure("\(path) still \(reply.map { "\($0.status) \($0.text.prefix(300))" } ?? "unanswered") after 5 minutes")
            }
            guard await wakeUps.next() != nil else { throw Failure("the server ended while waiting on \(path)") }
        }
    }

    /// Waits until every source finished its first cycle.
    func ready() async throws {
        try await poll("/readyz") { $0.status == 200 }
    }

    /// What a wait on the server ran into.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// What the serve tests read from an answer.
extension HTTPResponse {
    func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw CocoaError(.propertyListReadCorrupt)
        }
        return object
    }

    /// `[{"source": …, "id": …}]` of an items page, as "source/id".
    func itemKeys() throws -> [String] {
        (try json()["items"] as? [[String: Any]] ?? []).map { "\($0["source"] ?? "")/\($0["id"] ?? "")" }
    }

    func header(_ name: String) -> String? { headers[name] }
}

/// Records as NDJSON lines: `(id, title, date)`.
func ndjson(_ records: [(String, String, String?)]) -> String {
    records.map { id, title, date in
        var line = #"{"id": "\#(id)", "title": "\#(title)""#
        if let date { line += #", "date": "\#(date)""# }
        return line + "}"
    }.joined(separator: "\n") + "\n"
}
