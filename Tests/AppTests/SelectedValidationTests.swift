@testable import App
import Domain
import Foundation
import ProviderKit
import ProviderTesting
import Synchronization
import Testing

/// The sources a provider built, by source id: what validation and planning cost.
final class BuildCounter: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    func count(_ id: String) { counts.withLock { $0[id, default: 0] += 1 } }
    func built(_ id: String) -> Int { counts.withLock { $0[id] ?? 0 } }
}

/// The echo provider with `apiKey` a secret (it may be given by reference), counting every source it builds.
struct CountingProvider: Provider {
    var inner = EchoProvider(name: "counted", acceptsQuery: false)
    let counter: BuildCounter

    var name: String { inner.name }
    var summary: String { inner.summary }
    var options: [OptionSpec] {
        inner.options.map { $0.name == "apiKey" ? OptionSpec("apiKey", "string", secret: true, help: "Key.") : $0 }
    }

    func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        counter.count(configuration.id)
        return try inner.makeSource(configuration)
    }
}

@Suite("Validation of the selected sources")
struct SelectedValidationTests {
    /// `good` is valid; `typo` has a bad option, `unread` a malformed secret reference.
    static let manifest = """
        {"version": 1, "sources": [
          {"id": "good", "provider": "counted", "options": {"cities": ["Seoul"]}},
          {"id": "typo", "provider": "counted", "options": {"cities": ["Oslo"], "units": "kelvin"}},
          {"id": "unread", "provider": "counted", "options": {"cities": [], "apiKey": {"fromCommand": []}}}
        ]}
        """

    private func load(
        _ counter: BuildCounter, selection: [String]?, manifest: String = Self.manifest,
        in directory: URL = ScratchDirectory.path("aggregate-selected"), environment: [String: String] = [:]
    ) throws(ManifestError) -> AppDIContainer {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("manifest.json")
        try? Data(manifest.utf8).write(to: url)
        return try AppDIContainer.load(
            manifestAt: url, registry: ProviderRegistry([CountingProvider(counter: counter)]),
            environment: environment.merging(["AGGREGATE_HOME": directory.appendingPathComponent("home").path]) { $1 },
            selection: selection)
    }

    @Test("a run of one source neither builds nor fails on another's bad option or malformed secret reference")
    func selectionOnly() async throws {
        let counter = BuildCounter()
        let container = try load(counter, selection: ["good"])
        let outcome = try await container.engine.run(RunRequest(selection: ["good"]))
        #expect(outcome.report.sources.map(\.id) == ["good"])
        #expect(outcome.report.sources.map(\.status) == [.ok])
        #expect(counter.built("typo") == 0)
        #expect(counter.built("unread") == 0)
        #expect(counter.built("good") > 0)
    }

    @Test("without a selection every source's options are checked, each problem at its path")
    func everything() throws {
        let counter = BuildCounter()
        let error = try #require(throws: ManifestError.self) { try load(counter, selection: nil) }
        #expect(error.problems.map(\.path) == ["sources[1].options.units", "sources[2].options.apiKey.fromCommand"])
        #expect(counter.built("typo") == 1)
    }

    @Test("a selection naming a source with a problem reports that problem, and only it")
    func selectedProblem() throws {
        let counter = BuildCounter()
        let error = try #require(throws: ManifestError.self) { try load(counter, selection: ["good", "typo"]) }
        #expect(error.problems.map(\.path) == ["sources[1].options.units"])
        #expect(counter.built("unread") == 0)
    }

    @Test("an id the manifest lacks is left to the one selection check, which run, watch and check-source share")
    func unknownID() async throws {
        let container = try load(BuildCounter(), selection: ["good", "nope"])
        let unknown = SelectionError.unknownSources(["nope"], known: ["good", "typo", "unread"])
        #expect(throws: unknown) { try container.manifest.sources(selectedBy: ["good", "nope"]) }
        await #expect(throws: unknown) { try await container.engine.run(RunRequest(selection: ["good", "nope"])) }
        #expect(throws: unknown) { try Watcher(container: container, options: Watcher.Options(selection: ["good", "nope"])) }
        #expect(throws: SelectionError.unknownSources(["nope"], known: ["good", "typo", "unread"])) {
            try SourceCheck(container: container, sourceID: "nope", logs: { [] }).run()
        }
        #expect(try container.manifest.sources(selectedBy: ["typo", "good"]).map(\.id) == ["good", "typo"])
        #expect(try container.manifest.sources(selectedBy: nil).count == 3)
    }

    @Test("a source's ${VAR}s and secret references are resolved once: validation and every run share them")
    func resolvedOnce() async throws {
        let folder = try ScratchDirectory.Folder("aggregate-resolved")
        try folder.write("helper.sh", "#!/bin/sh\necho asked >> asked.log\necho key-51c0\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.url.appendingPathComponent("helper.sh").path)
        let manifest = """
            {"version": 1, "sources": [
              {"id": "keyed", "provider": "counted", "options": {"cities": ["${CITY}"], "apiKey": {"fromCommand": ["./helper.sh"]}}},
              {"id": "other", "provider": "counted", "options": {"cities": ["${CITY}"]}}
            ]}
            """
        let container = try load(
            BuildCounter(), selection: ["keyed"], manifest: manifest, in: folder.url,
            environment: ["CITY": "Lima", "PATH": "/usr/bin:/bin"])
        #expect(container.resolvedOptions.count == 1, "validation resolved the one source it checked")
        for _ in 0..<2 {
            let outcome = try await container.engine.run(RunRequest(selection: ["keyed"]))
            let item = try #require(outcome.report.sources.first?.items.first)
            #expect(item.fields["cities"] == .array(["Lima"]))
            #expect(item.fields["apiKey"] == .string("key-51c0"))
        }
        #expect(container.resolvedOptions.count == 1, "two runs planned it with what validation resolved")
        let asked = try String(contentsOf: folder.url.appendingPathComponent("asked.log"), encoding: .utf8)
        #expect(asked.split(separator: "\n").count == 1, "the credential helper ran once")
    }
}
