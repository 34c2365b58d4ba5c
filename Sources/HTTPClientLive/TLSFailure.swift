import Domain
import Foundation

/// A failed TLS handshake, classified from what the transport reports, with a message that says what to do.
/// Never retried: the same certificate fails the same way. The kind is `network` (README's taxonomy: "the
/// transport failed: … TLS …"); the message starts with "TLS:" so a reader can tell.
///
/// Neither transport hands over the server's certificate on failure (libcurl's error text has only the
/// reason; AsyncHTTPClient has no verification hook), so the issuer and subject names are not available.
struct TLSFailure: Sendable, Hashable {
    enum Reason: Sendable, Hashable {
        /// Not issued by a CA this run trusts; the detail says how ("self-signed").
        case untrusted(String)
        /// BoringSSL reports only "verify failed": untrusted, expired or not yet valid.
        case unverified
        case hostnameMismatch
        case expired
        case notYetValid
        /// No TLS version or cipher in common.
        case unsupportedProtocol(String?)
        /// Anything else in the handshake (often: not a TLS server at all).
        case handshake(String?)
    }

    var reason: Reason

    private static let trustAdvice = "if it uses a private CA, set \"caFile\" in the source's options to the CA's PEM "
        + "bundle (or SSL_CERT_FILE for the whole run)"

    /// The Domain error for a handshake with `host` (`name:port`).
    func error(host: String, hostName: String) -> SourceError {
        let message: String
        switch reason {
        case .untrusted(let detail):
            message = "TLS: the certificate of \(host) is not trusted (\(detail)); \(Self.trustAdvice)"
        case .unverified:
            message = "TLS: the certificate of \(host) could not be verified: it is not issued by a trusted CA, or it "
                + "has expired or is not valid yet; \(Self.trustAdvice), else check the server's certificate dates"
        case .hostnameMismatch:
            message = "TLS: the certificate of \(host) is not valid for the name '\(hostName)' (hostname mismatch); "
                + "use a host name the certificate names in the URL"
        case .expired:
            message = "TLS: the certificate of \(host) has expired; the server needs a new one (or this machine's clock is wrong)"
        case .notYetValid:
            message = "TLS: the certificate of \(host) is not valid yet; check this machine's clock"
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

    /// Classifies libcurl's error text (what URLSession on Linux puts in `NSLocalizedDescription` of a
    /// `URLError` with code -1), e.g. "SSL certificate problem: self-signed certificate" or
    /// "OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number". Nil when it is not about TLS.
    static func fromLibcurl(_ text: String) -> TLSFailure? {
        let lowered = text.lowercased()
        func has(_ needles: String...) -> Bool { needles.contains { lowered.contains($0) } }
        if has("certificate has expired") { return TLSFailure(reason: .expired) }
        if has("certificate is not yet valid") { return TLSFailure(reason: .notYetValid) }
        if has("no alternative certificate subject name", "does not match target host", "subject name does not match") {
            return TLSFailure(reason: .hostnameMismatch)
        }
        if has("self-signed certificate", "self signed certificate") {
            return TLSFailure(reason: .untrusted("self-signed"))
        }
        if has("unable to get local issuer", "unable to get issuer", "unable to verify the first certificate",
               "certificate not trusted", "invalid ca certificate", "certificate chain too long") {
            return TLSFailure(reason: .untrusted("issued by a CA this machine does not trust"))
        }
        if has("ssl certificate problem") { return TLSFailure(reason: .untrusted(reasonText(text))) }
        if has("unsupported protocol", "protocol version", "no protocols available", "wrong ssl version",
               "no shared cipher", "legacy sigalg", "alert handshake failure") {
            return TLSFailure(reason: .unsupportedProtocol(reasonText(text)))
        }
        if has("wrong version number", "http request") {
            return TLSFailure(reason: .handshake("the server did not answer in TLS"))
        }
        if has("ssl_error_syscall", "unexpected eof", "connection reset") {
            return TLSFailure(reason: .handshake("the server closed the connection during the handshake"))
        }
        if has("ssl", "tls", "certificate") { return TLSFailure(reason: .handshake(reasonText(text))) }
        return nil
    }

    /// The reason part of an OpenSSL / curl message: after the last "::" or ": ", at most 80 characters, and
    /// only letters, digits, spaces and a little punctuation (never anything that could be a URL).
    static func reasonText(_ text: String) -> String {
        // "… in connection to host:port" names the host, which the message says in its own words.
        let text = text.components(separatedBy: " in connection to ").first ?? text
        var reason = Substring(text)
        if let range = text.range(of: "::", options: .backwards) {
            reason = text[range.upperBound...]
        } else if let range = text.range(of: ": ", options: .backwards) {
            reason = text[range.upperBound...]
        }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: " -_,'"))
        let cleaned = String(reason.unicodeScalars.filter { allowed.contains($0) }.map(Character.init))
            .replacingOccurrences(of: "_", with: " ").trimmingCharacters(in: .whitespaces)
        return String(cleaned.prefix(80)).lowercased()
    }
}
