import Domain
import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// A real HTTP server on 127.0.0.1 with an ephemeral port, inside the test process, serving scripted
/// recorded responses. Provider tests point a source's `baseURL` at `baseURL`.
///
///     let server = try await FixtureServer.start()
///     defer { Task { await server.stop() } }   // or `await server.stop()` at the end
///     server.route("/data/2.5/weather", query: ["q": "Seoul"],
///                  .json(#"{"cod":429}"#, status: 429, headers: [("Retry-After", "1")]),
///                  try .file(fixture("seoul.json")))
///
/// A route answers with its responses in turn and repeats the last one. Routes with query constraints are
/// tried before plain ones; an unmatched request gets the `fallback` responses if set, else 404 with a body
/// saying so. Every request is recorded
/// (method, path, query, headers) and the peak number answered at once is tracked, which proves client
/// concurrency without relying on timing.
public final class FixtureServer: Sendable {
    public let baseURL: URL
    public let port: UInt16
    private let task: Task<Void, any Error>
    private let shared: Shared

    struct Route: Sendable {
        var path: String
        var query: [String: String]
        var responses: [FixtureResponse]
        var served = 0
    }

    final class Shared: Sendable {
        let state = Mutex(State())
    }

    struct State: Sendable {
        var routes: [Route] = []
        var fallback: Route?
        var requests: [RecordedRequest] = []
        var inFlight = 0
        var peakInFlight = 0
    }

    private init(task: Task<Void, any Error>, port: UInt16, shared: Shared) {
        self.task = task
        self.port = port
        self.shared = shared
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Binds 127.0.0.1 on a free port (or on `port`: a receiver that comes back where it was) and returns once
    /// the server is listening.
    public static func start(port: UInt16 = 0) async throws -> FixtureServer {
        let shared = Shared()
        let handler = Handler(shared: shared)
        let server = HTTPServer(
            address: try sockaddr_in.inet(ip4: "127.0.0.1", port: port), timeout: 120, logger: .disabled,
            handler: handler)
        let task = Task(executorPreference: ServerExecutor.shared) { try await server.run() }
        try await server.waitUntilListening(timeout: SourceRunner.roomyTimeout)  // FlyingFox waits 5 s by default: too short on a loaded machine
        guard case .ip4(_, let port) = await server.listeningAddress else {
            task.cancel()
            throw SocketError.unsupportedAddress
        }
        return FixtureServer(task: task, port: port, shared: shared)
    }

    /// Stops listening and drops open connections at once; returns when the listening socket is closed.
    ///
    /// By cancelling the server's task, not with `HTTPServer.stop`: that closes the listening descriptor
    /// while the accept loop may still use it. Another server started in the meantime can get the same
    /// descriptor number, still blocking until its own loop starts; the stopped server's loop then blocks a
    /// concurrency thread in `accept` and takes the first connection meant for the new server, whose
    /// client waits for an answer that never comes. Cancelled, the loop ends first and `run()` closes the
    /// socket after it.
    public func stop() async {
        task.cancel()
        _ = await task.result
    }

    /// A URL on 127.0.0.1 where nothing listens (connection refused).
    public static func refusedURL() async throws -> URL {
        let server = try await start()
        let url = server.baseURL
        await server.stop()
        return url
    }

    /// Scripts the answers for `path` (and requests whose query contains every `query` pair).
    public func route(_ path: String, query: [String: String] = [:], _ responses: [FixtureResponse]) {
        precondition(!responses.isEmpty, "a route needs at least one response")
        shared.state.withLock { state in
            state.routes.removeAll { $0.path == path && $0.query == query }
            state.routes.append(Route(path: path, query: query, responses: responses))
        }
    }

    public func route(_ path: String, query: [String: String] = [:], _ responses: FixtureResponse...) {
        route(path, query: query, responses)
    }

    /// Scripts the answers for every request no route matches, whatever its path: for checks that do not
    /// care which endpoint a provider calls (the conformance suite).
    public func fallback(_ responses: FixtureResponse...) {
        fallback(responses)
    }

    public func fallback(_ responses: [FixtureResponse]) {
        precondition(!responses.isEmpty, "a fallback needs at least one response")
        shared.state.withLock { $0.fallback = Route(path: "*", query: [:], responses: responses) }
    }

    /// Every request received so far, in arrival order.
    public var requests: [RecordedRequest] { shared.state.withLock { $0.requests } }

    public func requests(path: String) -> [RecordedRequest] { requests.filter { $0.path == path } }

    public var requestCount: Int { shared.state.withLock { $0.requests.count } }

    /// The most requests that were being answered at the same moment.
    public var peakConcurrentRequests: Int { shared.state.withLock { $0.peakInFlight } }

    public func resetRecording() {
        shared.state.withLock { state in
            state.requests = []
            state.peakInFlight = state.inFlight
        }
    }
}

private struct Handler: HTTPHandler {
    let shared: FixtureServer.Shared

