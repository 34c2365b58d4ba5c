import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// `aggregate worker --metrics HOST:PORT`: one route, `/metrics`, on a Hummingbird server of its own, as
/// `serve` answers it. Nothing else is served: a worker has no API.
public final class WorkerMetricsServer: Sendable {
    public let metrics: WorkerMetrics
    private let listen: ListenAddress
    private let logger: Logger
    private let group = ServiceGroupHolder()

    public init(metrics: WorkerMetrics, listen: ListenAddress, logger: Logger = Logger(label: "aggregate")) {
        self.metrics = metrics
        self.listen = listen
        self.logger = logger
    }

    /// Serves until `shutdown`; `onListening` gets the bound port (the one the system chose for port 0).
    public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let router = Router()
        router.get("/metrics") { [metrics] _, _ in Response.metrics(metrics.exposition()) }
        let application = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(listen.host, port: listen.port), serverName: nil),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [application], logger: logger))
        guard self.group.hold(group) else { return }
        try await group.run()
    }

    /// Stops serving (the worker ended).
    public func shutdown() {
        group.stop()
    }
}
