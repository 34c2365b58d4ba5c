import Foundation
import Testing

/// `swift run aggregate` on a fresh clone: the shipped manifest, offline, without any key.
@Suite("First run: the shipped manifest, offline and without keys (end to end)")
struct FirstRunEndToEndTests {
    static let keys = ["OPENWEATHER_API_KEY", "TMDB_API_KEY", "GITHUB_TOKEN"]

    @Test("files, the sample feed and the exec example give items; keyed sources are disabled, naming their variable")
    func shippedManifest() async throws {
        // No proxy either: nothing of this run may try the network.
        let removing = Self.keys + ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"]
        let result = try await Aggregate.run(["--format", "json"], in: Aggregate.packageRoot, removing: removing)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let sources = try result.sources()
        func source(_ id: String) -> [String: Any] { sources.first { $0["id"] as? String == id } ?? [:] }
        for id in ["notes", "news", "words"] {
            #expect(source(id)["status"] as? String == "ok", "\(id): \(source(id))")
            #expect((source(id)["itemCount"] as? Int ?? 0) > 0, "\(id) gave no items")
        }
        #expect(source("news")["provider"] as? String == "feed")
        let titles = try result.items().filter { $0["source"] as? String == "news" }.compactMap { $0["title"] as? String }
        #expect(titles.contains("Star City"), "the sample feed's first story: \(titles)")
        for (id, variable) in [("weather", "OPENWEATHER_API_KEY"), ("movies", "TMDB_API_KEY")] {
            #expect(source(id)["status"] as? String == "skipped")
            let message = source(id)["message"] as? String ?? ""
            #expect(message.contains("disabled in the manifest; needs $\(variable)"), "\(id): \(message)")
        }
        #expect(source("issues")["status"] as? String == "skipped")
        #expect(source("swift-blog")["status"] as? String == "skipped")
    }

    @Test("list names the one variable each keyed source needs")
    func listNamesVariables() async throws {
        let result = try await Aggregate.run(["list"], in: Aggregate.packageRoot, removing: Self.keys)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("weather") && $0.hasSuffix("disabled; needs $OPENWEATHER_API_KEY") })
        #expect(lines.contains { $0.hasPrefix("movies") && $0.hasSuffix("disabled; needs $TMDB_API_KEY") })
        #expect(lines.contains { $0.hasPrefix("news") && $0.contains("enabled") })
    }
}
