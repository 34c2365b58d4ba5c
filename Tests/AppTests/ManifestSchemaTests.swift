import App
import Foundation
import ProviderKit
import ProviderTesting
import Testing

@Suite("Manifest schema")
struct ManifestSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Valid manifests for the built-in providers: every provider, the manifest's own keys, sinks and the store.
    static let validManifests = [
        #"{"version": 1, "sources": []}"#,
        #"""
        {"$schema": "./manifest.schema.json", "version": 1,
         "defaults": {"timeoutSeconds": 5, "concurrency": 4, "cacheTTLSeconds": 0, "refreshSeconds": 60},
         "sources": [
           {"id": "notes", "provider": "files", "options": {"paths": ["data/*.csv"], "format": "csv", "delimiter": ";",
                                                           "fields": {"title": "name"}}},
           {"id": "weather", "provider": "openweather", "enabled": false, "timeoutSeconds": 3,
            "options": {"cities": ["Seoul", {"id": 2643743}, {"lat": 44.34, "lon": 10.99}], "units": "imperial",
                        "apiKey": {"fromCommand": ["pass", "show", "openweather"]}, "maxRetries": 2, "proxy": "direct"}},
           {"id": "words", "provider": "exec", "concurrency": 2,
            "options": {"command": ["./x.py"], "args": ["-v"], "env": {"A": "b"}, "config": {"top": [1, {"x": null}]},
                        "input": "file", "maxOutputBytes": 1000}},
           {"id": "issues", "provider": "github", "refreshSeconds": 600,
            "options": {"repos": ["a/b"], "state": "all", "labels": ["bug"], "since": "7d", "maxItems": 20,
                        "token": {"fromFile": "~/.config/github-token"}, "includePullRequests": true}},
           {"id": "movies", "provider": "tmdb", "cacheTTLSeconds": 60,
            "options": {"mode": "popular", "pages": 2, "region": "US", "accessToken": "${T}"}},
           {"id": "search", "provider": "tmdb",
            "options": {"query": "Alien", "year": 1979, "includeAdult": false, "apiKey": "${TMDB_API_KEY}"}},
           {"id": "news", "provider": "feed", "options": {"urls": ["https://example.com/a.xml"], "paths": ["f.xml"],
                                                         "maxItemsPerFeed": 5, "requestTimeoutSeconds": 2.5}}
         ],
         "sinks": [
           {"id": "hook", "type": "webhook", "url": "https://example.com/h", "secret": "${S}", "sources": ["notes"],
            "batch": 50, "maxRetries": 3, "timeoutSeconds": 5},
           {"id": "prog", "type": "exec", "command": ["./sink.sh"], "args": [], "env": {"K": "v"}}
         ],
         "store": {"url": "${DATABASE_URL}"},
         "reader": {"username": "me", "password": {"fromFile": "reader.password"}}}
        """#,
    ]

    /// Manifests the built-in providers reject for their options, and the path the schema names.
    static let invalidOptions: [(String, String)] = [
        (#"{"version": 1, "sources": [{"id": "a", "provider": "files", "options": {"paths": ["x"], "formt": "csv"}}]}"#,
         "sources/0/options"),
        (#"{"version": 1, "sources": [{"id": "a", "provider": "files", "options": {"paths": "x"}}]}"#,
         "sources/0/options/paths"),
        (#"{"version": 1, "sources": [{"id": "a", "provider": "files", "options": {}}]}"#, "sources/0/options"),
        (#"{"version": 1, "sources": [{"id": "a", "provider": "github", "options": {"repos": ["a/b"], "state": "shut"}}]}"#,
         "sources/0/options/state"),
        (#"{"version": 1, "sources": [{"id": "a", "provider": "github", "options": {"repos": ["a/b"], "maxItems": 0}}]}"#,
         "sources/0/options/maxItems"),
        (#"{"version": 1, "sources": [{"id": "a", "provider": "tmdb", "options": {"query": "x", "pages": "2"}}]}"#,
         "sources/0/options/pages"),
        (#"{"version": 1, "sources": [{"id": "a", "provider": "openweather", "options": {"cities": [{"name": "Seoul"}], "apiKey": "k"}}]}"#,
         "sources/0/options/cities/0"),
        (#"{"version": 1, "sources": [{"id": "a", "provider": "exec", "options": {"command": ["x"], "input": "pipe"}}]}"#,
         "sources/0/options/input"),
        (#"{"version": 1, "sources": [{"id": "a", "provider": "feed", "options": {"urls": ["https://x"], "insecureSkipVerify": "no"}}]}"#,
         "sources/0/options/insecureSkipVerify"),
        (#"{"version": 1, "sources": [], "sinks": [{"id": "s", "type": "mail"}]}"#, "sinks/0/type"),
        (#"{"version": 1, "sources": [{"id": "a", "provider": "github", "options": {"repos": ["a/b"], "token": {"fromFile": 3}}}]}"#,
         "sources/0/options/token"),
        (#"{"version": 1, "sources": [{"id": "a", "provider": "github", "options": {"repos": ["a/b"], "token": {"fromEnv": "X"}}}]}"#,
         "sources/0/options/token"),
    ]

    @Test("the committed manifest.schema.json is what `aggregate schema` prints for the registered providers")
    func committedSchemaInSync() throws {
        let committed = try String(contentsOf: Self.root.appendingPathComponent(ManifestSchema.fileName), encoding: .utf8)
        #expect(committed == ManifestSchema.text(),
                "manifest.schema.json is out of date; regenerate it: \(ManifestSchema.regenerateCommand)")
    }

    @Test("the shipped manifest names the committed schema")
    func shippedManifestNamesSchema() throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent("manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(manifest["$schema"] as? String == "./\(ManifestSchema.fileName)")
    }

    @Test("every option of every registered provider has a JSON shape, and credentials are marked secret")
    func everyOptionHasAShape() {
        for provider in ProviderRegistry.builtIn.providers {
            for option in provider.options {
                #expect(option.hasKnownShape, "\(provider.name).\(option.name): '\(option.type)' names no shape; give one")
                let lowered = option.name.lowercased()
                let credential = ["apikey", "token", "password", "secret"].contains { lowered.hasSuffix($0) }
                #expect(option.secret == credential, "\(provider.name).\(option.name): secret should be \(credential)")
            }
        }
    }

    @Test("the loader and the schema accept the shipped manifest and the valid fixtures; the schema, every manifest the documentation shows")
    func acceptsValid() async throws {
        var files = [Self.root.appendingPathComponent("manifest.json")]
        files += try Self.validManifests.enumerated().map { index, document in try Self.write(document, name: "valid-\(index)") }
        for url in files {
            #expect(throws: Never.self, "\(url.path)") { _ = try AppDIContainer.load(manifestAt: url, environment: [:]) }
        }
        // The documentation's examples name files that are not here (CA bundles, plugin modules): the schema only.
        let examples = try Self.documentedManifests()
        // README.md, docs/MANIFEST.md, docs/PROVIDERS.md and docs/providers/ show at least this many; finding fewer
        // means the search lost them, not that they became valid.
        try #require(examples.count >= 15, "examples found: \(examples.map(\.place))")
        var documents = try files.map { try String(contentsOf: $0, encoding: .utf8) }
        documents += examples.map(\.text)
        let places = files.map(\.path) + examples.map(\.place)
        let errors = try await JSONSchemaCheck.errors(schema: ManifestSchema.text(), documents: documents)
        try #require(errors.count == documents.count)
        for (place, found) in zip(places, errors) { #expect(found.isEmpty, "\(place): \(found)") }
    }

    @Test("with plugins a source may name one; without, its provider must be a registered one")
    func plugins() async throws {
        let withPlugin = #"""
            {"version": 1, "plugins": [{"name": "acme", "module": "p.wasm", "allowedHosts": ["a.example"], "fuel": 1000,
                                        "memoryPages": 4}],
             "sources": [{"id": "x", "provider": "acme", "options": {"anything": [1]}}]}
            """#
        let withoutPlugin = #"{"version": 1, "sources": [{"id": "x", "provider": "acme"}]}"#
        let errors = try await JSONSchemaCheck.errors(schema: ManifestSchema.text(), documents: [withPlugin, withoutPlugin])
        #expect(errors.first?.isEmpty == true, "\(errors)")
        #expect(errors.last?.isEmpty == false)
    }

    @Test("the schema rejects what the providers reject, naming the same option")
    func rejectsInvalidOptions() async throws {
        for (document, _) in Self.invalidOptions {
            let url = try Self.write(document)
            #expect(throws: ManifestError.self) { _ = try AppDIContainer.load(manifestAt: url, environment: [:]) }
        }
        let errors = try await JSONSchemaCheck.errors(
            schema: ManifestSchema.text(), documents: Self.invalidOptions.map(\.0))
        try #require(errors.count == Self.invalidOptions.count)
        for ((document, path), found) in zip(Self.invalidOptions, errors) {
            #expect(found.contains { $0.hasPrefix("\(path):") }, "\(document): \(found)")
        }
    }

    @Test("the schema of the test providers rejects every structural mistake the loader reports")
    func rejectsStructuralMistakes() async throws {
        // Not JSON at all, and a CA file that does not exist, are beyond a schema: the loader alone finds them.
        let cases = ManifestValidationTests.structuralCases.filter {
            $0.0 != "not json" && !$0.1.contains("does not exist")
        }
        let schema = ManifestSchema.text(registry: .test)
        let errors = try await JSONSchemaCheck.errors(schema: schema, documents: cases.map(\.0))
        for ((document, problem), found) in zip(cases, errors) {
            #expect(!found.isEmpty, "the schema accepts \(document), which the loader rejects: \(problem)")
        }
        #expect(errors.count == cases.count)
    }

    /// The manifests README.md, docs/ and Examples/ show in ```json blocks: each whole manifest ("version" and
    /// "sources") as written, each single source ("id" and "provider") in a manifest of its own. Fragments (a key
    /// and its value, a sink) are left out.
    static func documentedManifests() throws -> [(place: String, text: String)] {
        var pages = [root.appendingPathComponent("README.md")]
        for folder in ["docs", "Examples"] {
            let found = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "md" && !$0.path.contains("/.build/") } ?? []
            pages += found.sorted { $0.path < $1.path }
        }
        var manifests: [(place: String, text: String)] = []
        for page in pages {
            let lines = try String(contentsOf: page, encoding: .utf8).components(separatedBy: "\n")
            var block: [String]?
            var start = 0
            for (number, line) in lines.enumerated() {
                if block == nil, line.trimmingCharacters(in: .whitespaces) == "```json" {
                    block = []
                    start = number + 1
                } else if let open = block, line.trimmingCharacters(in: .whitespaces) == "```" {
                    block = nil
                    let text = open.joined(separator: "\n")
                    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                        continue
                    }
                    let place = "\(page.path.dropFirst(root.path.count + 1)):\(start)"
                    if object["version"] != nil, object["sources"] != nil {
                        manifests.append((place, text))
                    } else if object["id"] != nil, object["provider"] != nil {
                        manifests.append((place, #"{"version": 1, "sources": ["# + text + "]}"))
                    }
                } else {
                    block?.append(line)
                }
            }
        }
        return manifests
    }

    static func write(_ manifest: String, name: String = "manifest") throws -> URL {
        let directory = ScratchDirectory.path("aggregate-schema")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("\(name).json")
        try Data(manifest.utf8).write(to: url)
        return url
    }
}
