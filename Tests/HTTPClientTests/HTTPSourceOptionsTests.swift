import Domain
import Foundation
import HTTPClient
import ProviderKit
import ProviderTesting
import Testing

@Suite("Shared HTTP options")
struct HTTPSourceOptionsTests {
    let defaultBaseURL = URL(string: "https://api.example.com")!
    let specs = HTTPSourceOptions.specs(defaultBaseURL: URL(string: "https://api.example.com")!)

    func read(_ options: JSONValue, hasCredential: Bool = false) -> (HTTPSourceOptions, ManifestError?) {
        let reader = OptionsReader(.testing(options: options), specs: specs)
        let http = HTTPSourceOptions.read(reader, defaultBaseURL: defaultBaseURL, credentialOption: "apiKey", hasCredential: hasCredential)
        do throws(ManifestError) {
            try reader.finish()
            return (http, nil)
        } catch {
            return (http, error)
        }
    }

    @Test("defaults: the provider's base URL and 2 retries")
    func defaults() {
        let (http, error) = read([:])
        #expect(error == nil)
        #expect(http.baseURL == defaultBaseURL)
        #expect(http.maxRetries == 2)
        #expect(http.maxResponseBytes == 16 << 20)
    }

    @Test("options override the defaults and size the client from the source")
    func overrides() {
        let (http, error) = read(["baseURL": "http://127.0.0.1:8080/api", "maxRetries": 0, "requestTimeoutSeconds": 3],
                                 hasCredential: true)
        #expect(error == nil, "plain http to loopback may carry a key")
        #expect(http.baseURL.absoluteString == "http://127.0.0.1:8080/api")
        let configuration = http.clientConfiguration(for: .testing(options: [:], timeoutSeconds: 9, concurrency: 12))
        #expect(configuration.maxConnectionsPerHost == 12)
        #expect(configuration.requestTimeout == 3)
        #expect(configuration.retry.maxRetries == 0)
    }

    @Test("bad values are reported with their JSON paths, all at once")
    func problems() throws {
        let (_, error) = read(["baseURL": "ftp://x", "maxRetries": 99, "maxResponseBytes": 0])
        let paths = try #require(error).problems.map(\.path)
        #expect(paths.contains("sources[0].options.baseURL"))
        #expect(paths.contains("sources[0].options.maxRetries"))
        #expect(paths.contains("sources[0].options.maxResponseBytes"))
    }

    @Test("a credential to a plain-http host that is not loopback is a configuration error")
    func plainHTTPRefused() throws {
        let (_, error) = read(["baseURL": "http://api.example.com"], hasCredential: true)
        let problem = try #require(error?.problems.first)
        #expect(problem.path == "sources[0].options.baseURL")
        #expect(problem.message.contains("'apiKey'"))
        #expect(problem.message.contains("https://"))
        #expect(read(["baseURL": "http://api.example.com"], hasCredential: false).1 == nil)
    }
}

@Suite("TLS and proxy options")
struct TransportOptionsTests {
    let specs = HTTPSourceOptions.specs(defaultBaseURL: URL(string: "https://api.example.com")!)

    func read(_ options: JSONValue, in directory: URL? = nil, fetchedURLs: [URL] = []) -> (HTTPSourceOptions, [ManifestProblem]) {
        let configuration = SourceConfiguration.testing(
            options: options, baseDirectory: directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        let reader = OptionsReader(configuration, specs: specs)
        let http = HTTPSourceOptions.read(reader, defaultBaseURL: URL(string: "https://api.example.com")!, fetchedURLs: fetchedURLs)
        do throws(ManifestError) {
            try reader.finish()
            return (http, [])
        } catch {
            return (http, error.problems)
        }
    }

    @Test("caFile resolves against the manifest's directory and must hold a PEM certificate")
    func caFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cafile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
            .write(to: directory.appendingPathComponent("corp.pem"), atomically: true, encoding: .utf8)
        try "not a certificate".write(to: directory.appendingPathComponent("key.txt"), atomically: true, encoding: .utf8)
        let (http, problems) = read(["caFile": "corp.pem"], in: directory)
        #expect(problems.isEmpty)
        #expect(http.caFile?.path == directory.appendingPathComponent("corp.pem").standardizedFileURL.path)
        #expect(http.clientConfiguration(for: .testing(options: [:])).caFile == http.caFile)
        let (_, missing) = read(["caFile": "nope.pem"], in: directory)
        #expect(missing.first?.path == "sources[0].options.caFile" && missing.first?.message.contains("does not exist") == true)
        let (_, notPEM) = read(["caFile": "key.txt"], in: directory)
        #expect(notPEM.first?.message.contains("no PEM certificate") == true)
    }

    @Test("proxy takes a URL or \"direct\"; a bad one is reported without repeating it")
    func proxy() {
        #expect(read(["proxy": "http://u:p@proxy.corp:3128"]).0.proxy
            == .server(ProxyEndpoint(host: "proxy.corp", port: 3128, username: "u", password: "p")))
        #expect(read(["proxy": "direct"]).0.proxy == .direct)
        #expect(read([:]).0.proxy == .environment)
        let (_, problems) = read(["proxy": "socks5://u:hunter2@proxy.corp"])
        #expect(problems.first?.path == "sources[0].options.proxy")
        #expect(problems.first.map { !$0.message.contains("hunter2") && $0.message.contains("http://") } == true)
    }

    @Test("insecureSkipVerify is refused for a base URL that is not loopback, the provider's default one included")
    func insecureSkipVerify() {
        #expect(read(["insecureSkipVerify": true, "baseURL": "https://127.0.0.1:8443"]).1.isEmpty)
        for options: JSONValue in [["insecureSkipVerify": true, "baseURL": "https://git.corp.example"], ["insecureSkipVerify": true]] {
            let problems = read(options).1
            #expect(problems.first?.path == "sources[0].options.insecureSkipVerify")
            #expect(problems.first?.message.contains("caFile") == true)
        }
    }

    @Test("insecureSkipVerify is refused when any URL the source fetches itself (a feed's) is not loopback")
    func insecureSkipVerifyFetchedURLs() throws {
        func problems(_ urls: [String]) throws -> [String] {
            read(["insecureSkipVerify": true], fetchedURLs: try urls.map { try #require(URL(string: $0)) }).1.map(\.message)
        }
        #expect(try problems(["https://localhost:8443/a.xml", "https://127.0.0.1:8443/b.xml"]).isEmpty)
        let refused = try problems(["https://localhost:8443/a.xml", "https://news.corp.example/feed.xml"])
        #expect(refused.count == 1 && refused.first?.contains("not news.corp.example") == true, "\(refused)")
    }

    @Test("the TLS and proxy options do not change what is fetched, so they keep the stored identity")
    func identity() {
        for name in ["caFile", "proxy", "insecureSkipVerify"] {
            #expect(specs.first { $0.name == name }?.identity == .tuning, "\(name)")
        }
    }
}
