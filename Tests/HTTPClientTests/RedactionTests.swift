import Domain
import Foundation
import HTTPClient
import ProviderTesting
import Testing

@Suite("Secrets stay out of messages and logs")
struct RedactionTests {
    @Test("secret query values are replaced by *** in a shown URL", arguments: [
        "appid", "api_key", "apikey", "access_token", "token", "key", "APPID",
    ])
    func redactsQuery(name: String) {
        let url = URL(string: "https://api.example.com/data?q=Seoul&\(name)=\(secretKey)&units=metric")!
        let shown = Redactor.redact(url)
        #expect(shown == "https://api.example.com/data?q=Seoul&\(name)=***&units=metric")
    }

    @Test("a password in the URL and declared secrets anywhere are scrubbed")
    func redactsPasswordAndSecrets() {
        let url = URL(string: "https://user:\(secretKey)@example.com/p/\(secretKey)")!
        let shown = Redactor.redact(url, secrets: [secretKey])
        #expect(!shown.contains(secretKey))
        #expect(Redactor.scrub("key is \(secretKey)!", secrets: [secretKey]) == "key is ***!")
    }

    @Test("loopback hosts are recognised", arguments: [
        ("127.0.0.1", true), ("localhost", true), ("::1", true), ("[::1]", true), ("127.1.2.3", true),
        ("128.0.0.1", false), ("example.com", false), ("127.0.0.1.example.com", false),
    ])
    func loopback(host: String, expected: Bool) {
        #expect(Redactor.isLoopback(host: host) == expected)
    }

    @Test("verbose log lines name method, redacted URL, status, bytes, ms and retries, never the key")
    func verboseLogLine() async throws {
        let capture = LogCapture()
        let server = try await FixtureServer.start()
        server.route("/data/2.5/weather", .json("{}", status: 500), try .file(fixture("error_401_invalid_api_key_observed_wego_issue151_2021.json"), status: 401))
        let request = HTTPRequest.get(server.baseURL, path: "/data/2.5/weather",
                                      query: [URLQueryItem(name: "q", value: "Seoul"), URLQueryItem(name: "appid", value: secretKey)],
                                      headers: ["Authorization": "Bearer \(secretKey)"], secrets: [secretKey])
        let result = await makeClient(logger: capture.logger()).send(request) { _ in "Invalid API key \(secretKey)" }
        let error = try #require(result.error)
        #expect(error.kind == .unauthorized)
        #expect(!error.message.contains(secretKey), "a key echoed by the service is scrubbed too")
        let lines = capture.messages
        #expect(lines.count == 1, "one line per request, retries included")
        let line = try #require(lines.first)
        #expect(line.hasPrefix("info "), "shown by --verbose, which sets the level to info")
        #expect(line.contains("GET http://127.0.0.1:\(server.port)/data/2.5/weather?q=Seoul&appid=***"))
        #expect(line.contains("401"))
        #expect(line.contains("bytes"))
        #expect(line.contains(" ms"))
        #expect(line.contains("1 retry"))
        #expect(line.contains("source=test"))
        #expect(!lines.joined().contains(secretKey))
        await server.stop()
    }
}
