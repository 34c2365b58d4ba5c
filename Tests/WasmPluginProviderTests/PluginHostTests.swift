import Domain
import Foundation
import ProviderKit
import ProviderTesting
import Testing
import WasmPluginProvider

/// What a well-behaved plugin gets from the host: items, HTTP through the host's client with credentials it
/// never sees, persisted state, option checks, and its module reloaded when the file changes.
@Suite("Plugin host")
struct PluginHostTests {
    static let httpImports = [
        PluginFixture.emitImport,
        #"(import "aggregate_v1" "http_request" (func $http (param i32 i32) (result i32)))"#,
        #"(import "aggregate_v1" "result_read" (func $read (param i32 i32) (result i32)))"#,
    ]

    /// A plugin that sends `request` and emits the host's answer as an item's `fields.answer`.
    static func echoing(_ request: String) -> String {
        let prefix = #"{"type":"item","id":"answer","fields":{"answer":"#
        return PluginFixture.module(
            imports: httpImports, data: [(1_000, request), (8_000, prefix)],
            run: """
                (local $n i32)
                (local.set $n (call $http (i32.const 1000) (i32.const \(request.utf8.count))))
                (local.set $n (call $read (i32.const \(8_000 + prefix.utf8.count)) (i32.const 50000)))
                (i32.store8 (i32.add (i32.const \(8_000 + prefix.utf8.count)) (local.get $n)) (i32.const 125))
                (i32.store8 (i32.add (i32.const \(8_001 + prefix.utf8.count)) (local.get $n)) (i32.const 125))
                (call $emit (i32.const 8000) (i32.add (local.get $n) (i32.const \(prefix.utf8.count + 2))))
                (i32.const 0)
                """)
    }

    @Test("items emitted by a plugin become the source's items, with the exec contract's fields")
    func items() async throws {
        let report = try await PluginFixture.run(try PluginFixture.provider(PluginFixture.emitting([
            #"{"type":"item","id":"1","title":"One","url":"https://example.com/1","date":"2026-11-22T10:00:00Z","fields":{"n":1}}"#,
            #"{"type":"warning","message":"one page skipped"}"#,
            #"{"type":"item","title":"Untitled"}"#,
        ])))
        #expect(report.status == .ok)
        #expect(report.items.map(\.id) == ["1", "item-2"])
        #expect(report.items.first?.url?.absoluteString == "https://example.com/1")
        #expect(report.items.first?.fields["n"] == .int(1))
        #expect(report.warnings == ["plugin 'hostile': one page skipped"])
    }

