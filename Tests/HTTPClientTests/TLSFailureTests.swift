import CCurl
import Foundation
import HTTPClient
@testable import HTTPClientLive
import Testing

@Suite("libcurl's TLS results, classified by number")
struct TLSFailureTests {
    /// OpenSSL's verification results (`CURLINFO_SSL_VERIFYRESULT`) and the part of the message each one becomes.
    @Test("each verification result becomes a message that says what failed", arguments: [
        (20, "is not trusted (issued by a CA this machine does not trust)"),
        (18, "is not trusted (self-signed)"),
        (10, "has expired"),
        (9, "is not valid yet"),
        // libcurl checks the host name itself, after OpenSSL verified the chain.
        (1, "(hostname mismatch)"),
    ])
    func verification(result: Int, expected: String) throws {
        var failure = CurlFailure(code: CURLE_PEER_FAILED_VERIFICATION)
        failure.verifyResult = result
        let url = try #require(URL(string: "https://localhost:8443/data?appid=secret"))
        let (error, retryable) = failure.sourceError(url: url, proxy: nil, caFile: nil)
        #expect(error.kind == .network && !retryable)
        #expect(error.message.hasPrefix("TLS: the certificate of localhost:8443 "), "\(error.message)")
        #expect(error.message.contains(expected), "\(error.message)")
        #expect(!error.message.contains("/data") && !error.message.contains("secret"), "\(error.message)")
    }

    @Test("the certificate's subject and issuer are named when the handshake read them")
    func certificateNames() throws {
        var failure = CurlFailure(code: CURLE_PEER_FAILED_VERIFICATION)
        failure.verifyResult = 10
        failure.certificate = CertificateNames(subject: "CN=localhost", issuer: "CN=Example CA")
        let url = try #require(URL(string: "https://localhost:8443/"))
        let message = failure.sourceError(url: url, proxy: nil, caFile: nil).error.message
        #expect(message.hasPrefix("TLS: the certificate of localhost:8443 (subject CN=localhost, issuer CN=Example CA) has expired"),
                "\(message)")
    }

    @Test("a failed handshake, DNS, a refused connection and a refused proxy are told apart by their codes")
    func otherCodes() throws {
        let url = try #require(URL(string: "https://service.example/x"))
        let proxy = ProxyEndpoint(host: "127.0.0.1", port: 3128, username: "user", password: "pw")
        func message(_ code: CURLcode, proxy: ProxyEndpoint? = nil, errno: Int = 0, proxyStatus: Int = 0) -> String {
            var failure = CurlFailure(code: code)
            failure.osErrno = errno
            failure.proxyStatus = proxyStatus
            return failure.sourceError(url: url, proxy: proxy, caFile: nil).error.message
        }
        #expect(message(CURLE_SSL_CONNECT_ERROR).hasPrefix("TLS: the handshake with service.example failed"))
        #expect(message(CURLE_COULDNT_RESOLVE_HOST) == "could not resolve host service.example")
        #expect(message(CURLE_COULDNT_CONNECT, errno: Int(ECONNREFUSED)) == "could not connect to service.example (connection refused)")
        let refused = message(CURLE_COULDNT_CONNECT, proxy: proxy, errno: Int(ECONNREFUSED))
        #expect(refused == "could not connect to the proxy http://127.0.0.1:3128 (connection refused) on the way to service.example")
        #expect(message(CURLE_RECV_ERROR, proxy: proxy, proxyStatus: 403).contains("refused to open a tunnel"))
        #expect(!refused.contains("pw"))
    }
}

