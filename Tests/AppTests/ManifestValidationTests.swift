@testable import App
import Foundation
import ProviderKit
import Testing

@Suite("Manifest validation")
struct ManifestValidationTests {
    @Test("a valid manifest loads with defaults applied and per-source overrides kept")
    func valid() throws {
        let loaded = try container("""
            { "version": 1, "defaults": { "timeoutSeconds": 3, "concurrency": 2 },
              "sources": [ { "id": "a", "provider": "echo", "options": { "cities": ["Seoul"] } },
                           { "id": "b-2", "provider": "echo", "enabled": false, "timeoutSeconds": 1.5, "concurrency": 9,
                             "options": { "cities": [] } } ] }
            """)
        let sources = loaded.manifest.sources
        #expect(sources.map(\.id) == ["a", "b-2"])
        #expect(sources[0].timeoutSeconds == 3)
        #expect(sources[0].concurrency == 2)
        #expect(sources[0].enabled)
        #expect(sources[1].timeoutSeconds == 1.5)
        #expect(sources[1].concurrency == 9)
        #expect(!sources[1].enabled)
    }

    @Test("cacheTTLSeconds defaults to 300, may be set in defaults and per source, and 0 turns the cache off")
    func cacheTTL() throws {
        let plain = try container(#"{ "version": 1, "sources": [ { "id": "a", "provider": "echo", "options": { "cities": [] } } ] }"#)
        #expect(plain.manifest.sources[0].cacheTTLSeconds == 300)
        let loaded = try container("""
            { "version": 1, "defaults": { "cacheTTLSeconds": 60 },
              "sources": [ { "id": "a", "provider": "echo", "options": { "cities": [] } },
                           { "id": "b", "provider": "echo", "cacheTTLSeconds": 0, "options": { "cities": [] } } ] }
            """)
        #expect(loaded.manifest.sources.map(\.cacheTTLSeconds) == [60, 0])
    }

    /// Manifests with one structural mistake each and the problem reported (the schema tests use them too).
    static let structuralCases: [(String, String)] = [
        (#"{"version": 1, "sources": [], "defaults": {"cacheTTLSeconds": -1}}"#, "defaults.cacheTTLSeconds: expected a number of seconds from 0 (no cache)"),
        (#"{"version": 1, "sources": [{"id": "a", "provider": "echo", "cacheTTL": 5}]}"#, "sources[0].cacheTTL: unknown key (did you mean 'cacheTTLSeconds'?)"),
        (#"not json"#, "not valid JSON"),
        (#"[1]"#, "expected a JSON object at the top level, found an array"),
        (#"{"sources": []}"#, "version: required; this tool reads manifest version 1"),
        (#"{"version": 2, "sources": []}"#, "version: unsupported version 2"),
        (#"{"version": 1}"#, "sources: required: an array of sources"),
        (#"{"version": 1, "sources": {}}"#, "sources: expected an array, found an object"),
        (#"{"version": 1, "sources": [], "sorces": 1}"#, "sorces: unknown key (did you mean 'sources'?)"),
        (#"{"version": 1, "sources": [], "defaults": {"timeout": 1}}"#, "defaults.timeout: unknown key (did you mean 'timeoutSeconds'?)"),
        (#"{"version": 1, "sources": [], "defaults": {"concurrency": 0}}"#, "defaults.concurrency: expected an integer from 1 to 256, found 0"),
        (#"{"version": 1, "sources": [], "defaults": {"timeoutSeconds": -1}}"#, "defaults.timeoutSeconds: expected a number of seconds greater than 0"),
        (#"{"version": 1, "sources": [3]}"#, "sources[0]: expected an object, found an integer"),
        (#"{"version": 1, "sources": [], "defaults": {"maxConcurrentRequests": 0}}"#, "defaults.maxConcurrentRequests: expected an integer from 1 to 1024, found 0"),
        (#"{"version": 1, "sources": [], "defaults": {"maxConcurrentRequests": 1025}}"#, "defaults.maxConcurrentRequests: expected an integer from 1 to 1024, found 1025"),
        (#"{"version": 1, "sources": [], "defaults": {"maxConcurrentRequests": "8"}}"#, "defaults.maxConcurrentRequests: expected an integer from 1 to 1024, found \"8\""),
        (#"{"version": 1, "sources": [{"id": "a", "provider": "echo", "maxConcurrentRequests": 4}]}"#, "sources[0].maxConcurrentRequests: unknown key"),
        (#"{"version": 1, "sources": [], "defaults": {"caFile": 3}}"#, "defaults.caFile: expected the path of a PEM file, found 3"),
        (#"{"version": 1, "sources": [], "defaults": {"caFile": "/nonexistent/ca.pem"}}"#, "defaults.caFile: /nonexistent/ca.pem does not exist"),
        (#"{"version": 1, "sources": [{"provider": "echo"}]}"#, "sources[0].id: required"),
        (#"{"version": 1, "sources": [{"id": "Bad_Id", "provider": "echo"}]}"#, "sources[0].id: 'Bad_Id' must be lowercase letters, digits and '-' only"),
        (#"{"version": 1, "sources": [{"id": "a"}]}"#, "sources[0].provider: required; registered providers: echo, search"),
        (#"{"version": 1, "sources": [{"id": "a", "provider": "ecko"}]}"#, "sources[0].provider: unknown provider 'ecko' (did you mean 'echo'?); registered providers: echo, search"),
        (#"{"version": 1, "sources": [{"id": "a", "provider": "echo", "enabled": "yes", "options": {"cities": []}}]}"#, "sources[0].enabled: expected true or false, found a string"),
        (#"{"version": 1, "sources": [{"id": "a", "provider": "echo", "options": []}]}"#, "sources[0].options: expected an object, found an array"),
        (#"{"version": 1, "sources": [{"id": "a", "provider": "echo", "option": {}}]}"#, "sources[0].option: unknown key (did you mean 'options'?)"),
        (#"{"version": 1, "sources": [], "plugins": {}}"#, "plugins: expected an array, found an object"),
        (#"{"version": 1, "sources": [], "plugins": [{"module": "p.wasm", "allowedHosts": []}]}"#, "plugins[0].name: required"),
        (#"{"version": 1, "sources": [], "plugins": [{"name": "p", "allowedHosts": []}]}"#, "plugins[0].module: required"),
        (#"{"version": 1, "sources": [], "plugins": [{"name": "p", "module": "p.wasm"}]}"#, "plugins[0].allowedHosts: required"),
        (#"{"version": 1, "sources": [], "plugins": [{"name": "p", "module": "p.wasm", "allowedHosts": ["https://a.example"]}]}"#,
         "plugins[0].allowedHosts[0]: expected a host name such as api.example.com"),
        (#"{"version": 1, "sources": [], "plugins": [{"name": "p", "module": "p.wasm", "allowedHosts": [], "fuel": 0}]}"#,
         "plugins[0].fuel: expected a positive integer"),
        (#"{"version": 1, "sources": [], "plugins": [{"name": "p", "module": "p.wasm", "allowedHosts": [], "memoryPages": 70000}]}"#,
         "plugins[0].memoryPages: expected an integer from 1 to 65536"),
        (#"{"version": 1, "sources": [], "plugins": [{"name": "p", "module": "p.wasm", "allowedHosts": [], "hosts": []}]}"#,
         "plugins[0].hosts: unknown key"),
        (#"{"version": 1, "sources": [], "reader": {"username": "me"}}"#, "reader.password: required"),
        (#"{"version": 1, "sources": [], "reader": {"username": "me", "password": 42}}"#, "reader.password: expected a string or a secret reference, found an integer"),
        (#"{"version": 1, "sources": [], "reader": {"username": "me", "password": {"fromFlie": "p"}}}"#, "reader.password: expected a string, {\"fromFile\""),
        (#"{"version": 1, "sources": [], "reader": {"username": "a:b", "password": "p"}}"#, "reader.username: required: a non-empty string without ':'"),
        (#"{"version": 1, "sources": [], "reader": {"username": "me", "password": "p", "pasword": "q"}}"#, "reader.pasword: unknown key (did you mean 'password'?)"),
        (#"{"version": 1, "sources": [], "reader": ["me"]}"#, "reader: expected an object"),
    ]

    @Test("each structural mistake is reported with its JSON path", arguments: structuralCases)
    func structuralProblem(json: String, expected: String) {
        let found = problems(json)
        #expect(found.contains { $0.hasPrefix(expected) }, "got \(found)")
    }

    @Test("a manifest that is not JSON says where: line and column of the first bad byte")
    func syntaxErrorPosition() {
        let found = problems("{ \"version\": 1,\n  \"sources\": [],\n}")
        #expect(found == ["not valid JSON: line 3, column 1: expected a string key in an object, found '}'"], "got \(found)")
        #expect(problems("{\"version\": 1, \"sources\": [] } x").first?.hasPrefix("not valid JSON: line 1, column 32: unexpected 'x'") == true)
    }

    @Test("defaults.maxConcurrentRequests is 64 unless the manifest sets it, and the container's limit follows it")
    func maxConcurrentRequests() throws {
        let plain = try container(#"{ "version": 1, "sources": [] }"#)
        #expect(plain.manifest.defaults.maxConcurrentRequests == 64)
        #expect(plain.requestSlots.limit == 64)
        let set = try container(#"{ "version": 1, "defaults": { "maxConcurrentRequests": 3 }, "sources": [] }"#)
        #expect(set.manifest.defaults.maxConcurrentRequests == 3)
        #expect(set.requestSlots.limit == 3)
    }

    @Test("duplicate ids name the first use")
    func duplicateIDs() {
        let found = problems("""
            {"version": 1, "sources": [{"id": "a", "provider": "echo", "options": {"cities": []}},
                                       {"id": "a", "provider": "echo", "options": {"cities": []}}]}
            """)
        #expect(found == ["sources[1].id: 'a' is already used by sources[0]"])
    }

    @Test("provider options are checked by the provider, with JSON paths, for disabled sources too")
    func providerOptions() {
        let found = problems("""
            {"version": 1, "sources": [
              {"id": "ok", "provider": "echo", "options": {"cities": ["Seoul"]}},
              {"id": "off", "provider": "echo", "enabled": false, "options": {"cities": "Seoul", "unit": "metric", "units": "kelvin"}}
            ]}
            """)
        #expect(found.contains("sources[1].options.cities: expected an array, found a string"))
        #expect(found.contains { $0.hasPrefix("sources[1].options.unit: unknown option (did you mean 'units'?)") })
        #expect(found.contains("sources[1].options.units: 'kelvin' is not one of standard, metric, imperial"))
    }

    @Test("a missing required option and wrong element types are all reported at once")
    func everyProblemAtOnce() {
        let found = problems("""
            {"version": 1, "sources": [
              {"id": "a", "provider": "echo", "options": {}},
              {"id": "b", "provider": "echo", "options": {"cities": ["x", 2, true]}}
            ]}
            """)
        #expect(found == [
            "sources[0].options.cities: required option is missing",
            "sources[1].options.cities[1]: expected a string, found an integer",
            "sources[1].options.cities[2]: expected a string, found a boolean",
        ])
    }

    @Test("a manifest that does not exist says so with its path")
    func missingFile() {
        let url = URL(fileURLWithPath: "/nonexistent/manifest.json")
        #expect(throws: ManifestError.self) { try AppDIContainer.load(manifestAt: url, registry: .test) }
        do throws(ManifestError) {
            _ = try AppDIContainer.load(manifestAt: url, registry: .test)
        } catch {
            #expect(error.description == "/nonexistent/manifest.json: no such file")
        }
    }

    @Test("a source with a bad id still has its options checked, so one report lists everything")
    func badIDStillValidatesOptions() {
        let found = problems("""
            {"version": 1, "sources": [{"id": "Bad_ID", "provider": "echo", "options": {"cities": "Seoul"}}]}
            """)
        #expect(found == [
            "sources[0].id: 'Bad_ID' must be lowercase letters, digits and '-' only",
            "sources[0].options.cities: expected an array, found a string",
        ])
    }
}
