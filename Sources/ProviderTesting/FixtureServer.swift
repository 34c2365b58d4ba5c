import Domain
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
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
///
/// It runs on SwiftNIO's event loop threads, never on Swift's cooperative pool: a parallel suite keeps that
/// pool busy, and a server there stops answering for seconds (docs/TESTING.md).
public final class FixtureServer: Sendable {
    /// `http://127.0.0.1:<port>`: what a provider's `baseURL` option is set to in a test.
    public let baseURL: URL
    /// The port the server listens on.
    public let port: UInt16
    private let channel: any Channel
    private let shared: Shared

    struct Route: Sendable {
        var path: String
        var query: [String: String]
        var responses: [FixtureResponse]
        var served = 0
    }

    final class Shared: Sendable {
        let state = Mutex(State())
        /// Accepted connections still open, by id, so `stop()` can drop them.
        /// `next` also counts every connection accepted; `peak` is the most open at once.
        let connections = Mutex((next: 0, open: [Int: any Channel](), peak: 0))
    }

    struct State: Sendable {
        var routes: [Route] = []
        var fallback: Route?
        var requests: [RecordedRequest] = []
        var inFlight = 0
        var peakInFlight = 0
        /// Delays and stalls waiting now, by id: each releases its answer on its connection's event loop.
        var stalls: [Int: @Sendable () -> Void] = [:]
        var nextStall = 0
        /// Set by `releaseStalls()`: later delays and stalls answer at once.
        var stallsReleased = false
        /// Tests waiting for the requests to satisfy a condition (`waitForRequests`), by id.
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    struct Waiter: Sendable {
        var condition: @Sendable ([RecordedRequest]) -> Bool
        var continuation: CheckedContinuation<Bool, Never>
    }

    private init(channel: any Channel, port: UInt16, shared: Shared) {
        self.channel = channel
        self.port = port
        self.shared = shared
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Binds 127.0.0.1 on a free port (or on `port`: a receiver that comes back where it was) and returns once
    /// the server is listening.
    public static func start(port: UInt16 = 0) async throws -> FixtureServer {
        let shared = Shared()
        return try await started(bootstrap(shared).bind(host: "127.0.0.1", port: Int(port)).get(), shared: shared)
    }

    /// Listens on `refusing`'s own socket, which the server takes over: a receiver that was down comes up on its
    /// port with no moment in which another socket could take it.
    /// - Throws: when the port was released or handed over already, or cannot listen.
    public static func start(on refusing: RefusingPort) async throws -> FixtureServer {
        guard let descriptor = refusing.handOver() else { throw ChannelError.inappropriateOperationForState }
        let shared = Shared()
        return try await started(bootstrap(shared).withBoundSocket(descriptor).get(), shared: shared)
    }

    private static func bootstrap(_ shared: Shared) -> ServerBootstrap {
        ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: 256)
            .childChannelInitializer { channel in
                let id = shared.connections.withLock { connections in
                    connections.next += 1
                    connections.open[connections.next] = channel
                    connections.peak = max(connections.peak, connections.open.count)
                    return connections.next
                }
                channel.closeFuture.whenComplete { _ in shared.connections.withLock { _ = $0.open.removeValue(forKey: id) } }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(FixtureResponder(shared: shared))
                }
            }
    }

    private static func started(_ channel: any Channel, shared: Shared) async throws -> FixtureServer {
        guard let bound = channel.localAddress?.port, let port = UInt16(exactly: bound) else {
            try? await channel.close().get()
            throw ChannelError.unknownLocalAddress
        }
        return FixtureServer(channel: channel, port: port, shared: shared)
    }

    /// Stops listening and drops open connections at once; returns when the listening socket is closed.
    public func stop() async {
        try? await channel.close().get()
        let open = shared.connections.withLock { Array($0.open.values) }
        for connection in open { try? await connection.close().get() }
    }

    /// A URL on 127.0.0.1 where nothing listens (connection refused).
    ///
    /// The port is held by a socket that is bound but never listens, for the life of the test process: a port
    /// merely freed (a stopped server's) was soon handed to another test's server, whose 404 then stood where
    /// the refusal should have been.
    public static func refusedURL() async throws -> URL {
        guard let port = RefusingPort.shared.port else { throw ChannelError.unknownLocalAddress }
        return URL(string: "http://127.0.0.1:\(port)")!
    }

/// Scripts the answers for `path` (and requests whose query contains every `query` pair).
    public func route(_ path: String, query: [String: String] = [:], _ responses: [FixtureResponse]) {
        precondition(!responses.isEmpty, "a route needs at least one response")
        shared.state.withLock { state in
            state.routes.removeAll { $0.path == path && $0.query == query }
            state.routes.append(Route(path: path, query: query, responses: responses))
        }
    }

    /// Scripts the answers for `path`: each request takes the next answer, the last one repeating.
    public func route(_ path: String, query: [String: String] = [:], _ responses: FixtureResponse...) {
        route(path, query: query, responses)
    }

    /// Scripts the answers for every request no route matches, whatever its path: for checks that do not
    /// care which endpoint a provider calls (the conformance suite).
    public func fallback(_ responses: FixtureResponse...) {
        fallback(responses)
    }

