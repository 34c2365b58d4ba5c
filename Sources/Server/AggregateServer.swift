import App
import Domain
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// What keeps a server's sources fresh: its own watch (`Watcher`, the engine and schedule `aggregate watch`
/// uses), or a fleet's workers, whose reports it reads from the shared store (`FleetFollower`).
protocol ServedSources: Sendable {
    /// The ids served, in manifest order.
    var sourceIDs: [String] { get }
    func start()
    func stop(completion: @escaping @Sendable () -> Void)
    /// Returns false for an id not served.
    func refresh(_ id: String) -> Bool
    func reload(_ container: AppDIContainer) throws(SelectionError)
}

extension Watcher: ServedSources {}
extension FleetFollower: ServedSources {}

/// `aggregate serve`: `ServedSources` keep every source fresh, and a Hummingbird server answers from their
/// latest state.
public final class AggregateServer: Sendable {
    public let configuration: ServeConfiguration
    let state: ServeState
    let watcher: any ServedSources
    private let access: AccessControl
    private let logger: Logger
    /// The reader apps' account, feeds and archive (`ReaderMiddleware`).
    let reader = ReaderService()
    /// Where every page reads its items.
    let archive = ServedArchive()

    private let lifecycle = ServiceGroupHolder()
    /// What the watch (or the fleet's follower) and the event streams' keep-alive are timed on.
    private let clock: any TimerClock

    /// - Throws: a `selection` that does not fit the manifest.
    public init(
        container: AppDIContainer, configuration: ServeConfiguration, selection: [String]? = nil,
        logger: Logger = Logger(label: "aggregate"), clock: any TimerClock = SystemClock()
    ) throws(SelectionError) {
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        let events = EventLog(capacity: configuration.eventCapacity, maxClients: configuration.maxEventClients)
        let state = ServeState(sources: [], events: events, metrics: ServeMetrics(), logger: logger)
        self.state = state
        var container = container
        container.requestRecorder = state.metrics
        if configuration.followsFleet {
            self.watcher = try FleetFollower(
                container: container, options: FleetFollower.Options(selection: selection), observer: state, clock: clock)
        } else {
            self.watcher = try Watcher(
                container: container,
                options: Watcher.Options(selection: selection, items: .all, output: { ServeOutput(state: state, announced: configuration.eventCapacity) }),
                observer: state, clock: clock)
        }
        state.reloaded(sources: watcher.sourceIDs)
        state.metrics.labelSources(configuration.metricsSources.perSource(watching: watcher.sourceIDs.count))
        self.access = AccessControl(token: configuration.token)
        reader.load(container, logger: logger)
        archive.load(container)
    }

    /// Starts the watch and serves until `shutdown`; `onListening` gets the bound port (the one asked for, or
    /// the one the system chose for port 0). Returns once in-flight responses finished and streams closed.
    public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let application = Application(
            router: makeRouter(),
            server: .http1(configuration: HTTP1Channel.Configuration(
                additionalChannelHandlers: [UnreadableRequestHandler()],
                idleTimeout: .milliseconds(Int64(configuration.idleTimeoutSeconds * 1000)),
                httpDecoderConfiguration: .init(maxHeaderFieldSize: 8 * 1024, maxHeaderListSize: 16 * 1024, maxHeaderFieldCount: 100))),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.listen.host, port: configuration.listen.port), serverName: nil,
                availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections)),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        var groupConfiguration = ServiceGroupConfiguration(services: [application], logger: logger)
        // A client that stopped reading cannot hold a shutdown: what is still unsent after this is cut.
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(configuration.shutdownGraceSeconds)
        let group = ServiceGroup(configuration: groupConfiguration)
        guard lifecycle.hold(group) else { return }
        watcher.start()
        let events = state.events
        let ticker = KeepAliveTicker(clock: clock, every: configuration.keepAliveSeconds) { events.wakeAll() }
        defer { ticker.stop() }
        try await group.run()
    }

    /// SIGTERM: the watch stops (its runs cancelled), event streams end, and the server finishes the responses
    /// in flight and returns from `run`.
    public func shutdown() {
        lifecycle.stop()  // first: a server not yet running never starts; the group's shutdown is asynchronous
        watcher.stop {}
        state.events.close()
    }

    /// SIGHUP: serve `container`'s manifest from now on.
    public func reload(_ container: AppDIContainer) throws(SelectionError) {
        var container = container
        container.requestRecorder = state.metrics
        try watcher.reload(container)
        reader.load(container, logger: logger)
        archive.load(container)
        state.reloaded(sources: watcher.sourceIDs)
        state.metrics.labelSources(configuration.metricsSources.perSource(watching: watcher.sourceIDs.count))
    }

    /// Every route the server answers (internal: a test compares the `/api` ones with docs/openapi.json).
    func makeRouter() -> Router<ServeRequestContext> {
        let router = Router(context: ServeRequestContext.self)
        router.add(middleware: APIMethodMiddleware())
        router.add(middleware: AccessMiddleware(access: access, metrics: state.metrics))
        router.add(middleware: ReaderMiddleware(service: reader))
        let cache = RepresentationCache()
        APIRoutes(state: state, archive: archive, watcher: watcher, access: access, cache: cache).register(on: router)
        EventRoutes(events: state.events).register(on: router)
        FeedRoutes(state: state, archive: archive, cache: cache).register(on: router)
        DashboardRoutes(state: state, archive: archive, access: access, cache: cache).register(on: router)
        return router
    }
}
