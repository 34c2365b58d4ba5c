import Foundation
import HTTPClient
import ProviderTesting
import Synchronization
import Testing

/// `aggregate serve`, the built binary, as a service manager runs it.
@Suite("aggregate serve, the binary")
struct ServeCommandTests {
    static func sandbox() throws -> (directory: URL, environment: [String: String]) {
        let directory = ScratchDirectory.path("aggregate-serve-cli")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("data"), withIntermediateDirectories: true)
        try Data((#"{"id": "n1", "title": "One"}"# + "\n").utf8).write(to: directory.appendingPathComponent("data/notes.ndjson"))
        try Data("""
            {"version": 1, "sources": [{"id": "notes", "provider": "files", "options": {"paths": ["data/notes.ndjson"]}}]}
            """.utf8).write(to: directory.appendingPathComponent("manifest.json"))
        var environment = ProcessInfo.processInfo.environment
        environment["AGGREGATE_HOME"] = directory.appendingPathComponent("home").path
        environment["AGGREGATE_MANIFEST"] = directory.appendingPathComponent("manifest.json").path
        environment["AGGREGATE_SERVE_TOKEN"] = nil
        return (directory, environment)
    }

    @Test("listening beyond loopback without a token exits 64 and says why; a bad --listen is a usage error")
    func refusedWithoutToken() async throws {
        let (directory, environment) = try Self.sandbox()
        defer { try? FileManager.default.removeItem(at: directory) }
        let refused = try await ProcessRunner.run(Aggregate.binary, ["serve", "--listen", "0.0.0.0:0"], environment: environment)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("token"))
        let bad = try await ProcessRunner.run(Aggregate.binary, ["serve", "--listen", "nonsense"], environment: environment)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--listen"))
    }

    @Test("with a token it serves; SIGTERM closes an open event stream and exits 0; the token is never printed")
    func servesAndStops() async throws {
        let (directory, baseEnvironment) = try Self.sandbox()
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = "cli-token-3f9a7c1e"
        var environment = baseEnvironment
        environment["AGGREGATE_SERVE_TOKEN"] = secret
        let process = try LiveProcess.start(Aggregate.binary, ["serve", "--listen", "127.0.0.1:0", "--verbose"], environment: environment)
        #expect(await process.waitFor { _, stderr in stderr.contains("serving http://") })
        let port = try #require(await Self.port(of: process))
        let base = try #require(URL(string: "http://127.0.0.1:\(port)"))

        var request = HTTPRequest(url: base.appending(path: "api/report"))
        #expect(try await LoopbackClient.send(request).status == 401)
        request.headers["Authorization"] = "Bearer \(secret)"
        #expect(await process.waitFor { _, stderr in stderr.contains("serve: ready: every source finished a cycle (1 source)") })
        #expect(try await LoopbackClient.send(HTTPRequest(url: base.appending(path: "readyz"))).status == 200)
        let report = try await LoopbackClient.send(request)
        #expect(report.status == 200)
        #expect(report.text.contains(#""id":"n1""#))

        let stream = try await LoopbackClient.open(
            HTTPRequest(url: base.appending(path: "events"), headers: ["Authorization": "Bearer \(secret)"]), timeout: .seconds(60))
        #expect(stream.status == 200)
        process.signal(SIGTERM)
        var streamEnded = false
        do {
            while try await stream.nextChunk() != nil {}
            streamEnded = true
        } catch {
            streamEnded = true  // closed under the client is an end too; what matters is that it ended
        }
        #expect(streamEnded)
        let result = await process.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains(secret) && !result.stdout.contains(secret))
    }

    static func port(of process: LiveProcess) async -> Int? {
        let found = Mutex<Int?>(nil)
        _ = await process.waitFor { _, stderr in
            guard let range = stderr.range(of: "serving http://127.0.0.1:") else { return false }
            let digits = stderr[range.upperBound...].prefix { $0.isNumber }
            found.withLock { $0 = Int(digits) }
            return true
        }
        return found.withLock { $0 }
    }
}
