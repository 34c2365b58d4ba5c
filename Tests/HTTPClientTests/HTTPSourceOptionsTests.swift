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
