import Domain
import Foundation
import HTMLProvider
import ProviderKit
import ProviderTesting

/// html sources as `aggregate` builds them, with `paths` relative to `Fixtures/`; saved pages served as HTML
/// without a charset unless a test gives one.
let pages = ProviderHarness(HTMLProvider(), id: "pages", bundle: .module, contentType: "text/html")

/// Serves one saved page at `path` and runs a source over it with `options` (`urls` added).
func runPage(
    _ name: String, at path: String = "/page", contentType: String = "text/html", options: JSONObject
) async throws -> (report: SourceReport, base: String) {
    let server = try await FixtureServer.start()
    server.route(path, try pages.response(name, contentType: contentType))
    var options = options
    options["urls"] = [.string(server.baseURL.absoluteString + path)]
    let report = await pages.run(try pages.makeSource(options))
    await server.stop()
    return (report, server.baseURL.absoluteString)
}
