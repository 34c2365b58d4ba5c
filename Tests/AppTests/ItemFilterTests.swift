@testable import App
import Domain
import Foundation
import ProviderKit
import ProviderTesting
import Synchronization
import Testing

/// The manifest's `filter`: read and compiled when the manifest loads (every problem with its JSON path), and
/// applied by the run engine before the history, `--new`, the sinks and the output.
@Suite("Filter rules")
struct ItemFilterTests {
    /// A project with one files source of `stories` (id → title) and the given filter parts.
    struct Project {
        let root = ScratchDirectory.path("aggregate-filter")
        var manifestURL: URL { root.appendingPathComponent("manifest.json") }

        init(defaults: String? = nil, filter: String?, stories: [(String, String)] = Project.stories) throws {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("data"), withIntermediateDirectories: true)
            try write(defaults: defaults, filter: filter)
            let lines = stories.map { id, title in
                #"{"id": "\#(id)", "title": "\#(title)", "author": "\#(id == "c" ? "ada" : "grace")", "labels": [{"name": "\#(id == "d" ? "bug" : "docs")"}], "score": \#(id.unicodeScalars.first!.value)}"#
            }
            try Data(lines.joined(separator: "\n").utf8).write(to: root.appendingPathComponent("data/news.ndjson"))
        }

        static let stories = [("a", "Swift 6 released"), ("b", "Sponsored: buy this"), ("c", "Rust news"), ("d", "A SPONSORED post")]

