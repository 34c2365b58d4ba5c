import Foundation
import HTTPClient
import HTTPClientLive
import Testing

@Suite("The proxy and CA variables, and which transport a source gets")
struct NetworkEnvironmentTests {
    let https = URL(string: "https://api.example.com/v1")!
    let http = URL(string: "http://feeds.example.com/a.rss")!

    @Test("HTTPS_PROXY, HTTP_PROXY and ALL_PROXY are read in either case, lower case first (as curl does)")
    func cases() {
        let upper = NetworkEnvironment(["HTTPS_PROXY": "http://10.0.0.1:3128", "HTTP_PROXY": "proxy.local:8080"])
        #expect(upper.proxy(for: https)?.description == "http://10.0.0.1:3128")
        #expect(upper.proxy(for: http)?.description == "http://proxy.local:8080")
        let both = NetworkEnvironment(["https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:2"])
        #expect(both.proxy(for: https)?.host == "lower")
        let all = NetworkEnvironment(["all_proxy": "http://every:9"])
        #expect(all.proxy(for: https)?.host == "every" && all.proxy(for: http)?.host == "every")
        #expect(NetworkEnvironment(["HTTPS_PROXY": ""]).proxy(for: https) == nil)
        #expect(NetworkEnvironment(["HTTPS_PROXY": "http://p:1"]).proxy(for: http) == nil)
    }

    @Test("NO_PROXY matches hosts, subdomains, ports, IP addresses and *", arguments: [
        ("api.example.com", true), (".example.com", true), ("*.example.com", true), ("example.com", true),
        ("ample.com", false), ("other.com,api.example.com", true), ("api.example.com:443", false),
        ("api.example.com:8443", true), ("*", true), ("", false), ("127.0.0.1", false),
    ])
    func noProxy(pattern: String, bypasses: Bool) {
        let environment = NetworkEnvironment(["HTTPS_PROXY": "http://proxy:3128", "NO_PROXY": pattern])
        let url = URL(string: "https://API.example.com:8443/x")!
        #expect((environment.proxy(for: url) == nil) == bypasses)
        #expect(NetworkEnvironment(["https_proxy": "http://p:1", "no_proxy": "127.0.0.1,[::1]"])
            .proxy(for: URL(string: "https://[::1]:9/")!) == nil)
    }

    @Test("the proxy option overrides the environment: a server of its own, or direct")
    func option() throws {
        let environment = NetworkEnvironment(["HTTPS_PROXY": "http://env:1", "NO_PROXY": "api.example.com"])
        let own = try ProxyEndpoint.parse("http://mine:2").get()
        #expect(environment.proxy(for: https, setting: .server(own)) == own)
        #expect(environment.proxy(for: https, setting: .direct) == nil)
    }

    @Test("proxy credentials are read but never shown, and a bad proxy variable is reported without its value")
    func credentials() throws {
        let endpoint = try ProxyEndpoint.parse("http://al%40ice:pa%3Ass@proxy.corp:3128").get()
        #expect(endpoint.username == "al@ice" && endpoint.password == "pa:ss")
        #expect(endpoint.description == "http://proxy.corp:3128")
        #expect(try ProxyEndpoint.parse("proxy.corp").get().port == 1080)
        let bad = NetworkEnvironment(["HTTPS_PROXY": "socks5://user:hunter2@proxy:1080"])
        #expect(bad.proxy(for: https) == nil && bad.hasProxy)
        #expect(bad.problems.count == 1 && !bad.problems[0].contains("hunter2"))
        #expect(bad.problems[0].contains("HTTPS_PROXY"))
    }

    @Test("SSL_CERT_FILE / SSL_CERT_DIR naming the system's CAs change nothing; other paths do")
    func trust() {
        #expect(!NetworkEnvironment([:]).overridesTrust)
        #expect(!NetworkEnvironment([
            "SSL_CERT_FILE": NetworkEnvironment.systemCertificateFile, "SSL_CERT_DIR": NetworkEnvironment.systemCertificateDirectory,
        ]).overridesTrust)
        #expect(NetworkEnvironment(["SSL_CERT_FILE": "/tmp/corp-ca.pem"]).overridesTrust)
        #expect(NetworkEnvironment(["SSL_CERT_DIR": "/tmp/corp-certs"]).overridesTrust)
        // Decided once, and again when a path changes.
        var changed = NetworkEnvironment(["SSL_CERT_FILE": NetworkEnvironment.systemCertificateFile])
        #expect(!changed.overridesTrust)
        changed.certificateFile = "/tmp/corp-ca.pem"
        #expect(changed.overridesTrust)
        changed.certificateFile = nil
        changed.certificateDirectory = "/tmp/corp-certs"
        #expect(changed.overridesTrust)
    }

    @Test("CURL_CA_BUNDLE names the run's CA bundle before SSL_CERT_FILE, as the curl tool reads them")
    func curlCABundle() {
        #expect(NetworkEnvironment(["CURL_CA_BUNDLE": "/a.pem", "SSL_CERT_FILE": "/b.pem"]).certificateFile == "/a.pem")
        #expect(NetworkEnvironment(["SSL_CERT_FILE": "/b.pem"]).certificateFile == "/b.pem")
        #expect(NetworkEnvironment(["CURL_CA_BUNDLE": ""]).certificateFile == nil)
    }
}
