import Domain
import Foundation
import HTTPClient
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Transport failures in the Domain's words. Never passes a `URLError`'s own text on: on Linux it
/// contains the full URL, query string and API key included.
enum TransportError {
    /// Whether the same request may succeed if repeated (DNS, TLS and bad URLs will not).
    static func isRetryable(_ error: SourceError) -> Bool {
        error.kind == .network || error.kind == .timeout
    }

    static func map(_ error: any Error, url: URL) -> (error: SourceError, retryable: Bool) {
        let hostName = url.host ?? "the server"
        let host = url.port.map { "\(hostName):\($0)" } ?? hostName
        guard let urlError = error as? URLError else {
            return (SourceError(.network, "transport error talking to \(host)"), true)
        }
        // libcurl's failures that swift-corelibs-foundation has no URLError code for (every TLS failure among
        // them) arrive as code -1 with libcurl's own text, which names the reason and never the URL.
        if urlError.code == .unknown, let tls = TLSFailure.fromLibcurl(urlError.localizedDescription) {
            return (tls.error(host: host, hostName: hostName), false)
        }
        switch urlError.code {
        case .cannotConnectToHost:
            return (SourceError(.network, "could not connect to \(host) (connection refused)"), true)
        case .cannotFindHost, .dnsLookupFailed:
            return (SourceError(.network, "could not resolve host \(hostName)"), false)
        case .networkConnectionLost:
            return (SourceError(.network, "the connection to \(host) closed before the response was complete"), true)
        case .notConnectedToInternet:
            return (SourceError(.network, "no network connection"), true)
        case .timedOut:
            return (SourceError(.timeout, "no answer from \(host) in time"), true)
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot:
            return (TLSFailure(reason: .untrusted("issued by a CA this machine does not trust")).error(host: host, hostName: hostName), false)
        case .serverCertificateHasBadDate:
            return (TLSFailure(reason: .expired).error(host: host, hostName: hostName), false)
        case .serverCertificateNotYetValid:
            return (TLSFailure(reason: .notYetValid).error(host: host, hostName: hostName), false)
        case .secureConnectionFailed, .clientCertificateRejected, .clientCertificateRequired:
            return (TLSFailure(reason: .handshake(nil)).error(host: host, hostName: hostName), false)
        case .badServerResponse, .zeroByteResource:
            return (SourceError(.network, "\(host) closed the connection without a valid HTTP response"), true)
        case .badURL, .unsupportedURL:
            return (SourceError(.configuration, "unsupported URL (scheme \(url.scheme ?? "none"))"), false)
        case .httpTooManyRedirects, .redirectToNonExistentLocation:
            return (SourceError(.badResponse, "\(host) redirected too many times"), false)
        default:
            return (SourceError(.network, "transport error \(urlError.code.rawValue) talking to \(host)"), true)
        }
    }
}
