import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import ProviderTesting
import Testing

@Suite("Proxies: the environment's, a source's own, NO_PROXY, credentials never shown")
struct ProxyTests {
    static let user = "proxyuser"
    static let password = "pr0xy-pa55word"

    @Test("with HTTPS_PROXY set, an https request tunnels through the proxy with its credentials, which no line shows",
          arguments: ["HTTPS_PROXY", "https_proxy", "ALL_PROXY"])
    func environmentProxy(variable: String) async throws {
        let certificates = try await TestCertificates.shared()
        let server = try await TLSFixtureServer.start(certificates.localhost, body: "{}")
        let proxy = try await ConnectProxy.start()
        let capture = LogCapture()
        let client = liveClient(
            environment: [variable: "http://\(Self.user):\(Self.password)@127.0.0.1:\(proxy.port)"],
            caFile: certificates.caFile, logger: capture.logger())
        let response = try await client.fetch(secretRequest(server)).get()
        #expect(response.status == 200)
        #expect(proxy.tunnels.map(\.target) == ["localhost:\(server.port)"])
        let expected = "Basic " + Data("\(Self.user):\(Self.password)".utf8).base64EncodedString()
        #expect(proxy.tunnels.first?.proxyAuthorization == expected)
        let lines = capture.messages
        #expect(lines.contains { $0.contains("via proxy http://127.0.0.1:\(proxy.port)") }, "\(lines)")
        for line in lines { #expect(!line.contains(Self.password) && !line.contains(Self.user) && !line.contains(secretKey), "\(line)") }
        await proxy.stop()
        await server.stop()
    }

    @Test("a host named in NO_PROXY goes direct", arguments: ["localhost", ".localhost", "localhost:*PORT*", "*"])
    func noProxy(pattern: String) async throws {
        let certificates = try await TestCertificates.shared()
        let server = try await TLSFixtureServer.start(certificates.localhost, body: "{}")
        let proxy = try await ConnectProxy.start()
        let client = liveClient(
            environment: ["HTTPS_PROXY": proxy.url.absoluteString,
                          "NO_PROXY": "example.org, " + pattern.replacingOccurrences(of: "*PORT*", with: String(server.port))],
            caFile: certificates.caFile)
        #expect(try await client.fetch(.get(server.baseURL, path: "/")).get().status == 200)
        #expect(proxy.tunnels.isEmpty)
        #expect(server.requests == 1)
        await proxy.stop()
        await server.stop()
    }

    @Test("HTTP_PROXY in upper case carries plain http requests (libcurl alone would ignore it)")
    func plainHTTP() async throws {
        let server = try await FixtureServer.start()
        server.fallback(.json(#"{"via":"fixture"}"#))
        let proxy = try await ConnectProxy.start()
        let client = liveClient(environment: ["HTTP_PROXY": proxy.url.absoluteString])
        let response = try await client.fetch(.get(server.baseURL, path: "/plain")).get()
        #expect(response.text == #"{"via":"fixture"}"#)
        #expect(proxy.tunnels.map(\.target) == ["127.0.0.1:\(server.port)"])
        await proxy.stop()
        await server.stop()
    }

    @Test("a source's proxy option wins over the environment; \"direct\" ignores it")
    func option() async throws {
        let certificates = try await TestCertificates.shared()
        let server = try await TLSFixtureServer.start(certificates.localhost, body: "{}")
        let own = try await ConnectProxy.start()
        let environmentProxy = try await ConnectProxy.start()
        let environment = ["HTTPS_PROXY": environmentProxy.url.absoluteString]
        let mine = try ProxyEndpoint.parse(own.url.absoluteString).get()
        let viaOwn = liveClient(environment: environment, caFile: certificates.caFile, proxy: .server(mine))
        #expect(try await viaOwn.fetch(.get(server.baseURL, path: "/")).get().status == 200)
        let direct = liveClient(environment: environment, caFile: certificates.caFile, proxy: .direct)
        #expect(try await direct.fetch(.get(server.baseURL, path: "/")).get().status == 200)
        #expect(own.tunnels.count == 1)
        #expect(environmentProxy.tunnels.isEmpty)
        #expect(server.requests == 2)
        await own.stop()
        await environmentProxy.stop()
        await server.stop()
    }

    @Test("a proxy that refuses connections is a network error naming the proxy, without its credentials")
    func refusingProxy() async throws {
        let refused = try await FixtureServer.refusedURL()
        let port = try #require(refused.port)
        let error = try await fetchThroughProxy(port: port)
        #expect(error.kind == .network)
        #expect(error.message.contains("could not connect to the proxy http://127.0.0.1:\(port) (connection refused)"),
                "\(error.message)")
    }

    /// Fetches an https URL carrying a secret through the proxy on `port` (credentials in `HTTPS_PROXY`, no
    /// retries), expecting a failure, and checks that neither its message nor any log line shows a secret.
    func fetchThroughProxy(port: Int) async throws -> SourceError {
        let capture = LogCapture()
        let client = liveClient(
            environment: ["HTTPS_PROXY": "http://\(Self.user):\(Self.password)@127.0.0.1:\(port)"], maxRetries: 0,
            logger: capture.logger())
        let request = HTTPRequest.get(URL(string: "https://service.example")!, path: "/x",
                                      query: [URLQueryItem(name: "token", value: secretKey)], secrets: [secretKey])
        let error = try #require(await client.fetch(request).error)
        for text in [error.message] + capture.messages {
            #expect(!text.contains(Self.password) && !text.contains(Self.user) && !text.contains(secretKey), "\(text)")
        }
        return error
    }

    /// A proxy that answers `CONNECT` with a refusal, and what the source must then report.
    static let refusals: [(status: String, requiredAuthorization: String?, kind: SourceError.Kind, message: String)] = [
        // ConnectProxy forbids targets that are not on loopback.
        ("403", nil, .network, "refused to open a tunnel to service.example"),
        ("407", "Basic d3Jvbmc6d3Jvbmc=", .unauthorized, "asks for credentials (407)"),
    ]

    @Test("a proxy that refuses the tunnel (403) or the credentials (407) is named without them",
          arguments: refusals)
    func refusedTunnel(
        status: String, requiredAuthorization: String?, kind: SourceError.Kind, message: String
    ) async throws {
        let proxy = try await ConnectProxy.start(requiredAuthorization: requiredAuthorization)
        let error = try await fetchThroughProxy(port: proxy.port)
        #expect(error.kind == kind, "\(status): \(error)")
        #expect(error.message.contains("the proxy http://127.0.0.1:\(proxy.port)") && error.message.contains(message),
                "\(status): \(error.message)")
        #expect(proxy.tunnels.map(\.target) == ["service.example:443"])
        await proxy.stop()
    }
}