    /// Scripts the answers for requests no route matches; the last one repeats.
    public func fallback(_ responses: [FixtureResponse]) {
        precondition(!responses.isEmpty, "a fallback needs at least one response")
        shared.state.withLock { $0.fallback = Route(path: "*", query: [:], responses: responses) }
    }

    /// Every request received so far, in arrival order.
    public var requests: [RecordedRequest] { shared.state.withLock { $0.requests } }

    /// The requests received for `path`, in arrival order.
    public func requests(path: String) -> [RecordedRequest] { requests.filter { $0.path == path } }

    /// How many requests were received so far, whatever their path.
    public var requestCount: Int { shared.state.withLock { $0.requests.count } }

    /// The most requests that were being answered at the same moment.
    public var peakConcurrentRequests: Int { shared.state.withLock { $0.peakInFlight } }

    /// Connections accepted since the start (a client that reuses its connections opens few).
    public var acceptedConnections: Int { shared.connections.withLock { $0.next } }

    /// Requests received whose answer is not yet fully written (a delayed or stalled one is still in flight).
    public var requestsInFlight: Int { shared.state.withLock { $0.inFlight } }

    /// The most connections that were open at the same moment.
    public var peakOpenConnections: Int { shared.connections.withLock { $0.peak } }

    /// Connections open now (a client that stopped a transfer mid-response has closed its one).
    public var openConnections: Int { shared.connections.withLock { $0.open.count } }

    /// Ends every delay and stall now and makes later ones answer at once: a test that judges whether a client
    /// gave up before a stalled answer ended ends the stall itself, after it judged, instead of racing a clock.
    public func releaseStalls() {
        shared.releaseStalls()
    }

    /// Suspends until `condition` holds of every request received so far (asked now and again as each request
    /// arrives, never by polling); false if it did not within `seconds`, a bound for a client that never asks.
    public func waitForRequests(
        within seconds: Double = 120, until condition: @escaping @Sendable ([RecordedRequest]) -> Bool
    ) async -> Bool {
        await withCheckedContinuation { continuation in
            let id = shared.state.withLock { state -> Int? in
                if condition(state.requests) { return nil }
                defer { state.nextWaiter += 1 }
                state.waiters[state.nextWaiter] = Waiter(condition: condition, continuation: continuation)
                return state.nextWaiter
            }
            guard let id else { return continuation.resume(returning: true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [shared] in
                shared.state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(returning: false)
            }
        }
    }

    /// Suspends until `count` requests for `path` arrived; false if they did not within `seconds`.
    public func waitForRequests(path: String, count: Int, within seconds: Double = 120) async -> Bool {
        await waitForRequests(within: seconds) { requests in requests.count(where: { $0.path == path }) >= count }
    }

    /// Forgets the requests received so far; routes stay.
    public func resetRecording() {
        shared.state.withLock { state in
            state.requests = []
            state.peakInFlight = state.inFlight
        }
    }
}

extension FixtureServer.Shared {
    /// Records `request` and picks its scripted answer (nil: no route and no fallback), counting it in flight
    /// until `finished()`.
    func take(_ request: RecordedRequest) -> FixtureResponse? {
        let (response, satisfied) = state.withLock { state -> (FixtureResponse?, [FixtureServer.Waiter]) in
            state.requests.append(request)
            let requests = state.requests
            let satisfied = state.waiters.filter { $0.value.condition(requests) }
            for id in satisfied.keys { state.waiters.removeValue(forKey: id) }
            return (Self.answer(request, &state), Array(satisfied.values))
        }
        for waiter in satisfied { waiter.continuation.resume(returning: true) }
        return response
    }

    /// Counts `request` in flight and picks its scripted answer.
    private static func answer(_ request: RecordedRequest, _ state: inout FixtureServer.State) -> FixtureResponse? {
        state.inFlight += 1
        state.peakInFlight = max(state.peakInFlight, state.inFlight)
        let candidates = state.routes.indices
            .filter { index in
                let route = state.routes[index]
                return route.path == request.path && route.query.allSatisfy { request.query($0.key) == $0.value }
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

    func finished() {
        state.withLock { $0.inFlight -= 1 }
    }

    /// Runs `answer` on `eventLoop` after `seconds`, or as soon as `releaseStalls()` is called, once.
    func stall(_ seconds: Double, on eventLoop: any EventLoop, then answer: @escaping () -> Void) {
        let bound = NIOLoopBound(answer, eventLoop: eventLoop)
        let id: Int? = state.withLock { state in
            guard !state.stallsReleased else { return nil }
            state.nextStall += 1
            state.stalls[state.nextStall] = { eventLoop.execute { bound.value() } }
            return state.nextStall
        }
        guard let id else { return answer() }
        // Whichever takes the stall out of the table (its timer or a release) answers.
        eventLoop.scheduleTask(in: .nanoseconds(Int64(seconds * 1e9))) { [self] in
            if state.withLock({ $0.stalls.removeValue(forKey: id) }) != nil { bound.value() }
        }
    }

    func releaseStalls() {
        let waiting = state.withLock { state in
            state.stallsReleased = true
            defer { state.stalls = [:] }
            return Array(state.stalls.values)
        }
        waiting.forEach { $0() }
    }
}
