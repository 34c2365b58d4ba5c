import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import Logging
import ProviderTesting
import Testing

/// The live client a source gets, for `environment` and the TLS / proxy options (retries on, short backoff,
/// so a retried failure would show as a second connection).
func liveClient(
    environment: [String: String] = [:], caFile: URL? = nil, proxy: ProxySetting = .environment,
    insecureSkipVerify: Bool = false, maxRetries: Int = 2, logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
) -> any HTTPFetching {
    LiveHTTPClientFactory(network: NetworkEnvironment(environment)).makeClient(HTTPClientConfiguration(
        maxConnectionsPerHost: 4, requestTimeout: 20, retry: RetryPolicy(maxRetries: maxRetries, baseDelay: 0.05, maxDelay: 0.2),
        logger: logger, sourceID: "test", caFile: caFile, proxy: proxy, insecureSkipVerify: insecureSkipVerify))
}

/// A recorded OpenWeather answer (Fixtures/SOURCES.md), for the tests that check what came through.
func recordedWeather() throws -> String {
    String(decoding: try Data(contentsOf: fixture("success_zocca_docs_example_standard_units_pyopenweathermap.json")), as: UTF8.self)
}

/// A request carrying a secret in its query, so messages can be checked for it.
func secretRequest(_ server: TLSFixtureServer) -> HTTPRequest {
    .get(server.baseURL, path: "/data", query: [URLQueryItem(name: "appid", value: secretKey)], secrets: [secretKey])
}

@Suite("TLS: a private CA, clear certificate errors, no retries")
struct TLSTests {
    /// The environment's proxy setting (none set) and `proxy: direct`: both go straight to the server.
    static let transports: [(String, ProxySetting)] = [("environment", .environment), ("direct", .direct)]

    @Test("an untrusted certificate is a clear TLS error that says what to do, after exactly one connection",
          arguments: transports)
    func untrusted(transport: String, proxy: ProxySetting) async throws {
        let certificates = try await TestCertificates.shared()
        let server = try await TLSFixtureServer.start(certificates.localhost, body: "{}")
        let capture = LogCapture()
        let error = try #require(await liveClient(proxy: proxy, logger: capture.logger()).fetch(secretRequest(server)).error)
        #expect(error.kind == .network)
        #expect(error.message.hasPrefix("TLS: the certificate of localhost:\(server.port)"), "\(transport): \(error.message)")
        #expect(error.message.contains("caFile") && error.message.contains("SSL_CERT_FILE"), "\(error.message)")
        #expect(!error.message.contains("retr"), "a certificate failure is not retried: \(error.message)")
        #expect(server.connections == 1, "\(transport): \(server.connections) connections")
        #expect(server.requests == 0)
        #expect(!error.message.contains("/data"), "the message names the host, not the URL: \(error.message)")
        for text in [error.message] + capture.messages { #expect(!text.contains(secretKey), "\(text)") }
        await server.stop()
    }

    @Test("with caFile naming the private CA, its server answers")
    func caFile() async throws {
        let certificates = try await TestCertificates.shared()
        let body = try recordedWeather()
        let server = try await TLSFixtureServer.start(certificates.localhost, body: body)
        let response = try await liveClient(caFile: certificates.caFile).fetch(.get(server.baseURL, path: "/data")).get()
        #expect(response.status == 200 && response.text == body)
        #expect(server.paths == ["/data"])
        await server.stop()
    }

    @Test("with SSL_CERT_FILE naming the private CA, its server answers, for the whole run")
    func sslCertFile() async throws {
        let certificates = try await TestCertificates.shared()
        let body = try recordedWeather()
        let server = try await TLSFixtureServer.start(certificates.localhost, body: body)
        let client = liveClient(environment: ["SSL_CERT_FILE": certificates.caFile.path])
        let response = try await client.fetch(.get(server.baseURL, path: "/")).get()
        #expect(response.status == 200 && response.text == body)
        await server.stop()
    }

    /// A certificate from the trusted CA that is wrong in another way, and what the message must say.
    static let wrongCertificates: [(String, @Sendable (TestCertificates) -> TestCertificates.Identity, [String])] = [
        ("for another host name", { $0.otherHost }, ["hostname mismatch", "'localhost'"]),
        ("expired", { $0.expired }, ["has expired"]),
    ]

    @Test("a certificate from the trusted CA that is for another host or expired fails clearly, not retried",
          arguments: wrongCertificates)
    func wrongCertificate(
        label: String, identity: @Sendable (TestCertificates) -> TestCertificates.Identity, expected: [String]
    ) async throws {
        let certificates = try await TestCertificates.shared()
        let server = try await TLSFixtureServer.start(identity(certificates), body: "{}")
        let error = try #require(await liveClient(caFile: certificates.caFile).fetch(secretRequest(server)).error)
        #expect(error.kind == .network)
        #expect(error.message.hasPrefix("TLS:") && expected.allSatisfy(error.message.contains), "\(label): \(error.message)")
        #expect(server.connections == 1, "\(label)")
        await server.stop()
    }

    @Test("https:// to a plain HTTP server is a TLS handshake failure that says so", arguments: transports)
    func plainServer(transport: String, proxy: ProxySetting) async throws {
        let server = try await FixtureServer.start()
        server.fallback(.json("{}"))
        var components = URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false)!
        components.scheme = "https"
        let error = try #require(await liveClient(proxy: proxy).fetch(.get(components.url!, path: "/x")).error)
        #expect(error.kind == .network)
        #expect(error.message.contains("TLS: the handshake with 127.0.0.1:\(server.port) failed"), "\(transport): \(error.message)")
        #expect(error.message.contains("https://"), "\(error.message)")
        #expect(!error.message.contains("retr"), "\(error.message)")
        await server.stop()
    }

    @Test("insecureSkipVerify reaches a loopback server with an untrusted certificate, and every request says so")
    func insecureSkipVerify() async throws {
        let certificates = try await TestCertificates.shared()
        let server = try await TLSFixtureServer.start(certificates.localhost, body: "{}")
        let capture = LogCapture()
        let client = liveClient(insecureSkipVerify: true, logger: capture.logger())
        for _ in 0..<2 { #expect(try await client.fetch(.get(server.baseURL, path: "/")).get().status == 200) }
        let lines = capture.messages(at: .info)
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.contains("TLS certificate NOT verified (insecureSkipVerify, loopback host only)") }, "\(lines)")
        await server.stop()
    }
}
