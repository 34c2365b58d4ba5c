import Foundation
import ProviderTesting
import Testing

/// The built binary against an HTTPS feed whose certificate comes from a test CA, with the CA and the proxy
/// given as a user would: `SSL_CERT_FILE`, `defaults.caFile`, `HTTPS_PROXY` with credentials.
@Suite("aggregate over TLS and through a proxy, end to end")
struct TLSProxyEndToEndTests {
    /// A recorded feed (Fixtures/SOURCES.md): the RSS 2.0 spec sample, four entries, "Star City" first.
    static func feed() throws -> String {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/rss2_spec_sample_liftoff_news.xml", withExtension: nil))
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// The machine's own proxy and CA variables are replaced by each test's.
    static let machineVariables = [
        "HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy",
        "SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE",
    ]
    static let user = "e2e-proxy-user"
    static let password = "e2e-proxy-Pa55"

    func sandbox(_ server: TLSFixtureServer, defaults: String = "") throws -> Sandbox {
        try Sandbox(manifest: """
            {"version": 1, "defaults": {"timeoutSeconds": 30\(defaults)}, "sources": [
              {"id": "private", "provider": "feed", "options": {"urls": ["\(server.baseURL.absoluteString)/feed.xml"]}}
            ]}
            """)
    }

    @Test("SSL_CERT_FILE and HTTPS_PROXY with credentials: the feed comes through the proxy, no output shows them")
    func proxyAndCertificateFile() async throws {
        let certificates = try await TestCertificates.shared()
        let server = try await TLSFixtureServer.start(certificates.localhost, body: try Self.feed(), contentType: "application/rss+xml")
        let proxy = try await ConnectProxy.start()
        let sandbox = try sandbox(server)
        defer { try? FileManager.default.removeItem(at: sandbox.root) }
        let run = try await Aggregate.run(
            ["--manifest", sandbox.manifestPath, "--format", "json", "--verbose"],
            environment: ["SSL_CERT_FILE": certificates.caFile.path,
                          "HTTPS_PROXY": "http://\(Self.user):\(Self.password)@127.0.0.1:\(proxy.port)"],
            removing: Self.machineVariables)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try run.items().count == 4)
        #expect(try run.items().first?["title"] as? String == "Star City")
        #expect(proxy.tunnels.map(\.target) == ["localhost:\(server.port)"])
        #expect(run.stderr.contains("via proxy http://127.0.0.1:\(proxy.port)"), "\(run.stderr)")
        for output in [run.stdout, run.stderr] {
            #expect(!output.contains(Self.password) && !output.contains(Self.user))
        }
        await proxy.stop()
        await server.stop()
    }

    @Test("an untrusted certificate exits 1 with a TLS error that names caFile, after one connection")
    func untrusted() async throws {
        let certificates = try await TestCertificates.shared()
        let server = try await TLSFixtureServer.start(certificates.localhost, body: try Self.feed(), contentType: "application/rss+xml")
        let sandbox = try sandbox(server)
        defer { try? FileManager.default.removeItem(at: sandbox.root) }
        let run = try await Aggregate.run(
            ["--manifest", sandbox.manifestPath, "--format", "json"], removing: Self.machineVariables)
        #expect(run.status == 1)
        let source = try #require(try run.sources().first)
        let error = try #require(source["error"] as? [String: Any])
        #expect(error["kind"] as? String == "network")
        let message = try #require(error["message"] as? String)
        #expect(message.contains("TLS: the certificate of localhost:\(server.port) (subject CN=localhost, issuer ")
                    && message.contains("is not trusted") && message.contains("caFile"), "\(message)")
        #expect(server.connections == 1)
        await server.stop()
    }

    @Test("caFile in the manifest's defaults (relative to the manifest) trusts the private CA for every HTTP source")
    func defaultsCAFile() async throws {
        let certificates = try await TestCertificates.shared()
        let server = try await TLSFixtureServer.start(certificates.localhost, body: try Self.feed(), contentType: "application/rss+xml")
        let sandbox = try sandbox(server, defaults: #", "caFile": "data/corp-ca.pem""#)
        defer { try? FileManager.default.removeItem(at: sandbox.root) }
        try FileManager.default.copyItem(at: certificates.caFile, to: sandbox.root.appendingPathComponent("data/corp-ca.pem"))
        let run = try await Aggregate.run(
            ["--manifest", sandbox.manifestPath, "--format", "json"], removing: Self.machineVariables)
        #expect(run.status == 0, "\(run.stderr) \(run.stdout)")
        #expect(try run.items().count == 4)
        await server.stop()
    }
}