    @Test("a request to an allowed host goes through the host's client, the credential added by the host and scrubbed from the answer")
    func credentialHeader() async throws {
        let secret = "s3cr3t-token-value"
        let server = try await FixtureServer.start()
        server.route("/greeting", .json(#"{"echo":"Bearer \#(secret)"}"#))
        let request = #"{"url":"\#(server.baseURL.absoluteString)/greeting","credentials":[{"header":"Authorization","name":"token","prefix":"Bearer "}]}"#
        let provider = try PluginFixture.provider(Self.echoing(request), allowedHosts: ["127.0.0.1"])
        let report = try await PluginFixture.run(provider, options: ["credentials": ["token": .string(secret)]])
        let sent = server.requests(path: "/greeting")
        await server.stop()

        #expect(report.status == .ok, "\(String(describing: report.error))")
        #expect(sent.first?.header("Authorization") == "Bearer \(secret)")
        let answer = try #require(report.items.first?.fields["answer"]?.objectValue)
        #expect(answer["status"] == .int(200))
        #expect(answer["body"]?.stringValue?.contains("Bearer ***") == true)
        #expect(!SourceRunner.texts(of: report).contains { $0.contains(secret) })
    }

    @Test("a credential the source does not define fails the source, naming it")
    func unknownCredential() async throws {
        let request = #"{"url":"http://127.0.0.1:9/x","credentials":[{"header":"Authorization","name":"missing"}]}"#
        let report = try await PluginFixture.run(try PluginFixture.provider(Self.echoing(request), allowedHosts: ["127.0.0.1"]))
        #expect(report.error?.message.contains("asked for credential 'missing'") == true)
    }

    @Test("a transport failure is an answer the plugin reads, not a host failure")
    func transportFailureIsAnAnswer() async throws {
        let refused = try await FixtureServer.refusedURL()
        let request = #"{"url":"\#(refused.absoluteString)/x"}"#
        let report = try await PluginFixture.run(try PluginFixture.provider(Self.echoing(request), allowedHosts: ["127.0.0.1"]))
        let answer = try #require(report.items.first?.fields["answer"]?.objectValue)
        #expect(answer["error"]?.objectValue?["kind"] == .string("network"))
    }

    static let first = #"{"type":"item","id":"first"}"#
    static let again = #"{"type":"item","id":"again"}"#

    @Test("state set by a successful run is there for the next one")
    func state() async throws {
        let wat = PluginFixture.module(
            imports: [
                PluginFixture.emitImport,
                #"(import "aggregate_v1" "state_get" (func $get (param i32 i32) (result i32)))"#,
                #"(import "aggregate_v1" "state_set" (func $set (param i32 i32 i32 i32)))"#,
            ],
            data: [(1_000, "cursor"), (1_100, "42"), (2_000, Self.first), (3_000, Self.again)],
            run: """
                (if (result i32) (i32.eq (call $get (i32.const 1000) (i32.const 6)) (i32.const -1))
                  (then (call $set (i32.const 1000) (i32.const 6) (i32.const 1100) (i32.const 2))
                        (call $emit (i32.const 2000) (i32.const \(Self.first.utf8.count))) (i32.const 0))
                  (else (call $emit (i32.const 3000) (i32.const \(Self.again.utf8.count))) (i32.const 0)))
                """)
        let provider = try PluginFixture.provider(wat)
        let store = InMemoryPluginStateStore()
        let first = try await PluginFixture.run(provider, state: store)
        let second = try await PluginFixture.run(provider, state: store)
        #expect(first.items.map(\.id) == ["first"])
        #expect(second.items.map(\.id) == ["again"])
        #expect(store.load(plugin: "hostile", source: "test") == ["cursor": "42"])
    }

    @Test("aggregate_check's problems are option problems with their JSON paths")
    func optionCheck() throws {
        let problem = #"{"type":"problem","option":"city","message":"required: the city to read"}"#
        let wat = PluginFixture.module(
            imports: [PluginFixture.emitImport], data: [(1_000, problem)], run: "(i32.const 0)",
            extra: """
                (func (export "aggregate_check") (param i32 i32) (result i32)
                  (call $emit (i32.const 1000) (i32.const \(problem.utf8.count))) (i32.const 0))
                """)
        let provider = try PluginFixture.provider(wat)
        #expect(throws: ManifestError(path: "sources[0].options.city", "required: the city to read")) {
            try provider.makeSource(.testing(options: [:]))
        }
    }

    @Test("a replaced module file is parsed again, and its digest (the sources' identity) changes")
    func reload() async throws {
        let modules = PluginModuleCache()
        let url = try PluginFixture.write(PluginFixture.emitting([#"{"type":"item","id":"old"}"#]))
        let provider = WasmPluginProvider(PluginDeclaration(name: "p", module: url, allowedHosts: []), modules: modules)
        let before = try await PluginFixture.run(provider)
        let digest = provider.moduleDigest
        let replacement = try PluginFixture.write(PluginFixture.emitting([#"{"type":"item","id":"newer"}"#]))
        try Data(contentsOf: replacement).write(to: url)
        let after = try await PluginFixture.run(provider)
        #expect(before.items.map(\.id) == ["old"])
        #expect(after.items.map(\.id) == ["newer"])
        #expect(digest != nil && provider.moduleDigest != digest)
    }
}
