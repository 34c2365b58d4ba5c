import CCurl
import Domain
import Foundation
import HTTPClient

extension CurlFailure {
    /// The failure in the Domain's words, from libcurl's result code and the numbers beside it, never from its
    /// error text. A proxy is named as `http://host:port`, never with its credentials; TLS, DNS and bad URLs are
    /// never retried (the same request fails the same way).
    func sourceError(url: URL, proxy: ProxyEndpoint?, caFile: URL?) -> (error: SourceError, retryable: Bool) {
        let hostName = url.host ?? "the server"
        let host = url.port.map { "\(hostName):\($0)" } ?? hostName
        if let tls = tlsFailure { return (tls.error(host: host, hostName: hostName), false) }
        let proxyName = proxy.map { "the proxy \($0)" } ?? "the proxy"
        // The proxy answered CONNECT with something else than 200.
        if proxy != nil, proxyStatus == 407 {
            return (SourceError(.unauthorized, "\(proxyName) asks for credentials (407): put them in the proxy URL, "
                + "http://user:password@host:port"), false)
        }
        if proxy != nil, proxyStatus >= 300 {
            return (SourceError(.network, "\(proxyName) refused to open a tunnel to \(host) (\(proxyStatus))"), true)
        }
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            return (SourceError(.network, "could not resolve host \(hostName)"), false)
        case CURLE_COULDNT_RESOLVE_PROXY:
            return (SourceError(.network, "could not resolve the proxy host of \(proxyName)"), false)
        case CURLE_COULDNT_CONNECT:
            let why = osErrno == Int(ECONNREFUSED) ? " (connection refused)" : osErrno != 0 ? " (\(String(cString: strerror(Int32(osErrno)))))" : ""
            if let proxy {
                return (SourceError(.network, "could not connect to the proxy \(proxy)\(why) on the way to \(host)"), true)
            }
            return (SourceError(.network, "could not connect to \(host)\(why)"), true)
        case CURLE_OPERATION_TIMEDOUT:
            return (SourceError(.timeout, "no answer from \(host) in time"), true)
        case CURLE_SSL_CACERT_BADFILE:
            let which = caFile.map { "caFile \($0.path)" } ?? "SSL_CERT_FILE / SSL_CERT_DIR / CURL_CA_BUNDLE"
            return (SourceError(.configuration, "the CA certificates (\(which)) could not be loaded"), false)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return (SourceError(.configuration, "unsupported URL (scheme \(url.scheme ?? "none"))"), false)
        case CURLE_BAD_CONTENT_ENCODING:
            return (SourceError(.badResponse, "\(host) sent a body that could not be decoded (its Content-Encoding)"), false)
        case CURLE_GOT_NOTHING, CURLE_WEIRD_SERVER_REPLY:
            return (SourceError(.network, "\(host) closed the connection without a valid HTTP response"), true)
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return (SourceError(.network, "the connection to \(host) closed before the response was complete"), true)
        default:
            // libcurl's text for a code is fixed ("Failure when receiving data from the peer"): no URL, no secret.
            let text = String(cString: curl_easy_strerror(code))
            return (SourceError(.network, "transport error talking to \(host) (\(text.lowercased()))"), true)
        }
    }

    /// The handshake's failure, when it is one: the verification result names what was wrong with the certificate
    /// (OpenSSL's `X509_V_ERR_*`). libcurl checks the host name itself once OpenSSL accepted the chain, and stores
    /// the chain's result only after that check passed: a failed check leaves its "not verified yet" (1), or 0.
    var tlsFailure: TLSFailure? {
        switch code {
        case CURLE_PEER_FAILED_VERIFICATION:
            return TLSFailure(reason: Self.verificationReason(verifyResult), certificate: certificate)
        case CURLE_SSL_CONNECT_ERROR:
            return TLSFailure(reason: .handshake(nil), certificate: certificate)
        case CURLE_SSL_CIPHER:
            return TLSFailure(reason: .unsupportedProtocol(nil), certificate: certificate)
        default:
            return nil
        }
    }

    /// OpenSSL's verification results (x509_vfy.h), by number: stable across OpenSSL 1.1 and 3.
    static func verificationReason(_ result: Int) -> TLSFailure.Reason {
        switch result {
        case 0, 1, 62: .hostnameMismatch
        case 9: .notYetValid
        case 10: .expired
        case 18: .untrusted("self-signed")
        case 19: .untrusted("self-signed in its chain")
        case 2, 20, 21, 27: .untrusted("issued by a CA this machine does not trust")
        case 23: .untrusted("revoked")
        case 24: .untrusted("issued by a certificate that is not a CA")
        default: .untrusted("OpenSSL verification error \(result)")
        }
    }
}
