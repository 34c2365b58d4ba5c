import Foundation
@testable import HTTPClientLive
import Testing

@Suite("libcurl's TLS error texts, classified")
struct TLSFailureTests {
    /// Texts URLSession on Linux put in `NSLocalizedDescription` (URLError -1) in the measurements of
    /// docs/ARCHITECTURE.md, and the start of the message each one becomes.
    @Test("each libcurl text becomes a message that says what failed", arguments: [
        ("SSL certificate problem: unable to get local issuer certificate", "is not trusted (issued by a CA this machine does not trust)"),
        ("SSL certificate problem: self-signed certificate", "is not trusted (self-signed)"),
        ("SSL certificate problem: certificate has expired", "has expired"),
        ("SSL certificate problem: certificate is not yet valid", "is not valid yet"),
        ("SSL: no alternative certificate subject name matches target host name 'localhost'", "(hostname mismatch)"),
        ("OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number", "failed (the server did not answer in TLS)"),
        ("OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to 127.0.0.1:44039 ",
         "failed (the server closed the connection during the handshake)"),
        ("OpenSSL/3.0.19: error:0A000102:SSL routines::unsupported protocol", "have no TLS version or cipher in common"),
        ("OpenSSL/3.0.19: error:0A00014D:SSL routines::legacy sigalg disallowed or unsupported", "have no TLS version or cipher in common"),
    ])
    func classified(text: String, expected: String) throws {
        let failure = try #require(TLSFailure.fromLibcurl(text))
        let error = failure.error(host: "localhost:8443", hostName: "localhost")
        #expect(error.kind == .network)
        #expect(error.message.hasPrefix("TLS: "))
        #expect(error.message.contains(expected), "\(error.message)")
        #expect(!error.message.contains("127.0.0.1"), "only the host it was given: \(error.message)")
    }

    @Test("texts about something else are left to the other mappings")
    func notTLS() {
        #expect(TLSFailure.fromLibcurl("Failed to connect to localhost port 1 after 0 ms: Couldn't connect to server") == nil)
        #expect(TLSFailure.fromLibcurl("Could not resolve host: example.invalid") == nil)
    }
}
