import Foundation
import ProviderTesting
import Testing

/// One binary run per HTTP provider for the fault matrix (the cells themselves run in-process in each provider's
/// test target): a failing source beside a healthy local one exits 1, keeps the other's items, prints no secret.
@Suite("aggregate fault matrix, end to end")
struct FaultMatrixEndToEndTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var provider: String
        /// The secret, put in the environment as `SECRET` and referenced by `options`.
        var secret: String
        /// The provider's options, `BASE` standing for the loopback server's base URL.
        var options: String
        /// The faulty answer to every request.
        var fault: FixtureResponse
        var kind: String

        var testDescription: String { "\(provider): \(kind)" }
    }

    static func echo(_ secret: String) -> String { #"{"message":"bad key \#(secret)","status_message":"bad key \#(secret)"}"# }

    static let cases: [Case] = [
        Case(provider: "openweather", secret: "e2eMatrixOWkey0123456789abcdef01",
             options: #""cities": ["Zocca", "Modena"], "apiKey": "${SECRET}", "baseURL": "BASE""#,
             fault: .json(echo("e2eMatrixOWkey0123456789abcdef01"), status: 401), kind: "unauthorized"),
        Case(provider: "github", secret: "ghp_e2eMatrixToken0123456789abcdefABCD",
             options: #""repos": ["octo-org/octo-repo"], "token": "${SECRET}", "baseURL": "BASE", "maxRetries": 0"#,
             fault: .json(echo("ghp_e2eMatrixToken0123456789abcdefABCD"), status: 403,
                          headers: [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "4102444800")]),
             kind: "rateLimited"),
        Case(provider: "tmdb", secret: "e2eMatrixTMDBkey0123456789abcdef",
             options: #""query": "Alien", "apiKey": "${SECRET}", "baseURL": "BASE", "maxRetries": 0"#,
             fault: FixtureResponse(status: 503, body: Data("down for \("e2eMatrixTMDBkey0123456789abcdef")".utf8)),
             kind: "network"),
        Case(provider: "gitlab", secret: "glpat-e2eMatrixToken0123456789ab",
             options: #""projects": ["group/sub/project"], "token": "${SECRET}", "tokenType": "bearer", "baseURL": "BASE", "maxRetries": 0"#,
             fault: .json(echo("glpat-e2eMatrixToken0123456789ab"), status: 401), kind: "unauthorized"),
        Case(provider: "feed", secret: "e2eMatrixFeedToken0123",
             options: #""urls": ["BASE/news.xml?token=${SECRET}"], "maxRetries": 0"#,
             fault: FixtureResponse(status: 404, body: Data("no feed for token e2eMatrixFeedToken0123".utf8)),
             kind: "notFound"),
    ]

    @Test("a failing HTTP source exits 1, the healthy source's items are printed, no secret appears", arguments: cases)
    func failingSourceBesideHealthyOne(_ matrixCase: Case) async throws {
        let server = try await FixtureServer.start()
        server.fallback(matrixCase.fault)
        let options = matrixCase.options.replacingOccurrences(of: "BASE", with: server.baseURL.absoluteString)
        let sandbox = try Sandbox(manifest: """
            {"version": 1, "defaults": {"timeoutSeconds": 30}, "sources": [
              {"id": "notes", "provider": "files", "options": {"paths": ["data/notes.ndjson"]}},
              {"id": "faulty", "provider": "\(matrixCase.provider)", "options": {\(options)}}
            ]}
            """, files: ["data/notes.ndjson": #"{"id": "n1", "title": "First"}"# + "\n" + #"{"id": "n2", "title": "Second"}"# + "\n"])
        defer { try? FileManager.default.removeItem(at: sandbox.root) }

        var outputs: [String] = []
        for arguments in [["--format", "json", "--verbose"], ["--format", "table", "--verbose"]] {
            let run = try await Aggregate.run(["--manifest", sandbox.manifestPath] + arguments, environment: ["SECRET": matrixCase.secret])
            #expect(run.status == 1, "a failed source makes the run exit 1: \(run.stderr)")
            #expect(!run.stdout.contains(matrixCase.secret), "stdout shows the secret")
            #expect(!run.stderr.contains(matrixCase.secret), "stderr shows the secret")
            outputs.append(run.stdout)
            if arguments.contains("json") {
                let sources = try run.sources()
                let faulty = try #require(sources.first { $0["id"] as? String == "faulty" })
                let error = faulty["error"] as? [String: Any]
                #expect(error?["kind"] as? String == matrixCase.kind, "\(faulty)")
                let ids = try run.items().compactMap { $0["id"] as? String }
                #expect(ids.contains("n1") && ids.contains("n2"), "the healthy source's items are intact")
            }
        }
        #expect(server.requestCount > 0, "the faulty source did ask the server")
        await server.stop()
        #expect(outputs[1].contains("First") && outputs[1].contains("Second"))
    }
}
