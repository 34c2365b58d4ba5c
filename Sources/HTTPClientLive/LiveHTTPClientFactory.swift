import Domain
import Foundation
import HTTPClient
import Synchronization

/// Makes each source's live client, on its first request: building a source (validating a manifest,
/// planning a run whose source is then skipped) opens nothing. Every client sends through the process's shared
/// connections (`TransportPool`), so a client is cheap and holds no connection of its own.
///
/// URLSession is the default. A source gets `SwiftNIOHTTPClient` (AsyncHTTPClient) instead when it needs what
/// URLSession on Linux cannot do (`Transport.choose`): other CAs than the system's, a proxy, or
/// `insecureSkipVerify`.
public struct LiveHTTPClientFactory: HTTPClientFactory {
    private let network: NetworkEnvironment
    private let defaultCAFile: URL?
    private let requestSlots: RequestSlots?

    /// - Parameters:
    ///   - network: the run's proxy and CA variables (the process environment's in the tool).
    ///   - defaultCAFile: the manifest's `defaults.caFile`, for sources without their own.
    ///   - requestSlots: the limit on requests in flight that every client made here shares
    ///     (`defaults.maxConcurrentRequests`); nil for none.
    public init(
        network: NetworkEnvironment = NetworkEnvironment(ProcessInfo.processInfo.environment), defaultCAFile: URL? = nil,
        requestSlots: RequestSlots? = nil
    ) {
        self.network = network
        self.defaultCAFile = defaultCAFile
        self.requestSlots = requestSlots
    }

    public func makeClient(_ configuration: HTTPClientConfiguration) -> any HTTPFetching {
        var configuration = configuration
        if configuration.caFile == nil { configuration.caFile = defaultCAFile }
        if configuration.requestSlots == nil { configuration.requestSlots = requestSlots }
        return LazyLiveClient(configuration: configuration, network: network)
    }
}

/// Which live client serves a source.
public enum Transport: String, Sendable, Hashable {
    case urlSession = "URLSession"
    case asyncHTTPClient = "AsyncHTTPClient"

    /// URLSession unless the source needs what it cannot do on Linux (measured, docs/ARCHITECTURE.md): it
    /// trusts only libcurl's built-in CA bundle (`SSL_CERT_FILE`, `CURL_CA_BUNDLE` and
    /// `URLSessionCertificateAuthorityInfoFile` are ignored), ignores `connectionProxyDictionary`, and lets
    /// libcurl pick a proxy from the environment by rules of its own (it ignores `HTTP_PROXY` in upper case).
    /// So any proxy variable, `proxy` option, CA setting or `insecureSkipVerify` selects AsyncHTTPClient, and
    /// whenever URLSession runs, libcurl has no proxy to find.
    public static func choose(_ configuration: HTTPClientConfiguration, network: NetworkEnvironment) -> Transport {
        let needsOwnTransport = configuration.caFile != nil || configuration.insecureSkipVerify || network.overridesTrust
            || network.hasProxy || configuration.proxy != .environment
        return needsOwnTransport ? .asyncHTTPClient : .urlSession
    }
}

/// The chosen live client, made when the first request comes.
private final class LazyLiveClient: HTTPFetching {
    private let configuration: HTTPClientConfiguration
    private let network: NetworkEnvironment
    private let client = Mutex<(any HTTPFetching)?>(nil)

    init(configuration: HTTPClientConfiguration, network: NetworkEnvironment) {
        self.configuration = configuration
        self.network = network
    }

    func fetch(
        _ request: HTTPRequest, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
    ) {
        made().fetch(request, cancellation: cancellation, completion: completion)
    }

    private func made() -> any HTTPFetching {
        if let made = client.withLock({ $0 }) { return made }
        // Made outside the lock; when two first requests race, the first one stored is kept.
        let made: any HTTPFetching = switch Transport.choose(configuration, network: network) {
        case .urlSession: URLSessionHTTPClient(configuration: configuration)
        case .asyncHTTPClient: SwiftNIOHTTPClient(configuration: configuration, network: network)
        }
        return client.withLock { stored in
            if let stored { return stored }
            stored = made
            return made
        }
    }
}