        func write(defaults: String? = nil, filter: String?) throws {
            let defaultsPart = defaults.map { #""defaults": {"filter": \#($0)}, "# } ?? ""
            let filterPart = filter.map { #", "filter": \#($0)"# } ?? ""
            let manifest = #"{"version": 1, \#(defaultsPart)"sources": [{"id": "news", "provider": "files", "options": {"paths": ["data/news.ndjson"]}\#(filterPart)}]}"#
            try Data(manifest.utf8).write(to: manifestURL)
        }

        func container() throws -> AppDIContainer {
            try AppDIContainer.load(manifestAt: manifestURL, environment: ["AGGREGATE_HOME": root.appendingPathComponent("home").path])
        }

        func run(_ request: RunRequest = RunRequest(), output: any RunOutput = CollectedOutput()) async throws -> SourceReport {
            try #require(try await container().engine.run(request, output: output).report.sources.first)
        }
    }

    static let keptByFilter: [(filter: String, kept: [String])] = [
        (#"{"exclude": {"title": "(?i)sponsored"}}"#, ["a", "c"]),
        (#"{"include": {"title": "(?i)swift|rust"}}"#, ["a", "c"]),
        (#"{"include": {"title": "Swift", "author": "^ada$"}}"#, ["a", "c"]),
        (#"{"include": {"title": "(?i)s"}, "exclude": {"fields.labels.name": "^bug$"}}"#, ["a", "b", "c"]),
        (#"{"exclude": {"fields.labels": "bug"}}"#, ["a", "b", "c"]),
        (#"{"jq": "select(.fields.score > 98)"}"#, ["c", "d"]),
        (#"{"jq": ".title | test(\"news|released\")"}"#, ["a", "c"]),
        (#"{"jq": "select(.source == \"news\" and .id != \"a\")", "exclude": {"title": "Sponsored"}}"#, ["c", "d"]),
        (#"{"exclude": {"url": "."}}"#, ["a", "b", "c", "d"]),
    ]

    @Test("include keeps items any of its patterns matches, exclude drops any match, jq keeps what it selects",
          arguments: keptByFilter)
    func keeps(_ filter: String, kept: [String]) async throws {
        let source = try await Project(filter: filter).run()
        #expect(source.items.map(\.id) == kept)
        #expect(source.filteredItemCount == 4 - kept.count)
        #expect(source.itemCount == kept.count)
    }

    @Test("a streamed run counts what it passed on after the filter")
    func streamedCounts() async throws {
        let project = try Project(filter: #"{"exclude": {"title": "(?i)sponsored"}}"#)
        let written = Written()
        let source = try await project.run(output: StreamedOutput { _, items, _ in written.add(items.map(\.id)) })
        #expect(written.ids == ["a", "c"])
        #expect(source.itemCount == 2)
        #expect(source.filteredItemCount == 2)
    }

    @Test("defaults.filter applies first, the source's own after it; \"filter\": null leaves the default out")
    func defaultsCombine() async throws {
        let both = try await Project(defaults: #"{"exclude": {"title": "(?i)sponsored"}}"#, filter: #"{"exclude": {"author": "ada"}}"#).run()
        #expect(both.items.map(\.id) == ["a"])
        #expect(both.filteredItemCount == 3)
        let inherited = try await Project(defaults: #"{"exclude": {"title": "(?i)sponsored"}}"#, filter: nil).run()
        #expect(inherited.items.map(\.id) == ["a", "c"])
        let optedOut = try await Project(defaults: #"{"exclude": {"title": "(?i)sponsored"}}"#, filter: "null").run()
        #expect(optedOut.items.map(\.id) == ["a", "b", "c", "d"])
        #expect(optedOut.filteredItemCount == nil, "no filter, no count")
    }

    @Test("a dropped item is never recorded: with --new it is new once a loosened filter keeps it, and only then")
    func beforeHistory() async throws {
        let project = try Project(filter: #"{"exclude": {"title": "(?i)sponsored"}}"#)
        let first = try await project.run(RunRequest(newOnly: true))
        #expect(first.itemCount == 2)
        let again = try await project.run(RunRequest(newOnly: true))
        #expect(again.itemCount == 0, "nothing new, and the dropped items were not announced")
        #expect(again.filteredItemCount == 2)

        try project.write(filter: #"{"exclude": {"title": "^Sponsored"}}"#)
        let loosened = try await project.run(RunRequest(newOnly: true))
        #expect(loosened.items.map(\.id) == ["d"], "the item the filter now keeps is new; b is still dropped")
        let last = try await project.run(RunRequest(newOnly: true))
        #expect(last.itemCount == 0, "and announced once")
    }

    @Test("a jq program that fails on an item keeps it and says so in the source's warnings")
    func jqFailureKeeps() async throws {
        let source = try await Project(filter: #"{"jq": "if .id == \"b\" then error(\"no b\") else .id == \"a\" end"}"#).run()
        #expect(source.items.map(\.id) == ["a", "b"])
        #expect(source.filteredItemCount == 2)
        #expect(source.warnings.contains { $0.contains("could not judge 1 item") && $0.contains("no b") }, "\(source.warnings)")
    }

    @Test("a source answered through the response cache is filtered after its last good copy had its part")
    func heldSource() async throws {
        let server = try await FixtureServer.start()
        server.fallback(try FixtureResponse.file(RequestLimitTests.feed, contentType: "application/rss+xml"))
        let root = ScratchDirectory.path("aggregate-filter-feed")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let url = root.appendingPathComponent("manifest.json")
        try Data(#"{"version": 1, "sources": [{"id": "space", "provider": "feed", "options": {"urls": ["\#(server.baseURL)/rss.xml"]}, "filter": {"include": {"title": "(?i)star|engine"}}}]}"#.utf8).write(to: url)
        let container = try AppDIContainer.load(manifestAt: url, environment: ["AGGREGATE_HOME": root.appendingPathComponent("home").path])
        let fresh = try #require(try await container.engine.run(RunRequest()).report.sources.first)
        let cached = try #require(try await container.engine.run(RunRequest()).report.sources.first)
        await server.stop()

        #expect(fresh.cache == .miss && cached.cache == .hit)
        for source in [fresh, cached] {
            #expect(source.items.map(\.title) == ["Star City", "The Engine That Does More"])
            #expect(source.filteredItemCount == 2)
        }
    }

    static let problems: [(filter: String, path: String, says: String)] = [
        (#"{"exclude": {"title": "(unclosed"}}"#, "sources[0].filter.exclude.title", "not a valid regular expression"),
        (#"{"include": {"titel": "x"}}"#, "sources[0].filter.include.titel", "did you mean 'title'"),
        (#"{"include": {"fields.": "x"}}"#, "sources[0].filter.include.fields.", "unknown field"),
        (#"{"jq": "select(.title |"}"#, "sources[0].filter.jq", "jq cannot compile it: jq: error"),
        (#"{"jq": 3}"#, "sources[0].filter.jq", "expected a jq program"),
        (#"{"keep": {}}"#, "sources[0].filter.keep", "unknown key"),
        (#"{}"#, "sources[0].filter", "needs include, exclude or jq"),
        (#"{"exclude": {"title": ""}}"#, "sources[0].filter.exclude.title", "expected a regular expression"),
        (#""(?i)x""#, "sources[0].filter", "expected an object"),
    ]

    @Test("a bad filter is a manifest problem with its JSON path", arguments: problems)
    func problem(_ filter: String, path: String, says: String) throws {
        let project = try Project(filter: filter)
        let error = try #require(throws: ManifestError.self) { try project.container() }
        #expect(error.problems.contains { $0.path == path && $0.message.contains(says) }, "\(error.problems)")
    }

    @Test("defaults.filter is checked too")
    func defaultsProblem() throws {
        let project = try Project(defaults: #"{"jq": "nope("}"#, filter: nil)
        let error = try #require(throws: ManifestError.self) { try project.container() }
        #expect(error.problems.map(\.path) == ["defaults.filter.jq"])
    }
}

private final class Written: Sendable {
    private let collected = Mutex<[String]>([])
    func add(_ ids: [String]) { collected.withLock { $0 += ids } }
    var ids: [String] { collected.withLock { $0 } }
}