    func handleRequest(_ request: FlyingFox.HTTPRequest) async throws -> FlyingFox.HTTPResponse {
        let recorded = RecordedRequest(
            method: request.method.rawValue, path: request.path,
            queryItems: request.query.map { URLQueryItem(name: $0.name, value: $0.value) },
            target: request.target.rawValue,
            headers: Dictionary(request.headers.map { ($0.key.rawValue.lowercased(), $0.value) }, uniquingKeysWith: { $1 }),
            body: (try? await request.bodyData) ?? Data())
        let scripted: FixtureResponse? = shared.state.withLock { state in
            state.requests.append(recorded)
            state.inFlight += 1
            state.peakInFlight = max(state.peakInFlight, state.inFlight)
            let candidates = state.routes.indices
                .filter { index in
                    let route = state.routes[index]
                    return route.path == recorded.path && route.query.allSatisfy { recorded.query($0.key) == $0.value }
                }
                .sorted { state.routes[$0].query.count > state.routes[$1].query.count }
            guard let index = candidates.first else {
                guard let fallback = state.fallback else { return nil }
                state.fallback?.served += 1
                return fallback.responses[min(fallback.served, fallback.responses.count - 1)]
            }
            let route = state.routes[index]
            state.routes[index].served += 1
            return route.responses[min(route.served, route.responses.count - 1)]
        }
        defer { shared.state.withLock { $0.inFlight -= 1 } }

        guard let scripted else {
            return HTTPResponse(statusCode: .notFound, body: Data("no fixture route for \(recorded.path)".utf8))
        }
        if scripted.delay > 0 { try await Task.sleep(nanoseconds: UInt64(scripted.delay * 1e9)) }
        var headers = HTTPHeaders()
        for header in scripted.headers { headers.addValue(header.value, for: HTTPHeader(header.name)) }
        let status = HTTPStatusCode(scripted.status, phrase: Self.phrase(scripted.status))
        let bytes = [UInt8](scripted.body)

        switch scripted.fault {
        case nil:
            return HTTPResponse(statusCode: status, headers: headers, body: scripted.body)
        case .closeWithoutResponse:
            return HTTPResponse(webSocket: ClosingHandler())
        case .truncateBody(let afterBytes):
            let body = FaultBodySequence(
                segments: [.init(delay: 0, bytes: Array(bytes.prefix(afterBytes)))], failsAtEnd: true)
            return HTTPResponse(statusCode: status, headers: headers, body: HTTPBodySequence(from: body, count: bytes.count))
        case .stallBody(let afterBytes, let seconds):
            let body = FaultBodySequence(
                segments: [.init(delay: 0, bytes: Array(bytes.prefix(afterBytes))),
                           .init(delay: seconds, bytes: Array(bytes.dropFirst(afterBytes)))],
                failsAtEnd: false)
            return HTTPResponse(statusCode: status, headers: headers, body: HTTPBodySequence(from: body, count: bytes.count))
        }
    }

    static func phrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 422: "Unprocessable Entity"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }
}
