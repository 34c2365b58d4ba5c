import Foundation
import ProviderTesting
import Testing

/// Runs the built `aggregate` binary against the loopback fixture server, as a user would.
@Suite("aggregate with an OpenWeather source, end to end")
struct OpenWeatherEndToEndTests {
    static let key = "e2eOWkey9f8e7d6c5b4a3928171605f4e3d2c1b0"

    static let invalidKeyBody =
        #"{"cod":401, "message": "Invalid API key. Please see http://openweathermap.org/faq#error401 for more info."}"#

    static func writeManifest(baseURL: URL, in directory: URL) throws -> URL {
        let manifest = """
            {
              "version": 1,
              "sources": [
                {
                  "id": "weather",
                  "provider": "openweather",
                  "timeoutSeconds": 15,
                  "options": {
                    "cities": ["Seoul", "Busan", { "id": 2643743 }],
                    "apiKey": "${OPENWEATHER_API_KEY}",
                    "baseURL": "\(baseURL.absoluteString)"
                  }
                }
              ]
            }
            """
        let url = directory.appendingPathComponent("manifest.json")
        try manifest.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test("a rejected key fails the run with exit 1, and no output of any format or verbosity shows it",
          arguments: [["--format", "json", "--verbose"], ["--format", "table", "--verbose"], ["--format", "ndjson"]])
    func rejectedKeyNeverPrinted(arguments: [String]) async throws {
        let server = try await FixtureServer.start()
        server.route("/data/2.5/weather", .json(Self.invalidKeyBody, status: 401))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aggregate-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = try Self.writeManifest(baseURL: server.baseURL, in: directory)

        let run = try await Aggregate.run(["--manifest", manifest.path] + arguments,
                                     environment: ["OPENWEATHER_API_KEY": Self.key])
        let requests = server.requests
        await server.stop()

        #expect(run.status == 1, "a failed source makes the run exit 1")
        #expect(requests.count == 3, "every city was asked for")
        #expect(requests.allSatisfy { $0.query("appid") == Self.key }, "the key itself is sent to the service")
        #expect(!run.stdout.contains(Self.key))
        #expect(!run.stderr.contains(Self.key))
        #expect((run.stdout + run.stderr).contains("Invalid API key"), "the failure is explained")
        if arguments.contains("--verbose") {
            #expect(run.stderr.contains("appid=***"), "verbose request lines show the redacted URL")
        }
        if arguments.contains("json") {
            #expect(run.stdout.contains("unauthorized"))
        }
    }
}
