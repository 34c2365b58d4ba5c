import Domain
import Foundation

/// A failed TLS handshake, classified from libcurl's result code and OpenSSL's verification result, with a message
/// that says what to do. Never retried: the same certificate fails the same way. The kind is `network` (the output
/// contract's taxonomy, docs/OUTPUT.md: "the transport failed: … TLS …"); the message starts with "TLS:" so a reader can tell.
struct TLSFailure: Sendable, Hashable {
    enum Reason: Sendable, Hashable {
        /// Not issued by a CA this run trusts; the detail says how ("self-signed").
        case untrusted(String)
        case hostnameMismatch
        case expired
        case notYetValid
        /// No TLS version or cipher in common.
        case unsupportedProtocol(String?)
        /// Anything else in the handshake (often: not a TLS server at all).
        case handshake(String?)
    }

    var reason: Reason
    /// The server's certificate, when the handshake got as far as reading it.
    var certificate: CertificateNames?

    private static let trustAdvice = "if it uses a private CA, set \"caFile\" in the source's options to the CA's PEM "
        + "bundle (or SSL_CERT_FILE for the whole run)"

    /// The Domain error for a handshake with `host` (`name:port`).
    func error(host: String, hostName: String) -> SourceError {
        let message: String
        // "the certificate of localhost:8443 (subject CN=localhost, issuer CN=Example CA)"
        let certificateOf = "the certificate of \(host)" + (certificate.map { " (subject \($0.subject), issuer \($0.issuer))" } ?? "")
        switch reason {
        case .untrusted(let detail):
            message = "TLS: \(certificateOf) is not trusted (\(detail)); \(Self.trustAdvice)"
        case .hostnameMismatch:
            message = "TLS: \(certificateOf) is not valid for the name '\(hostName)' (hostname mismatch); "
                + "use a host name the certificate names in the URL"
        case .expired:
            message = "TLS: \(certificateOf) has expired; the server needs a new one (or this machine's clock is wrong)"
        case .notYetValid:
            message = "TLS: \(certificateOf) is not valid yet; check this machine's clock"
        case .unsupportedProtocol(let detail):
            message = "TLS: \(host) and this client have no TLS version or cipher in common\(Self.parenthesized(detail)); "
                + "the server must offer TLS 1.2 or later"
        case .handshake(let detail):
            message = "TLS: the handshake with \(host) failed\(Self.parenthesized(detail)); is it an https:// server? "
                + "(a plain http:// server on that port fails this way)"
        }
        return SourceError(.network, message)
    }

    private static func parenthesized(_ detail: String?) -> String {
        guard let detail, !detail.isEmpty else { return "" }
        return " (\(detail))"
    }
}
