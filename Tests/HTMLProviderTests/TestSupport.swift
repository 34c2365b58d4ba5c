import Domain
import Foundation
import HTMLProvider
import ProviderKit
import ProviderTesting

enum Fixture {
    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// A saved page served as HTML; `contentType` without a charset unless a test gives one.
    static func response(_ name: String, contentType: String = "text/html") throws -> FixtureResponse {
        try .file(url(name), contentType: contentType)
    }
}

/// Builds an html source as `aggregate` would from a manifest entry.
func makeSource(_ options: JSONObject, concurrency: Int = 4) throws -> any ItemSource {
    try HTMLProvider().makeSource(.testing(
        id: "pages", options: .object(options), concurrency: concurrency, baseDirectory: Fixture.directory))
}

func run(_ source: any ItemSource, concurrency: Int = 4) async -> SourceReport {
    await SourceRunner.run(source, id: "pages", provider: "html", timeoutSeconds: SourceRunner.roomyTimeout, concurrency: concurrency)
}

/// Serves one saved page at `path` and runs a source over it with `options` (`urls` added).
func runPage(
    _ name: String, at path: String = "/page", contentType: String = "text/html", options: JSONObject
) async throws -> (report: SourceReport, base: String) {
    let server = try await FixtureServer.start()
    server.route(path, try Fixture.response(name, contentType: contentType))
    var options = options
    options["urls"] = [.string(server.baseURL.absoluteString + path)]
    let report = await run(try makeSource(options))
    await server.stop()
    return (report, server.baseURL.absoluteString)
}

/// The problems a manifest entry's options are refused with, as "path: message" lines.
func problems(_ options: JSONObject) -> [String] {
    do {
        _ = try makeSource(options)
        return []
    } catch {
        return (error as? ManifestError)?.problems.map(\.description) ?? ["\(error)"]
    }
}
