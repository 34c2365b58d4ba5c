import Domain
import Foundation
import ProviderKit

/// A provider's sources as its tests build and run them: configured as the manifest loader would, under one id,
/// with relative `paths` resolved against the test target's `Fixtures/` folder (`resources: [.copy("Fixtures")]`).
///
/// `let pages = ProviderHarness(HTMLProvider(), id: "pages", bundle: .module)`, then
/// `await pages.run(try pages.makeSource(["urls": …]))`.
public struct ProviderHarness<P: Provider>: Sendable {
    /// The provider whose sources the harness builds.
    public let provider: P
    /// The id every source gets, and the report's.
    public let id: String
    /// The test target's `Fixtures/` folder.
    public let fixtures: URL
    /// What `response(_:)` serves fixtures as unless told otherwise.
    public let contentType: String

    /// A harness for `provider`'s sources under `id`, whose fixtures are the `Fixtures/` folder of `bundle` (the
    /// test target's `.module`), served as `contentType` unless said otherwise.
    public init(_ provider: P, id: String, bundle: Bundle, contentType: String = "application/json; charset=utf-8") {
        self.provider = provider
        self.id = id
        fixtures = bundle.resourceURL!.appendingPathComponent("Fixtures")
        self.contentType = contentType
    }

    /// A source built from a manifest entry's options.
    public func makeSource(_ options: JSONObject, concurrency: Int = 4) throws(ManifestError) -> any ItemSource {
        try provider.makeSource(configuration(options, concurrency: concurrency))
    }

    /// The source's report after a run as `aggregate` does it (`SourceRunner`).
    public func run(_ source: any ItemSource, concurrency: Int = 4) async -> SourceReport {
        await SourceRunner.run(
            source, id: id, provider: provider.name, timeoutSeconds: SourceRunner.roomyTimeout, concurrency: concurrency)
    }

    /// The problems a manifest entry's options are refused with, as "path: message" lines.
    public func problems(_ options: JSONObject) -> [String] {
        provider.optionProblems(configuration(options, concurrency: 4)).map(\.description)
    }

    /// Fixture `name`'s file.
    public func fixture(_ name: String) -> URL { fixtures.appendingPathComponent(name) }

    /// Fixture `name` as a response, with the harness's content type unless `contentType` is given.
    public func response(_ name: String, contentType: String? = nil) throws -> FixtureResponse {
        try .file(fixture(name), contentType: contentType ?? self.contentType)
    }

    private func configuration(_ options: JSONObject, concurrency: Int) -> SourceConfiguration {
        .testing(id: id, options: .object(options), concurrency: concurrency, baseDirectory: fixtures)
    }
}
