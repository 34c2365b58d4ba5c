import AsyncHTTPClient
import Domain
import Foundation
import HTTPClient
import NIOCore
import NIOPosix
import NIOSSL

/// AsyncHTTPClient's, SwiftNIO's and BoringSSL's failures in the Domain's words, like `TransportError` for
/// URLSession. A proxy is named as `http://host:port`, never with its credentials; TLS failures are never
/// retried.
enum NIOTransportError {
    static func map(_ error: any Error, url: URL, proxy: ProxyEndpoint?, caFile: URL?) -> (error: SourceError, retryable: Bool) {
        let hostName = url.host ?? "the server"
        let host = url.port.map { "\(hostName):\($0)" } ?? hostName
        if let tls = tlsFailure(error) { return (tls.error(host: host, hostName: hostName), false) }
        if let sslError = error as? NIOSSLError {
            switch sslError {
            case .noSuchFilesystemObject, .failedToLoadCertificate:
                let which = caFile.map { "caFile \($0.path)" } ?? "SSL_CERT_FILE / SSL_CERT_DIR"
                return (SourceError(.configuration, "the CA certificates (\(which)) could not be loaded"), false)
            case .uncleanShutdown:
                return (SourceError(.network, "\(host) closed the TLS connection before the response was complete"), true)
            default:
                return (TLSFailure(reason: .handshake(nil)).error(host: host, hostName: hostName), false)
            }
        }
        if let connection = error as? NIOConnectionError { return connectionFailure(connection, host: host, proxy: proxy) }
        if let io = error as? IOError, io.errnoCode == ECONNREFUSED {
            return refused(host: host, proxy: proxy)
        }
        if let client = error as? HTTPClientError { return clientFailure(client, host: host, proxy: proxy) }
        if error is ChannelError {
            return (SourceError(.network, "the connection to \(host) failed"), true)
        }
        return (SourceError(.network, "transport error talking to \(host)"), true)
    }

    /// A failed handshake, classified from BoringSSL's reason codes (`CERTIFICATE_VERIFY_FAILED`, …).
    static func tlsFailure(_ error: any Error) -> TLSFailure? {
        if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
            return TLSFailure(reason: .hostnameMismatch)
        }
        guard let sslError = error as? NIOSSLError, case .handshakeFailed(let boring) = sslError else { return nil }
        let reasons = String(describing: boring).uppercased()
        func has(_ needles: String...) -> Bool { needles.contains { reasons.contains($0) } }
        if has("CERTIFICATE_VERIFY_FAILED") { return TLSFailure(reason: .unverified) }
        if has("CERTIFICATE_EXPIRED") { return TLSFailure(reason: .expired) }
        if has("WRONG_VERSION_NUMBER", "HTTP_REQUEST", "PACKET_LENGTH_TOO_LONG") {
            return TLSFailure(reason: .handshake("the server did not answer in TLS"))
        }
        if has("UNSUPPORTED_PROTOCOL", "PROTOCOL_VERSION", "NO_SUPPORTED_VERSIONS", "NO_SHARED_CIPHER",
               "NO_CIPHERS_AVAILABLE", "HANDSHAKE_FAILURE") {
            return TLSFailure(reason: .unsupportedProtocol(nil))
        }
        return TLSFailure(reason: .handshake(nil))
    }

    private static func refused(host: String, proxy: ProxyEndpoint?) -> (error: SourceError, retryable: Bool) {
        if let proxy {
            return (SourceError(.network, "could not connect to the proxy \(proxy) (connection refused) on the way to \(host)"), true)
        }
        return (SourceError(.network, "could not connect to \(host) (connection refused)"), true)
    }

    private static func connectionFailure(
        _ error: NIOConnectionError, host: String, proxy: ProxyEndpoint?
    ) -> (error: SourceError, retryable: Bool) {
        if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
            if let proxy { return (SourceError(.network, "could not resolve the proxy host of \(proxy)"), false) }
            return (SourceError(.network, "could not resolve host \(error.host)"), false)
        }
        if error.connectionErrors.contains(where: { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }) {
            return refused(host: host, proxy: proxy)
        }
        let target = proxy.map { "the proxy \($0)" } ?? host
        return (SourceError(.network, "could not connect to \(target)"), true)
    }

    private static func clientFailure(
        _ error: HTTPClientError, host: String, proxy: ProxyEndpoint?
    ) -> (error: SourceError, retryable: Bool) {
        let proxyName = proxy.map { "the proxy \($0)" } ?? "the proxy"
        switch error {
        case .connectTimeout:
            return (SourceError(.timeout, "no connection to \(proxy.map { "the proxy \($0)" } ?? host) in time"), true)
        case .tlsHandshakeTimeout:
            return (SourceError(.timeout, "TLS: no handshake with \(host) in time"), true)
        case .httpProxyHandshakeTimeout:
            return (SourceError(.timeout, "\(proxyName) did not open a tunnel to \(host) in time"), true)
        case .proxyAuthenticationRequired:
            return (SourceError(.unauthorized, "\(proxyName) asks for credentials (407): put them in the proxy URL, "
                + "http://user:password@host:port"), false)
        case .invalidProxyResponse:
            return (SourceError(.network, "\(proxyName) refused to open a tunnel to \(host)"), true)
        case .remoteConnectionClosed:
            return (SourceError(.network, "the connection to \(host) closed before the response was complete"), true)
        case .deadlineExceeded, .readTimeout, .writeTimeout, .cancelled, .getConnectionFromPoolTimeout:
            return (SourceError(.timeout, "no answer from \(host) in time"), true)
        default:
            return (SourceError(.network, "transport error talking to \(host)"), true)
        }
    }
}
