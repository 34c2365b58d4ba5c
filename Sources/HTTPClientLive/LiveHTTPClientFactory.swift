import Domain
import Foundation
import HTTPClient

/// Makes each source's live client (`CurlHTTPClient`). Making one opens nothing and loads nothing: libcurl is
/// loaded, and the process's one multi handle made, by the first request of the run (`CurlLoop`).
public struct LiveHTTPClientFactory: HTTPClientFactory {
    private let network: NetworkEnvironment
    private let defaultCAFile: URL?
    private let requestSlots: RequestSlots?

    /// - Parameters:
    ///   - network: the run's proxy and CA variables (the process environment's in the tool).
    ///   - defaultCAFile: the manifest's `defaults.caFile`, for sources without their own.
    ///   - requestSlots: the limit on requests in flight that every client made here shares
    ///     (`defaults.maxConcurrentRequests`); nil for none. libcurl keeps as many idle connections.
    ///   - maxConnectionsPerHost: `defaults.maxConnectionsPerHost`, libcurl's limit on connections to one host and
    ///     port for the whole process (transfers beyond it wait in libcurl, or share an HTTP/2 connection); nil
    ///     leaves it as it is (by default no limit beyond `requestSlots`).
    public init(
        network: NetworkEnvironment = NetworkEnvironment(ProcessInfo.processInfo.environment), defaultCAFile: URL? = nil,
        requestSlots: RequestSlots? = nil, maxConnectionsPerHost: Int? = nil
    ) {
        self.network = network
        self.defaultCAFile = defaultCAFile
        self.requestSlots = requestSlots
        if requestSlots != nil || maxConnectionsPerHost != nil {
            CurlLoop.shared.setLimits(.init(
                cachedConnections: requestSlots?.limit ?? 0, perHost: maxConnectionsPerHost.map { max(1, $0) }))
        }
    }

    public func makeClient(_ configuration: HTTPClientConfiguration) -> any HTTPFetching {
        var configuration = configuration
        if configuration.caFile == nil { configuration.caFile = defaultCAFile }
        if configuration.requestSlots == nil { configuration.requestSlots = requestSlots }
        return CurlHTTPClient(configuration: configuration, network: network)
    }
}
